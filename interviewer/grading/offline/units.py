"""The units the scorer understands, and what each one is in base units.

Every unit maps to a physical dimension and a factor to that dimension's base
unit: bytes for sizes (bits are 1/8 byte), bytes per second for bandwidth,
seconds for time, and so on.  So '400 Gb/s' and '50 GB/s' compare equal,
while '900 Gb/s' and '900 GB/s' differ by 8x, which is the mistake we want to
catch.  Case matters where the industry's notation says it does: ``B`` is a
byte, ``b`` a bit, ``Gbps`` is gigabits per second.  An all-lower-case 'gb' is
ambiguous in practice, so it carries both readings (bytes first).

Dimensions (base unit): ``B`` (byte), ``B/s``, ``s``, ``tok``, ``tok/s``,
``item`` (requests, inferences, images...), ``item/s``, ``flop``, ``flop/s``,
``op/s`` (integer TOPS), ``%``, ``x`` (a ratio), ``W``, ``Hz``, ``param``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Unit:
    dimension: str
    factor: float
    """Multiply by this to get the dimension's base unit."""
    alt_factor: float | None = None
    """A second reading for ambiguous spellings ('gb' may be bytes or bits)."""


UNITS: dict[str, Unit] = {}
RATE_SUFFIX_DIMENSIONS = {"B": "B/s", "tok": "tok/s", "item": "item/s", "flop": "flop/s", "op": "op/s"}

_DEC = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
_BIN = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50}
_WORD_PREFIX = {"kilo": 1e3, "mega": 1e6, "giga": 1e9, "tera": 1e12, "peta": 1e15}
_WORD_BIN = {"kibi": 2.0**10, "mebi": 2.0**20, "gibi": 2.0**30, "tebi": 2.0**40}


def _add(names: list[str], dimension: str, factor: float, alt: float | None = None) -> None:
    for name in names:
        UNITS.setdefault(name, Unit(dimension, factor, alt))


def _build() -> None:
    # bytes
    _add(["B", "byte", "bytes", "Bytes"], "B", 1.0)
    for p, f in _DEC.items():
        _add([f"{p}B", f"{p}Byte", f"{p}Bytes"], "B", f)
        _add([f"{p}Bps", f"{p}B/sec"], "B/s", f)
    for p, f in _BIN.items():
        _add([f"{p}B", f"{p.lower()}b", f"{p}b"], "B", f)
    for p, f in _WORD_PREFIX.items():
        _add([f"{p}byte", f"{p}bytes"], "B", f)
        _add([f"{p}bit", f"{p}bits"], "B", f / 8)
    for p, f in _WORD_BIN.items():
        _add([f"{p}byte", f"{p}bytes"], "B", f)
    # bits (upper-case prefix + lower-case b), and the lower-case forms that people mostly mean as bytes
    _add(["bit", "bits"], "B", 1 / 8)
    for p in "KMGTP":
        f = _DEC[p]
        _add([f"{p}b", f"{p}bit", f"{p}bits", f"{p}Bit", f"{p}Bits"], "B", f / 8)
        _add([f"{p}bps", f"{p}bit/s", f"{p}bits/s"], "B/s", f / 8)
        low = p.lower()
        _add([f"{low}b"], "B", f, f / 8)
        _add([f"{low}bps"], "B/s", f / 8)
    _add(["kbps"], "B/s", 1e3 / 8)
    _add(["gbit", "gbits"], "B", 1e9 / 8)
    _add(["mbit", "mbits"], "B", 1e6 / 8)
    # time
    _add(["ns", "nsec", "nanosecond", "nanoseconds"], "s", 1e-9)
    _add(["µs", "μs", "us", "usec", "microsecond", "microseconds"], "s", 1e-6)
    _add(["ms", "msec", "msecs", "millisecond", "milliseconds"], "s", 1e-3)
    _add(["s", "sec", "secs", "second", "seconds"], "s", 1.0)
    _add(["min", "mins", "minute", "minutes"], "s", 60.0)
    _add(["h", "hr", "hrs", "hour", "hours"], "s", 3600.0)
    _add(["day", "days"], "s", 86400.0)
    # tokens, requests
    _add(["token", "tokens", "tok", "toks", "Tokens"], "tok", 1.0)
    _add(["tps", "TPS"], "tok/s", 1.0)
    _add(
        [
            "req",
            "reqs",
            "request",
            "requests",
            "inference",
            "inferences",
            "inf",
            "infer",
            "query",
            "queries",
            "image",
            "images",
            "img",
            "imgs",
            "sample",
            "samples",
            "frame",
            "frames",
            "sequence",
            "sequences",
            "seq",
            "seqs",
            "prompt",
            "prompts",
            "user",
            "users",
            "picture",
            "pictures",
            "photo",
            "photos",
            "prediction",
            "predictions",
            "completion",
            "completions",
        ],
        "item",
        1.0,
    )
    _add(["QPS", "qps", "RPS", "rps", "FPS", "fps", "IPS"], "item/s", 1.0)
    # compute
    _add(["FLOP", "FLOPs", "flop", "flops"], "flop", 1.0)
    _add(["FLOPS", "FLOP/s"], "flop/s", 1.0)
    for p, f in {"G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18, "M": 1e6}.items():
        _add(
            [
                f"{p}FLOPS",
                f"{p}FLOPs",
                f"{p}FLOP/s",
                f"{p}Flops",
                f"{p}flops",
                f"{p.lower()}flops",
                f"{p}FLOPS/s",
                f"{p}flop/s",
            ],
            "flop/s",
            f,
        )
        _add([f"{p}FLOP", f"{p}flop"], "flop", f)
        _add([f"{p}OPS", f"{p}OPs", f"{p}Ops", f"{p}OP/s", f"{p}ops"], "op/s", f)
        _add([f"{p}OP"], "op", f)
    # ratios, power, frequency, parameters
    _add(["%", "percent", "pct"], "%", 1.0)
    _add(["x", "×", "X", "times", "fold"], "x", 1.0)
    _add(["W", "watt", "watts", "Watts"], "W", 1.0)
    _add(["kW", "kilowatt", "kilowatts"], "W", 1e3)
    _add(["MW", "megawatt", "megawatts"], "W", 1e6)
    _add(["Hz", "hz"], "Hz", 1.0)
    for p, f in {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}.items():
        _add([f"{p}Hz", f"{p.lower()}hz", f"{p}HZ"], "Hz", f)
    _add(["param", "params", "parameter", "parameters", "weights"], "param", 1.0)


_build()

MULTIPLIERS: dict[str, float] = {
    "k": 1e3,
    "K": 1e3,
    "M": 1e6,
    "B": 1e9,
    "T": 1e12,
    "bn": 1e9,
    "thousand": 1e3,
    "million": 1e6,
    "billion": 1e9,
    "trillion": 1e12,
}
"""Count multipliers: glued letters ('2k', '70B') or words ('70 billion')."""

DIMENSION_NAMES = {
    "B": "bytes",
    "B/s": "bytes/s",
    "s": "seconds",
    "tok": "tokens",
    "tok/s": "tokens/s",
    "item": "items",
    "item/s": "items/s",
    "flop": "FLOP",
    "flop/s": "FLOP/s",
    "op": "ops",
    "op/s": "ops/s",
    "%": "percent",
    "x": "ratio",
    "W": "watts",
    "Hz": "hertz",
    "param": "parameters",
    "count": "count",
}


def singular(word: str) -> str:
    """'GPUs' -> 'gpu', 'layers' -> 'layer': for matching count nouns against a reference's unit."""
    w = word.lower()
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def lookup(unit: str, per_second: bool = False) -> Unit | None:
    """The Unit for a spelling, with an optional per-second suffix applied; None if unknown or not a rate."""
    found = UNITS.get(unit)
    if found is None:
        return None
    if not per_second:
        return found
    rate = RATE_SUFFIX_DIMENSIONS.get(found.dimension)
    if rate is None:
        return None
    return Unit(rate, found.factor, found.alt_factor)


# --------------------------------------------------------------------------- what a reference's unit may be

RATE_TAIL = re.compile(r"^(.*?)(?:/s|/sec|/second|\s+per\s+sec(?:ond)?)$")
"""'GB/s', 'tokens per second': a unit followed by a per-second tail (the same tail ``quantities.parse_unit`` reads)."""

COUNT_NOUN_WORDS = (
    "GPUs", "SMs", "layers", "nodes", "heads", "experts", "ranks", "cores", "servers", "racks",
    "replicas", "shards", "stages", "microbatches", "steps", "epochs", "links", "ports", "lanes",
    "devices", "hosts", "pods", "workers", "threads", "warps", "blocks", "kernels", "streams",
    "partitions", "instances", "slices", "channels",
)
"""Things counted in a reference figure ('8 GPUs', '132 SMs').  The scorer reads any word it does not know as a
count noun, so content may only use these: a typo or a made-up unit ('furlongs') could then never match."""
COUNT_NOUNS = frozenset(singular(word) for word in COUNT_NOUN_WORDS)
"""``COUNT_NOUN_WORDS`` as the scorer compares them (``singular``, lower case)."""

UNIT_EXAMPLES = (
    "B KB MB GB TB KiB MiB GiB bit Gb Gbit · s ms us ns min h day · GB/s Gb/s Gbps · tokens tokens/s · "
    "FLOP TFLOP/s TOPS · requests requests/s QPS · params · W kW · Hz GHz · % x"
)
"""A spelling of each kind of unit the scorer reads, for error messages (the full table is ``UNITS``)."""


def is_known_unit(unit: str) -> bool:
    """Whether a reference may use ``unit``: a spelling in ``UNITS`` (optionally per second) or a count noun."""
    text = unit.strip()
    if text in UNITS:
        return True
    rate = RATE_TAIL.match(text)
    if rate and lookup(rate.group(1).strip(), per_second=True) is not None:
        return True
    return singular(text) in COUNT_NOUNS


def unknown_unit_message(unit: str) -> str:
    """The validation message for a unit the scorer cannot read, listing what it can."""
    nouns = ", ".join(COUNT_NOUN_WORDS)
    return f"unknown unit {unit!r}; known units: {UNIT_EXAMPLES} (and other prefixes of these); count nouns: {nouns}"
