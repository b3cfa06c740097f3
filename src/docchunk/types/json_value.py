"""``JSONValue``: the type of a value read from or written as JSON."""

from __future__ import annotations

from typing import TypeAlias

JSONValue: TypeAlias = "str | int | float | bool | list[JSONValue] | dict[str, JSONValue] | None"
"""A JSON value: a string, number, boolean, null, or a list or object of JSON values."""

JSONObject: TypeAlias = "dict[str, JSONValue]"
"""A JSON object (``json.loads`` of ``{...}``)."""
