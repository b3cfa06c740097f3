"""Strict configuration shared by the chunkers and refineries.

One place for the checks that every configurable component makes: sizes are ints
in range (:func:`check_size`), unknown keyword arguments and attributes are errors
that name the accepted ones (:func:`unknown_name_error`), and a setting changed
after construction is validated as the constructor validates it
(:class:`StrictConfig`, for the components that are plain classes; the document
chunkers are pydantic models with ``extra="forbid"`` and ``validate_assignment``).
"""

from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import ValidationError

from docchunk.errors import ConfigError, ConfigTypeError, DocchunkError

__all__ = ["StrictConfig", "check_size", "config_error", "unknown_name_error"]


def check_size(name: str, value: object, minimum: int, error: type[ValueError] = ConfigError) -> int:
    """Validate an integer size parameter: the one place for this check.

    Args:
        name: The public parameter's name, shown in the error.
        value: The value given.
        minimum: The smallest value allowed (1 for a size, 0 for an overlap).
        error: The exception class to raise (a docchunk error).

    Returns:
        ``value`` unchanged.

    Raises:
        ConfigError: ``value`` is below ``minimum``; :class:`~docchunk.errors.ConfigTypeError`
            (also a ``TypeError``) when it is not an int (a bool is not).
    """
    if isinstance(value, bool) or not isinstance(value, int):
        kind = ConfigTypeError if error is ConfigError else error  # a wrong type is also a TypeError
        raise kind(f"{name} must be an int >= {minimum}, got {value!r} ({type(value).__name__})")
    if value < minimum:
        raise error(f"{name} must be an int >= {minimum}, got {value!r}")
    return value


def unknown_name_error(owner: str, name: str, accepted: Iterable[str], what: str = "keyword argument") -> ConfigError:
    """The error for a misspelt or unsupported keyword: names it, suggests, lists the accepted ones.

    Args:
        owner: The class, e.g. ``"HybridChunker"``.
        name: The unknown keyword.
        accepted: The keywords ``owner`` accepts.
        what: ``"keyword argument"``, or ``"attribute"`` for an assignment after
            construction.

    Returns:
        A :class:`ConfigError` (to raise), e.g. ``HybridChunker() got an unknown
        keyword argument 'max_token'; did you mean 'max_tokens'? Accepted: ...``; for a
        keyword argument a :class:`~docchunk.errors.ConfigTypeError`, also the
        ``TypeError`` Python raises for an unexpected keyword.
    """
    names = sorted(accepted)
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ";"
    if what == "attribute":
        return ConfigError(f"{owner} has no setting {name!r} to assign{hint} Settings: {', '.join(names)}")
    return ConfigTypeError(f"{owner}() got an unknown {what} {name!r}{hint} Accepted: {', '.join(names)}")


def config_error(owner: str, exc: ValidationError) -> DocchunkError:
    """Our own error for a failed pydantic validation of ``owner``'s settings.

    Returns the docchunk error a validator raised, if any; else a :class:`ConfigError`
    naming the first invalid field, the value given (``!r``) and pydantic's reason.
    """
    for err in exc.errors():
        original = (err.get("ctx") or {}).get("error")
        if isinstance(original, DocchunkError):
            return original
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "<init>"
    return ConfigError(f"{owner}: invalid {where}={first.get('input')!r}: {first['msg']}")


@functools.cache
def _parameters(init: Callable[..., None]) -> tuple[inspect.Signature, frozenset[str]]:
    signature = inspect.signature(init)
    names = [p.name for p in signature.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    return signature, frozenset(names[1:])  # without self


class StrictConfig:
    """Strict keyword arguments and validated assignment for a class configured by ``__init__``.

    A subclass's ``__init__`` parameters are its settings. Then:

    * an unknown keyword argument raises :class:`~docchunk.errors.ConfigTypeError` (a
      ``ConfigError`` and the ``TypeError`` Python raises) naming it, the closest
      accepted name (``difflib``) and all accepted names;
    * assigning a setting after construction (``chunker.chunk_size = 64``) builds the
      object again from its settings with the new value, so every check of the
      constructor, cross-checks included, runs again, and derived state follows. An
      invalid value raises and leaves the object unchanged;
    * assigning a public attribute that does not exist raises, like an unknown keyword.

    Each setting must be stored under its own name or be readable from the arguments
    the object was built with (they are kept, so a spec such as ``tokenizer="word"``
    is resolved again).
    """

    _settings: dict[str, Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__:
            cls.__init__ = _strict_init(cls, cls.__dict__["__init__"])  # type: ignore[method-assign]

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_") or "_settings" not in self.__dict__:
            object.__setattr__(self, name, value)  # private state, or still in __init__
            return
        accepted = _parameters(type(self).__init__)[1]
        if name in accepted:
            settings = {**self._settings, name: value}
            rebuilt = type(self)(**settings)  # raises ConfigError, leaving self as it was
            self.__dict__.clear()
            self.__dict__.update(rebuilt.__dict__)
            return
        if name in self.__dict__ or hasattr(type(self), name):
            object.__setattr__(self, name, value)  # state that is not a setting, or a property
            return
        raise unknown_name_error(type(self).__name__, name, accepted, "attribute")


def _strict_init(cls: type, init: Callable[..., None]) -> Callable[..., None]:
    signature, accepted = _parameters(init)

    @functools.wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        for name in kwargs:
            if name not in accepted:
                raise unknown_name_error(cls.__name__, name, accepted)
        outermost = "_settings" not in self.__dict__ and type(self).__init__ is __init__
        if outermost:
            try:
                bound = signature.bind(self, *args, **kwargs)
            except TypeError as exc:
                raise ConfigTypeError(f"{cls.__name__}(): {exc}; accepted: {', '.join(sorted(accepted))}") from None
            settings = dict(bound.arguments)
            settings.pop(next(iter(signature.parameters)))  # self
        init(self, *args, **kwargs)
        if outermost:
            object.__setattr__(self, "_settings", settings)

    return __init__
