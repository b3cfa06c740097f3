"""The batch room: run chunkers over many inputs and write their rows.

Holds what ``docchunk chunk`` runs, callable without click: :mod:`~docchunk.batch.rows`
(one input's chunks as rows: :func:`~docchunk.batch.rows.chunk_rows`,
:func:`~docchunk.batch.rows.text_rows`, :func:`~docchunk.batch.rows.describe_failure`),
:mod:`~docchunk.batch.output` (the JSONL/Parquet row writer),
:mod:`~docchunk.batch.text` (text inputs for the text chunkers),
:mod:`~docchunk.batch.local` (the local engine: one process or a process pool),
:mod:`~docchunk.batch.library_logs` (docling's warnings as log records, also from a worker) and
:mod:`~docchunk.batch.ray` (the Ray driver). The CLI, the integrations and the index
call it.

What it may import: the chunkers (the objects it is given), ``serialization`` (the row
format: :mod:`docchunk.serialization.rows`), ``loading``, ``refineries``, ``errors``,
``_extras`` and ``integrations.ray`` (the Ray Data pipeline the driver runs), lazily
where they are heavy; never ``click`` nor ``docchunk.cli`` (``tests/test_import.py``).
Problems that stop a run before it starts raise :class:`docchunk.errors.BatchSetupError`,
which the CLI turns into a usage error. This package ``__init__`` imports nothing.
"""
