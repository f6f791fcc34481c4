"""The package's error types: every misuse of the API and every failure
raises a DLAError. Misuse that Python names with a built-in type (a wrong
type, a bad value, an integer out of range) raises a DLAError that is
also that built-in type, so both `except dla.DLAError` and the built-in
`except ValueError` catch it."""

__all__ = ["DLAError", "DLATypeError", "DLAValueError", "DLAOverflowError"]


class DLAError(RuntimeError):
    """A diagnostic from the dla C API, or a misuse of the package."""


class DLATypeError(DLAError, TypeError):
    """An argument of the wrong type."""


class DLAValueError(DLAError, ValueError):
    """An argument of the right type and a wrong value (a NUL in a string,
    a name that is not one of the choices, an option out of its range)."""


class DLAOverflowError(DLAError, OverflowError):
    """An integer the C API cannot hold exactly."""
