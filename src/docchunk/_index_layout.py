"""The names of an index folder's own files, shared by the writer and the folder walk (a leaf: imports nothing).

:mod:`docchunk.index.store` writes them; :func:`docchunk.loading.folder_files` leaves
them out of every input walk, so that an index kept inside the folder it indexes (or
any docchunk index found there) is never read as documents.
"""

RECORD_NAME = "docchunk-index.json"
"""The index's record (model, dimension, chunker), in the index folder."""
TABLE_NAME = "chunks"
"""The LanceDB table of the chunks: the folder ``chunks.lance`` in the index folder."""
TABLE_FOLDER = f"{TABLE_NAME}.lance"
"""The folder LanceDB keeps the table in (its data, versions, transactions and indices)."""
