"""The engine's exceptions: malformed input versus actions the rules forbid."""

from __future__ import annotations

from canasta.rules.refusal import RULE_CODES, Code, Refusal


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
    """A well-formed action that the rules forbid in this position; the state is unchanged.

    Raised with the rule's `Refusal` (its `refusal`; `code` and `message` are read from it), or
    with a message and a code: a rule's code gives a refusal without facts, another code (outside
    the rules) none.
    """

    code = "illegal_action"
    refusal: Refusal | None = None

    def __init__(self, refused: Refusal | str, code: str | None = None) -> None:
        if isinstance(refused, Refusal):
            super().__init__(refused.text, refused.code.value)
            self.refusal = refused
        else:
            super().__init__(refused, code)
            if code in RULE_CODES:
                self.refusal = Refusal(Code(code), refused)

    @classmethod
    def of(cls, code: Code, text: str, case: str | None = None) -> IllegalActionError:
        """The error of a refusal without facts."""
        return cls(Refusal(code, text, case))

    def reworded(self, message: str) -> IllegalActionError:
        """The same refusal with its English message reworded (the rule stays the same)."""
        if self.refusal is None:
            return IllegalActionError(message, self.code)
        return IllegalActionError(self.refusal.worded(message))
