"""docling-core's chunk base classes, without the weight of its chunker package.

docling-core's ``docling_core.transforms.chunker`` package ``__init__`` imports its
line chunker, which imports transformers (and with it torch) and tree-sitter. The
two modules docchunk derives from, ``chunker/base.py`` (``BaseChunker``,
``BaseChunk``, ``BaseMeta``, ``BaseChunkExpander``) and ``chunker/doc_chunk.py`` (``DocChunk``,
``DocMeta``), need none of that. This module loads just those two modules, under a
temporary package entry made from the package's real spec whose ``__init__`` is
not run, and then removes the entry again. The two modules stay in
``sys.modules`` under their real names, so that a later ordinary
``import docling_core.transforms.chunker`` (by the user, langchain-docling,
llama-index ...) runs the real ``__init__``, which imports them from
``sys.modules``: everyone gets the very same classes, and docchunk's chunkers are
real subclasses of docling-core's ``BaseChunker`` (pydantic's ``isinstance``
checks, e.g. in llama-index's ``DoclingNodeParser``, accept them).

A one-shot import hook sets the ``base`` and ``doc_chunk`` attributes on the real
package when it is loaded, as an ordinary import would have done.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
from types import ModuleType
from typing import TYPE_CHECKING, Any

__all__ = ["BaseChunk", "BaseChunkExpander", "BaseChunker", "BaseMeta", "DocChunk", "DocMeta", "docling_chunk_modules"]

_PKG = "docling_core.transforms.chunker"
_LIGHT = ("base", "doc_chunk")
_lock = threading.Lock()


def docling_chunk_modules() -> tuple[ModuleType, ModuleType]:
    """docling-core's ``chunker.base`` and ``chunker.doc_chunk`` modules, loaded lightly.

    Returns:
        ``(base, doc_chunk)``: the modules that define ``BaseChunker``, ``BaseChunk``,
        ``BaseMeta`` and ``DocChunk``, ``DocMeta``; the same module objects an
        ordinary import of ``docling_core.transforms.chunker`` gives, before or after.
    """
    names = [f"{_PKG}.{name}" for name in _LIGHT]
    with _lock:
        if _PKG not in sys.modules and not all(name in sys.modules for name in names):
            _load_without_package_init()
    return importlib.import_module(names[0]), importlib.import_module(names[1])


def _load_without_package_init() -> None:
    spec = importlib.util.find_spec(_PKG)
    if spec is None or spec.submodule_search_locations is None:  # pragma: no cover - broken install
        raise ImportError(f"{_PKG} not found; reinstall docling-core")
    package = importlib.util.module_from_spec(spec)  # the package module, its __init__ not executed
    sys.modules[_PKG] = package
    try:
        base = importlib.import_module(f"{_PKG}.base")
        # doc_chunk.py reads these from the package (``from ...chunker import BaseChunk, BaseMeta``)
        package.BaseChunk = base.BaseChunk  # type: ignore[attr-defined]
        package.BaseMeta = base.BaseMeta  # type: ignore[attr-defined]
        importlib.import_module(f"{_PKG}.doc_chunk")
    finally:
        if sys.modules.get(_PKG) is package:
            del sys.modules[_PKG]
    sys.meta_path.insert(0, _BindLightModules())


class _BindLightModules(importlib.abc.MetaPathFinder):
    """Import hook, used once: the real package gets its ``base``/``doc_chunk`` attributes."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != _PKG:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:  # pragma: no cover - broken install
            return None
        spec.loader = _Loader(spec.loader, self)
        return spec


class _Loader(importlib.abc.Loader):
    def __init__(self, loader: Any, finder: _BindLightModules) -> None:
        self._loader = loader
        self._finder = finder

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = module.__spec__.loader = self._loader  # type: ignore[union-attr]
        if self._finder in sys.meta_path:
            sys.meta_path.remove(self._finder)
        for name in _LIGHT:
            setattr(module, name, sys.modules[f"{_PKG}.{name}"])
        self._loader.exec_module(module)


if TYPE_CHECKING:
    from docling_core.transforms.chunker.base import BaseChunk, BaseChunker, BaseChunkExpander, BaseMeta
    from docling_core.transforms.chunker.doc_chunk import DocChunk, DocMeta
else:
    _base, _doc_chunk = docling_chunk_modules()
    BaseChunk, BaseChunker, BaseMeta = _base.BaseChunk, _base.BaseChunker, _base.BaseMeta
    BaseChunkExpander = _base.BaseChunkExpander
    DocChunk, DocMeta = _doc_chunk.DocChunk, _doc_chunk.DocMeta
