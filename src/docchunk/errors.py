"""The docchunk exception tree.

Every error docchunk raises derives from :class:`DocchunkError` and also from the
built-in exception a caller would expect, so ``except ValueError`` keeps working.
This module is a leaf: it imports nothing from docchunk.
"""

from __future__ import annotations

__all__ = [
    "BatchSetupError",
    "ConfigError",
    "ConfigTypeError",
    "DocchunkError",
    "DocumentError",
    "EngineStartError",
    "MissingDependencyError",
    "ModelLimitWarning",
    "TokenizerError",
]


class DocchunkError(Exception):
    """Root of every exception raised by docchunk."""


class ConfigError(DocchunkError, ValueError):
    """A parameter of a chunker, tokenizer or command has an invalid value."""


class ConfigTypeError(ConfigError, TypeError):
    """A parameter or input has the wrong type (``chunk_size="512"``, ``chunker(None)``, ``chunker(b"...")``).

    A :class:`ConfigError`, so ``except ValueError`` keeps working, and a ``TypeError``, the
    built-in a caller expects for a wrong type.
    """


class DocumentError(DocchunkError, ValueError):
    """An input document is missing, unreadable, corrupt or of an unsupported kind."""


class TokenizerError(DocchunkError, ValueError):
    """A tokenizer spec cannot be resolved, or a tokenizer failed to count."""


class MissingDependencyError(DocchunkError, ImportError):
    """An optional dependency is not installed; the message names the extra to install."""


class BatchSetupError(ConfigError):
    """A batch run (:mod:`docchunk.batch`) cannot start: its output cannot be written, or a package it needs is missing.

    Raised before any input is chunked; the ``docchunk`` command shows it as a usage error.
    """


class EngineStartError(DocchunkError, RuntimeError):
    """A batch engine could not start: no Ray instance could be started or reached; the message says why."""


class ModelLimitWarning(UserWarning):
    """A chunk budget is above the input limit of the tokenizer's model.

    An embedding model truncates longer input, so the end of such a chunk would not be
    embedded. docchunk still honours the budget it was given; the warning names the limit.
    """
