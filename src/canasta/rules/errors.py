"""The engine's exceptions: malformed input versus actions the rules forbid."""

from __future__ import annotations


class CanastaError(ValueError):
    """Base class of the engine's errors; `code` is a stable machine-readable word."""

    code = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0])


class InvalidActionError(CanastaError):
    """Malformed input: an unknown card, action type or option, a missing or mistyped field."""

    code = "invalid"


class IllegalActionError(CanastaError):
    """A well-formed action that the rules forbid in this position; the state is unchanged."""

    code = "illegal_action"
