"""Rules of text markup (Markdown code fences) shared by the text chunkers and the refineries.

A neutral room: it imports nothing from :mod:`docchunk.chunkers` or :mod:`docchunk.refineries`,
so that refineries, which take any chunk list, need nothing from the chunker rooms.
"""
