"""The ``docchunk`` command line."""
