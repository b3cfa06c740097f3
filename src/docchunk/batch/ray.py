"""The Ray driver (``docchunk chunk --engine ray``): chunk on Ray Data and write shards into a folder, quietly.

Ray's own log lines (its start-up, Ray Data's notices, the warnings of its
processes) and docling's warnings go to a log file next to the output folder
(``OUT_DIR.ray.log``), or stay on stderr with ``--debug``. stderr then holds only
docchunk's own lines: one per failed input, and one summary line as with the local
engine. With ``--embed`` the rows get their ``embedding`` column in the pipeline, from
an actor pool (:func:`ray_embed`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from docchunk.errors import BatchSetupError, DocchunkError, EngineStartError

if TYPE_CHECKING:
    from docling_core.transforms.chunker.base import BaseChunker
    from ray.data import Dataset

__all__ = ["log_path", "ray_embed", "run_ray"]


def log_path(output: Path) -> Path:
    """Where a Ray run writing into the folder ``output`` puts Ray's and docling's log lines."""
    return output.with_name(output.name + ".ray.log")


def run_ray(chunker: BaseChunker, files: list[Path], output: Path, address: str | None, num_workers: int,
            out_format: str, debug: bool, error: Callable[[str], None],
            embed: tuple[str, str | None] | None = None) -> tuple[int, int]:  # fmt: skip
    """Chunk ``files`` on Ray Data into shards in the folder ``output``; returns (failed inputs, chunks written).

    ``error`` prints one of docchunk's error lines (on the real stderr), one per
    failed input. ``embed``, ``(model, device)`` of ``--embed``/``--embed-device``,
    adds the ``embedding`` column.

    Raises:
        BatchSetupError: Ray is missing, the semantic extra is missing for ``embed``,
            or ``output`` cannot take the shards (nothing was started).
        EngineStartError: Ray could not be started or reached; the message names Ray's log file.
    """
    ray = _import_ray(address)
    if embed is not None:
        _require_embedder()
    from docchunk.batch.formats import output_format
    from docchunk.integrations.ray import check_output_folder

    if output_format(out_format).ray_write is None:
        raise BatchSetupError(f"the Ray engine cannot write the format {out_format!r}; write it with the local engine")
    try:
        check_output_folder(output, out_format)
    except DocchunkError as exc:
        raise BatchSetupError(f"-o: {exc}") from exc
    with _ray_logs(None if debug else log_path(output)) as log:
        started = _start_ray(ray, address, num_workers)
        if started is None:
            errors, count = _chunk_and_write(ray, chunker, files, output, num_workers, out_format, embed)
    if started is not None:
        raise EngineStartError(f"{started} (Ray's log: {log})" if log else started)
    for message in errors:
        error(message)
    return len(errors), count


def _chunk_and_write(ray: ModuleType, chunker: BaseChunker, files: list[Path], output: Path, num_workers: int,
                     out_format: str, embed: tuple[str, str | None] | None) -> tuple[list[str], int]:  # fmt: skip
    from docchunk.batch.formats import output_format
    from docchunk.integrations.ray import chunk_dataset

    blocks = max(1, min(len(files), num_workers * 4))
    ds = ray.data.from_items([{"path": str(p)} for p in files], override_num_blocks=blocks)
    rows = chunk_dataset(ds, chunker).materialize()
    errors = [row["error"] for row in rows.filter(lambda r: r["error"] is not None).take_all()]
    good = rows.filter(lambda r: r["error"] is None).drop_columns(["error"]).materialize()
    count = good.count()
    if count and embed is not None:
        good = ray_embed(ray, good, *embed)
    write = output_format(out_format).ray_write
    if count and write is not None:  # a format without one is refused before Ray starts (run_ray)
        write(good, output)
    return errors, count


def _require_embedder() -> None:
    """sentence-transformers in the driver: a missing extra is one usage line, not an actor's traceback."""
    from docchunk._extras import require
    from docchunk.errors import MissingDependencyError

    try:
        require("sentence_transformers", "semantic", "--embed")
    except MissingDependencyError as exc:
        raise BatchSetupError(str(exc)) from exc


def ray_embed(ray: ModuleType, rows: Dataset, model: str, device: str | None) -> Dataset:
    """``rows`` (a Ray Dataset of chunk rows) with an ``embedding`` column, embedded by a Ray actor pool.

    One actor per GPU for a CUDA device, else one per two CPUs of the cluster (each
    actor's torch uses several threads). See :func:`docchunk.integrations.ray.embed_dataset`.
    """
    from docchunk.integrations.ray import embed_dataset

    resources = ray.cluster_resources()
    if device is not None and device.startswith("cuda"):
        actors = max(1, int(resources.get("GPU", 0)))
    else:
        actors = max(1, int(resources.get("CPU", 1)) // 2)
    return embed_dataset(rows, model, device=device, actors=actors)


@contextmanager
def _ray_logs(path: Path | None) -> Iterator[Path | None]:
    """Send everything written to stderr meanwhile (by Python or by processes started now) to ``path``.

    The processes Ray starts inherit the redirected stderr, so their later lines go
    to the log file too. ``path`` None: nothing is redirected (``--debug``).
    """
    if path is None:
        yield None
        return
    sys.stderr.flush()
    saved = os.dup(2)
    with open(path, "a", encoding="utf-8", errors="replace") as log:
        os.dup2(log.fileno(), 2)
        try:
            with redirect_stderr(log):
                yield path
        finally:
            log.flush()
            os.dup2(saved, 2)
            os.close(saved)


def _import_ray(address: str | None) -> ModuleType:
    """Ray, or one line saying what to install (Ray Data; Ray Client for ``ray://`` addresses)."""
    import importlib.util

    from docchunk._extras import extra_install, require
    from docchunk.errors import MissingDependencyError

    try:
        ray = require("ray", "ray", "--engine ray")
        require("ray.data", "ray", "--engine ray")
        if address and address.startswith("ray://") and importlib.util.find_spec("grpc") is None:
            raise MissingDependencyError(
                f"--address {address} connects through Ray Client, which needs the package 'grpcio' (ray[client]); "
                f"install it with: {extra_install('ray')}"
            )
    except MissingDependencyError as exc:
        raise BatchSetupError(str(exc)) from exc
    return ray


def _start_ray(ray: ModuleType, address: str | None, num_workers: int) -> str | None:
    """Connect to ``address`` or start a local Ray; None, or what failed in one line."""
    import logging

    logging.getLogger("ray").setLevel(logging.WARNING)
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    if not ray.is_initialized():
        try:
            ray.init(address=address, num_cpus=None if address else num_workers, include_dashboard=False,
                     log_to_driver=False, logging_level=logging.WARNING)  # fmt: skip
        except Exception as exc:  # connection refused, no cluster at the address, ...
            where = f"connect to the Ray cluster at {address}" if address else "start a local Ray instance"
            return f"could not {where}: {type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.print_on_execution_start = False
    return None
