"""The chat-log rule of the line level: which lines start a turn, and which paragraphs are chat logs.

A line break before a turn ends a line in a chat log (see
:class:`~docchunk.markup.line_wraps.LineWraps`); docs/sentence.md states the rule.
"""

from __future__ import annotations

import re

__all__ = ["TURN", "is_chat_log"]

# the start of a chat turn: "Ana:", "Ana Lopez:", "Ana (10:02):", "<ana>", "ana>", "[10:02] Ana:", "10:02",
# "12/01/2024, 10:02 - Ana:"
TURN = re.compile(
    r"[ \t]*(?:[\w.@-]{1,30}:[ \t]|[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){1,2}:[ \t]|<[^>\s]{1,30}>|[\w.@-]{1,30}>[ \t]"
    r"|[\w.@'-]{1,30}(?: [\w.@'-]{1,30}){0,2}[ \t]?\((?:\d{1,4}[./-]\d{1,2}[./-]\d{2,4},?[ \t]+)?\d{1,2}:\d{2}"
    r"(?::\d{2})?(?:[ \t]?[AaPp]\.?[Mm]\.?)?\):[ \t]"
    r"|\[?\d{1,4}[./-]\d{1,2}[./-]\d{2,4},?[ \t]+\d{1,2}:\d{2}|\[?\d{1,2}:\d{2})"
)


def is_chat_log(lines: list[str]) -> bool:
    """Whether a paragraph's ``lines`` (stripped) are a chat log: its first line starts a turn, or most of them do.

    A title line before the turns (``Support chat, ticket 4471``) leaves most lines turns;
    a wrapped paragraph with one line that begins like a turn (``reasons: the cost``) has
    one such line among several.
    """
    if TURN.match(lines[0]):
        return True
    return len(lines) > 2 and 2 * sum(1 for line in lines[1:] if TURN.match(line)) > len(lines)
