"""``python -m docchunk`` runs the command line."""

from docchunk.cli.main import run

run()
