"""Refineries: post-processors of any chunk list."""

from docchunk.refineries.headings import HeadingContextRefinery
from docchunk.refineries.overlap import OverlapRefinery
from docchunk.refineries.rules import RecursiveLevel, RecursiveRules
from docchunk.refineries.table_header import TableHeaderRefinery

__all__ = ["HeadingContextRefinery", "OverlapRefinery", "RecursiveLevel", "RecursiveRules", "TableHeaderRefinery"]
