"""Back-of-envelope estimators from the systems map, each showing its working.

Every estimator returns an ``Estimate``: the formula, the formula with the
numbers put in, and the result, so a candidate can check their own
whiteboard arithmetic.  Units are explicit in every argument name; there is
no guessing between GB/s and Gb/s.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DTYPE_BYTES: dict[str, float] = {
    "fp32": 4,
    "tf32": 4,
    "fp16": 2,
    "bf16": 2,
    "fp8": 1,
    "int8": 1,
    "int4": 0.5,
}

GB = 1e9
GIB = 2**30


class EstimateError(ValueError):
    """Bad input; the message names the argument."""


@dataclass(frozen=True)
class Estimate:
    title: str
    formula: str
    working: list[str]
    result: str
    value: float
    """The headline figure in base units (parameters, seconds or bytes)."""
    details: dict[str, float] = field(default_factory=dict)

    def text(self) -> str:
        lines = [self.title, f"  formula: {self.formula}"]
        lines += [f"  {w}" for w in self.working]
        lines.append(f"  result:  {self.result}")
        return "\n".join(lines)


def _positive(name: str, value: float, *, integer: bool = False, allow_zero: bool = False) -> None:
    if value != value or value in (float("inf"), float("-inf")):  # NaN or infinite
        raise EstimateError(f"{name}: must be a finite number")
    if value < 0 or (value == 0 and not allow_zero):
        raise EstimateError(f"{name}: must be {'zero or more' if allow_zero else 'greater than zero'} (got {value:g})")
    if integer and value != int(value):
        raise EstimateError(f"{name}: must be a whole number (got {value:g})")


def dtype_bytes(name: str, dtype: str) -> float:
    try:
        return DTYPE_BYTES[dtype.lower()]
    except KeyError:
        raise EstimateError(f"{name}: unknown dtype {dtype!r} (known: {', '.join(DTYPE_BYTES)})") from None


def _human_count(n: float) -> str:
    for unit, size in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= size:
            return f"{n / size:.2f}{unit}"
    return f"{n:.0f}"


def _human_bytes(n: float) -> str:
    if n >= 1e12:
        return f"{n / 1e12:.2f} TB"
    if n >= 1e9:
        return f"{n / GB:.2f} GB ({n / GIB:.2f} GiB)"
    if n >= 1e6:
        return f"{n / 1e6:.2f} MB ({n / 2**20:.2f} MiB)"
    if n >= 1e3:
        return f"{n / 1e3:.2f} KB ({n / 1024:.2f} KiB)"
    return f"{n:.0f} B"


def _human_seconds(s: float) -> str:
    if s >= 1:
        return f"{s:.3f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    return f"{s * 1e6:.1f} µs"


def param_count(layers: int, d_model: int, vocab: int, ffn_mult: float = 8.0, untied: bool = False) -> Estimate:
    """Decoder-only transformer: per layer 4·D² attention + m·D² FFN, plus V·D embeddings.

    ``ffn_mult`` is m in m·D²: 8 for a plain MLP with Dff = 4D (2·D·4D), about
    8 for SwiGLU with Dff ≈ 8D/3 (3·D·Dff).  Norms and biases are ignored
    (well under 0.1%).  ``untied`` adds a separate V·D output head.
    """
    _positive("--layers", layers, integer=True)
    _positive("--d-model", d_model, integer=True)
    _positive("--vocab", vocab, integer=True)
    _positive("--ffn-mult", ffn_mult)
    per_layer = (4 + ffn_mult) * d_model**2
    blocks = layers * per_layer
    emb_copies = 2 if untied else 1
    embeddings = emb_copies * vocab * d_model
    total = blocks + embeddings
    emb_term = f"{emb_copies}·V·D" if untied else "V·D"
    return Estimate(
        title="Parameter count",
        formula=f"P = L·(4 + m)·D² + {emb_term}",
        working=[
            f"per layer = (4 + {ffn_mult:g})·{d_model}² = {per_layer:,.0f}",
            f"blocks    = {layers} × {per_layer:,.0f} = {blocks:,.0f}",
            f"embedding = {'2 × ' if untied else ''}{vocab} × {d_model} = {embeddings:,.0f}",
            f"total     = {blocks:,.0f} + {embeddings:,.0f} = {total:,.0f}",
        ],
        result=f"{_human_count(total)} parameters ({total:,.0f})",
        value=total,
        details={"per_layer": per_layer, "blocks": blocks, "embeddings": embeddings},
    )


def ring_allreduce(size_gb: float, gpus: int, bandwidth_gb_s: float, latency_us: float = 0.0) -> Estimate:
    """Ring all-reduce: each rank sends and receives 2(N−1)/N of the buffer in 2(N−1) steps.

    T ≈ 2(N−1)/N · S / B + 2(N−1)·α, with B the per-rank link bandwidth in
    one direction and α the per-step latency.
    """
    _positive("--size-gb", size_gb)
    _positive("--gpus", gpus, integer=True)
    if gpus < 2:
        raise EstimateError("--gpus: an all-reduce needs at least 2 GPUs")
    _positive("--bandwidth-gb-s", bandwidth_gb_s)
    _positive("--latency-us", latency_us, allow_zero=True)
    factor = 2 * (gpus - 1) / gpus
    traffic_gb = factor * size_gb
    bw_time = traffic_gb / bandwidth_gb_s
    steps = 2 * (gpus - 1)
    lat_time = steps * latency_us * 1e-6
    total = bw_time + lat_time
    return Estimate(
        title="Ring all-reduce time",
        formula="T = 2(N−1)/N · S / B + 2(N−1)·α",
        working=[
            f"traffic per rank = 2({gpus}−1)/{gpus} × {size_gb:g} GB = {traffic_gb:.4g} GB",
            f"bandwidth term   = {traffic_gb:.4g} GB / {bandwidth_gb_s:g} GB/s = {_human_seconds(bw_time)}",
            f"latency term     = {steps} × {latency_us:g} µs = {_human_seconds(lat_time)}",
            f"algorithm bandwidth (S / T) = {size_gb / total:.3g} GB/s",
        ],
        result=_human_seconds(total),
        value=total,
        details={"traffic_gb": traffic_gb, "bandwidth_s": bw_time, "latency_s": lat_time},
    )


SHARDING = {"none": 0, "ddp": 0, "zero1": 1, "zero2": 2, "zero3": 3, "fsdp": 3}
OPTIMIZER_STATE_BYTES = {"adam": 8.0, "adamw": 8.0, "sgd-momentum": 4.0, "sgd": 0.0}
"""FP32 optimizer state per parameter: Adam keeps m and v; SGD with momentum keeps one buffer."""


def training_memory(
    params_b: float, dtype: str = "bf16", optimizer: str = "adam", sharding: str = "none", gpus: int = 1
) -> Estimate:
    """Persistent training state per GPU: weights, gradients and optimizer state.

    With a 16- or 8-bit dtype the optimizer also keeps an FP32 master copy of
    the weights (4 bytes).  ZeRO-1 shards the optimizer state (master copy
    included) across N, ZeRO-2 also the gradients, ZeRO-3/FSDP also the
    weights.  Activations, buffers and fragmentation come on top.
    """
    _positive("--params-b", params_b)
    _positive("--gpus", gpus, integer=True)
    w = dtype_bytes("--dtype", dtype)
    try:
        state = OPTIMIZER_STATE_BYTES[optimizer.lower()]
    except KeyError:
        raise EstimateError(
            f"--optimizer: unknown optimizer {optimizer!r} (known: {', '.join(OPTIMIZER_STATE_BYTES)})"
        ) from None
    try:
        stage = SHARDING[sharding.lower()]
    except KeyError:
        raise EstimateError(f"--sharding: unknown scheme {sharding!r} (known: {', '.join(SHARDING)})") from None
    master = 4.0 if w < 4 else 0.0
    opt = state + master
    p = params_b * 1e9
    n = gpus
    w_div = n if stage >= 3 else 1
    g_div = n if stage >= 2 else 1
    o_div = n if stage >= 1 else 1
    weights = p * w / w_div
    grads = p * w / g_div
    optim = p * opt / o_div
    total = weights + grads + optim
    full = p * (2 * w + opt)
    return Estimate(
        title="Training memory ledger (per GPU, persistent state)",
        formula="M = P·w/N_w + P·g/N_g + P·o/N_o",
        working=[
            f"bytes per parameter: weights {w:g} ({dtype}), gradients {w:g}, optimizer {opt:g}"
            f" ({optimizer}{' + FP32 master copy' if master else ''}) = {2 * w + opt:g} unsharded",
            f"sharding {sharding} (stage {stage}) over N = {n}: divides weights by {w_div}, gradients by {g_div},"
            f" optimizer by {o_div}",
            f"weights   = {params_b:g}e9 × {w:g} / {w_div} = {_human_bytes(weights)}",
            f"gradients = {params_b:g}e9 × {w:g} / {g_div} = {_human_bytes(grads)}",
            f"optimizer = {params_b:g}e9 × {opt:g} / {o_div} = {_human_bytes(optim)}",
            f"unsharded total would be {_human_bytes(full)}; activations and buffers come on top",
        ],
        result=f"{_human_bytes(total)} per GPU",
        value=total,
        details={"weights": weights, "gradients": grads, "optimizer": optim, "unsharded": full},
    )


def kv_cache(layers: int, kv_heads: int, head_dim: int, seq_len: int, batch: int = 1, dtype: str = "fp16") -> Estimate:
    """KV cache = 2 (K and V) · layers · KV heads · head dim · tokens · batch · bytes.

    With grouped-query attention use the number of KV heads, not query heads:
    Llama-3-70B has 64 query heads but 8 KV heads.
    """
    for name, value in (
        ("--layers", layers),
        ("--kv-heads", kv_heads),
        ("--head-dim", head_dim),
        ("--seq-len", seq_len),
        ("--batch", batch),
    ):
        _positive(name, value, integer=True)
    b = dtype_bytes("--dtype", dtype)
    per_token = 2 * layers * kv_heads * head_dim * b
    total = per_token * seq_len * batch
    return Estimate(
        title="KV-cache size",
        formula="KV = 2 · layers · kv_heads · head_dim · seq_len · batch · bytes",
        working=[
            f"per token = 2 × {layers} × {kv_heads} × {head_dim} × {b:g}"
            f" = {per_token:,.0f} bytes ({_human_bytes(per_token)})",
            f"total     = {per_token:,.0f} × {seq_len} tokens × {batch} sequences = {total:,.0f} bytes",
        ],
        result=_human_bytes(total),
        value=total,
        details={"per_token": per_token},
    )
