"""Refineries: post-processors of any chunk list."""

from docchunk.refineries.overlap import OverlapRefinery
from docchunk.refineries.rules import RecursiveLevel, RecursiveRules

__all__ = ["OverlapRefinery", "RecursiveLevel", "RecursiveRules"]
