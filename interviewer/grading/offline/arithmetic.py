"""Checking a candidate's own arithmetic and unit conversions, whatever the question.

Two checks need no reference figure, only the answer itself:

* **Arithmetic.**  A chain of figures joined by one kind of operator and
  closed by '=' or '≈' ('175B x 2 bytes = 350 GB', '1.34 GB / 50 GB/s =
  27 ms', '2 B + 2 B + 12 B = 16 B') is evaluated in base units and the
  result compared with what the candidate wrote.  Words between a figure
  and the next operator ('80 layers x') name the figure and are skipped.
* **Conversions.**  Two figures of the same dimension restated as one
  in another unit ('400 Gb/s, which is 400 GB/s', '10 Gb/s (that's 10 GB/s)')
  must agree.  The same unit twice, or a different 'per', is a derived
  figure ('128 KiB per token, which is 250 MiB for the prompt'), not a
  restatement, and is left alone.

A mismatch beyond the tolerance is a wrong figure with the working shown as
its reference.  Anything the parser cannot read with confidence (brackets,
mixed operators, a chain that starts mid-expression) is left alone: a false
accusation costs the candidate, a missed one costs nothing.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from interviewer.grading.offline.quantities import Figure

TOLERANCE = 0.15
"""Relative slack for a stated result: rounding in the head is fine, a slipped factor is not."""
APPROX_TOLERANCE = 0.25

_OP = re.compile(r"^[ \t]*(?:[A-Za-z][A-Za-z\-]{0,15}[ \t]+){0,3}?(?P<op>[x×*·/+])[ \t]*$")
"""Between two figures of a chain: up to three naming words, then one operator."""
_EQ = re.compile(
    r"^[ \t]*(?:(?:[A-Za-z][A-Za-z\-]{0,15}[ \t]+){0,3}?(?:=|≈|~=)"
    r"|(?:->|→|=>|(?:is|are|gives|yields|equals|comes[ \t]to|works[ \t]out[ \t]to)(?![A-Za-z]))"
    r"|(?:gives|yields)[ \t]+(?:a|an|the)[ \t]+(?:[A-Za-z\-]{1,15}[ \t]+){1,2}of(?![A-Za-z]))"
    r"[ \t]*(?:(?:about|roughly|around|approximately)[ \t]+)?~?[ \t]*$"
)
"""Between the last figure of a chain and its result: '=' (naming words may sit before it), or an arrow or a
verb ('is', 'gives') right after the figure: '70B x 2 bytes is 140 GB', or 'gives a ridge of' naming the result.
Words before a verb may hide a factor ('640 x 640 RGB image is 1.2 MB' has 3 channels), so they end the chain
instead."""
_SAME = re.compile(
    r"^[ \t]*(?:[A-Za-z][A-Za-z\-]{0,15}[ \t]+){0,2}?(?:[A-Za-z][A-Za-z\-]{0,15})?[ \t]*[,(]?[ \t]*"
    r"(?:which is|that is|that's|i\.e\.,?|aka)[ \t]*~?[ \t]*$",
    re.IGNORECASE,
)
_AFTER_TERM = re.compile(
    r"[0-9][^\n0-9]{0,6}[x×*·+][ \t]*"
    r"(?:(?!(?:is|are|was|gives|equals|means)(?![A-Za-z]))[A-Za-z0-9][A-Za-z0-9\-]{0,15}[ \t]+){1,8}$"
)
"""A figure, an operator and naming words just before a chain's first figure: the expression started before the
chain, its earlier terms named at more length than a chain allows ('4 B + Adam first and second moments 4 B + 4 B
= 16 B').  A verb among the words starts a new right-hand side ('640 x 640 RGB image is 640 x 640 x 3')."""
_GLUED_EQ = re.compile(r"[≈∼~]")
"""A result whose figure carries its own '≈' ('4,096 x 4,096 ≈ 16.8M'): the sign is read with the figure."""
_CHAIN_BREAK = re.compile(r"[()\[\]]|[x×*·/+][ \t]*$")
"""Text just before a chain that means the chain starts mid-expression.  An '=' before it does not: what follows
is a right-hand side of its own ('12 × 4,096² = 12 × 16.8M ≈ 201M')."""


_EXPONENT = re.compile(r"[eE][+\-]?[0-9]|[ \t]?(?:[x×*][ \t]?10|\^)")
_LEADING_NUMBER = re.compile(r"^[~≈0-9.,\s\-–]+")


@dataclass(frozen=True)
class Mismatch:
    figure: Figure
    """The stated result (or restatement) that does not follow."""
    working: str
    """What it should have been, e.g. '175B x 2 = 3.5e+11 (not 350 MB)'."""


def _value(f: Figure, written: bool = False) -> float:
    lo, hi = f.raw[0] if written or f.dimension is None else f.readings[0]
    return (lo + hi) / 2


def _agrees(expected: float, figure: Figure, written: bool = False) -> bool:
    tol = APPROX_TOLERANCE if figure.approx else TOLERANCE
    readings = figure.raw if written or figure.dimension is None else figure.readings
    return any(abs((lo + hi) / 2 - expected) <= tol * max(abs(expected), 1e-12) for lo, hi in readings)


def _fmt(value: float) -> str:
    if value == 0 or 1e-3 <= abs(value) < 1e7:
        return f"{value:,.4g}"
    return f"{value:.3g}"


@dataclass(frozen=True)
class Chain:
    """Figures joined by operators and closed by '=' (or a verb) and a stated result."""

    terms: list[Figure]
    ops: list[str]
    result: Figure


def chains(figures: Sequence[Figure], text: str) -> list[Chain]:
    """Every chain of working in the answer whose result the parser can read with confidence."""
    by_sentence: dict[int, list[Figure]] = {}
    for f in figures:
        by_sentence.setdefault(f.sentence, []).append(f)
    out: list[Chain] = []
    for figs in by_sentence.values():
        out.extend(_chains(sorted(figs, key=lambda f: f.num_start), text))
    return out


def check_arithmetic(figures: Sequence[Figure], text: str, found: Sequence[Chain] | None = None) -> list[Mismatch]:
    """Stated results that the candidate's own chain of figures does not produce, and restatements that differ."""
    out = [m for c in (chains(figures, text) if found is None else found) if (m := _mismatch(c, text))]
    by_sentence: dict[int, list[Figure]] = {}
    for f in figures:
        by_sentence.setdefault(f.sentence, []).append(f)
    for figs in by_sentence.values():
        out.extend(_restatements(sorted(figs, key=lambda f: f.num_start), text))
    return out


def _chains(figs: list[Figure], text: str) -> list[Chain]:
    out: list[Chain] = []
    i = 0
    while i < len(figs) - 1:
        before = text[max(0, figs[i].num_start - 12) : figs[i].num_start]
        chain = [figs[i]]
        ops: list[str] = []
        j = i
        result: Figure | None = None
        while j + 1 < len(figs):
            between = text[figs[j].end : figs[j + 1].num_start]
            if "(" in between or ")" in between:
                break
            op = _OP.match(between)
            if op:
                ops.append(op.group("op"))
                chain.append(figs[j + 1])
                j += 1
                continue
            if len(chain) >= 2 and (
                _EQ.match(between) or (not between.strip() and _GLUED_EQ.match(text, figs[j + 1].num_start))
            ):
                result = figs[j + 1]
            break
        if result is not None and _EXPONENT.match(text, result.end):
            result = None  # '1.2e24', '3 x 10^9': notation the extractor reads only in part
        if result is not None and _AFTER_TERM.search(text, max(0, figs[i].num_start - 80), figs[i].num_start):
            result = None  # '... 4 B + Adam first and second moments 4 B + 4 B = 16 B': the sum began earlier
        if result is not None and not _CHAIN_BREAK.search(before):
            out.append(Chain(chain, ops, result))
        i = j + 1 if j > i else i + 1
    return out


def _mismatch(c: Chain, text: str) -> Mismatch | None:
    chain, ops, result = c.terms, c.ops, c.result
    expected = _evaluate(chain, ops)
    # Working often drops units ('1,120 / 64 = 17.5 GB'): it agrees if it holds in base units or as written.
    written = _evaluate(chain, ops, written=True)
    agrees = (expected is not None and _agrees(expected, result)) or (
        written is not None and _agrees(written, result, written=True)
    )
    if not agrees and expected is not None and result.dimension == "%":
        agrees = _agrees(100 * expected, result)  # '3.5 / 7.9 ≈ 44%': a ratio stated as a percentage
    if not agrees and written is not None and _in_scale(chain, result, text):
        agrees = _agrees_as_written(written, result, text)  # '6.98 + 1.05 ≈ 8.03B': all in billions
    if expected is not None and math.isfinite(expected) and not agrees:
        shown = text[chain[0].num_start : chain[-1].end]
        stated = text[result.num_start : result.end]
        return Mismatch(result, f"{shown} = {_fmt(expected)} in base units, not {stated}")
    return None


_MANTISSA = re.compile(r"[0-9][0-9,]*(?:\.[0-9]+)?")
_SCALED = re.compile(r"[0-9][ \t]?[kKMBT](?![A-Za-z])")


def _in_scale(chain: Sequence[Figure], result: Figure, text: str) -> bool:
    """Plain terms and a result with only a count suffix: the working is in that scale ('6.98 + 1.05 ≈ 8.03B')."""
    if result.dimension is not None or not _SCALED.search(text, result.num_start, result.end):
        return False
    return all(f.dimension is None and not _SCALED.search(text, f.num_start, f.end) for f in chain)


def _agrees_as_written(expected: float, result: Figure, text: str) -> bool:
    m = _MANTISSA.search(text, result.num_start, result.end)
    if m is None:
        return False
    tol = APPROX_TOLERANCE if result.approx else TOLERANCE
    value = float(m.group().replace(",", ""))
    return abs(value - expected) <= tol * max(abs(expected), 1e-12)


def _evaluate(chain: Sequence[Figure], ops: Sequence[str], written: bool = False) -> float | None:
    kinds = {"+" if op == "+" else "*" for op in ops}
    if len(kinds) != 1:
        return None  # mixed operators: precedence and brackets are too easy to misread
    if kinds == {"+"}:
        dims = {f.dimension for f in chain}
        return sum(_value(f, written) for f in chain) if len(dims) == 1 else None
    value = _value(chain[0], written)
    for op, f in zip(ops, chain[1:], strict=True):
        v = _value(f, written)
        if op == "/":
            if v == 0:
                return None
            value /= v
        else:
            value *= v
    return value


def _unit_text(f: Figure, text: str) -> str:
    """The unit as written ('Gb/s' in '400 Gb/s')."""
    return _LEADING_NUMBER.sub("", text[f.num_start : f.end]).strip()


def _restatements(figs: list[Figure], text: str) -> list[Mismatch]:
    out: list[Mismatch] = []
    for a, b in itertools.pairwise(figs):
        if a.dimension is None or a.dimension != b.dimension or a.factor or b.factor or a.per != b.per:
            continue
        if a.dimension in ("x", "%") or _unit_text(a, text) == _unit_text(b, text):
            continue  # same unit twice: a derived figure ('3x the traffic, which is 1.5x DDP'), not a conversion
        if not _SAME.match(text[a.end : b.num_start]):
            continue
        if not _agrees(_value(a), b):
            stated, first = text[b.num_start : b.end], text[a.num_start : a.end]
            out.append(Mismatch(b, f"{first} restated as {stated}, which is not the same quantity"))
    return out
