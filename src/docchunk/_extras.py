"""Optional dependencies: import one, or say exactly what to install.

Every module that needs an optional package (tiktoken, sentence-transformers,
pyarrow, ray, the framework integrations, docling's converter) imports it through
:func:`require`, which raises :class:`~docchunk.errors.MissingDependencyError`
with the ``pip install`` command to run.
"""

from __future__ import annotations

from docchunk.errors import MissingDependencyError

__all__ = ["extra_install", "require"]


def extra_install(extra: str) -> str:
    """The command that installs the docchunk extra ``extra`` (a name such as ``"code"``).

    docchunk is not on a package index yet: the command is the form for a checkout,
    ``pip install ".[code]" (from a docchunk checkout)``.
    """
    return f'pip install ".[{extra}]" (from a docchunk checkout)'


def require(module: str, extra: str | None, purpose: str):
    """Import an optional module or raise :class:`MissingDependencyError`.

    Args:
        module: Dotted module name to import, e.g. ``"tiktoken"``.
        extra: The docchunk extra that installs it, e.g. ``"tiktoken"``; None for a
            dependency of docchunk itself (the message then says to install the package).
        purpose: What the caller needed it for, shown in the message.

    Returns:
        The imported module.

    Raises:
        MissingDependencyError: When the module cannot be imported.
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        package = module.split(".")[0]
        how = (
            extra_install(extra)
            if extra is not None
            else f"pip install {package} (docchunk itself depends on it: reinstalling docchunk brings it back)"
        )
        raise MissingDependencyError(
            f"{purpose} needs the package {package!r}, which is not installed; install it with: {how}"
        ) from exc
