"""The `canasta` command line."""
