"""The rubric's four dimensions: their names, in the order every report shows them, and their titles.

A module of its own, with no imports, so that the CLI's help and the first
screens can name the dimensions without loading the content schema (pydantic).
"""

from __future__ import annotations

from typing import Literal

Dimension = Literal["mechanism", "tradeoff", "numbers", "failure_modes"]
DIMENSIONS: tuple[Dimension, ...] = ("mechanism", "tradeoff", "numbers", "failure_modes")
DIMENSION_TITLES: dict[str, str] = {
    "mechanism": "Mechanism",
    "tradeoff": "Tradeoff",
    "numbers": "Numbers",
    "failure_modes": "Failure modes",
}
