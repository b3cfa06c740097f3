"""The ``docchunk`` command: its group of subcommands, and the entry point.

The subcommands live in their own modules (:mod:`docchunk.cli.chunk`, ``eval``,
``inspect``, ``index``/``search``); options and which chunker each applies to in
:mod:`docchunk.cli.options` and :mod:`docchunk.cli.settings`; the local and Ray
engines in :mod:`docchunk.batch.local` and :mod:`docchunk.batch.ray`.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys

import click

from docchunk.cli.chunk import chunk_command
from docchunk.cli.eval import eval_command
from docchunk.cli.eval_docs import eval_docs_command
from docchunk.cli.index import index_command, search_command
from docchunk.cli.inspect import inspect_command
from docchunk.cli.process import captured_library_logs, error, own_process


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="docchunk")
def cli() -> None:
    """docchunk: chunk documents for retrieval, embedding and search."""


cli.add_command(chunk_command)
for _command in (eval_command, eval_docs_command, inspect_command, index_command, search_command):
    cli.add_command(_command)


def _collect_once_at_exit() -> None:
    """Collect garbage once, then keep the collector off the live objects for shutdown."""
    gc.collect()
    gc.freeze()


def run() -> None:
    """Entry point of the ``docchunk`` console script and ``python -m docchunk``: :func:`main`, then a quick exit.

    Interpreter shutdown collects again and again while it tears modules down,
    walking every object docling-core, pydantic and pandas created at import: about
    0.5 s, a fifth of a short run. At exit this process collects once (garbage in
    reference cycles is still finalized, its files flushed) and freezes what is still
    alive, out of the collector's reach (the command closes its own outputs itself);
    exit handlers still run and the operating system takes the memory back. Only
    here, where docchunk owns the process: a program that calls :func:`main` keeps
    its own shutdown as it was.
    """
    own_process()
    atexit.register(_collect_once_at_exit)
    main()


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``docchunk`` command; usage errors print one line and exit 2."""
    # docling-core imports transformers when it is installed; keep its notices off stderr
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    args = sys.argv[1:] if argv is None else argv
    try:
        with captured_library_logs(debug="--debug" in args):  # docling's warnings: counted, shown with --debug
            cli.main(args=args, prog_name="docchunk", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # pragma: no cover - depends on click version
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc), err=True)
        sys.exit(2)
    except click.UsageError as exc:
        error(exc.format_message().replace("\n", " "))
        sys.exit(2)
    except click.Abort:
        error("aborted")
        sys.exit(130)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        error("interrupted")
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    run()
