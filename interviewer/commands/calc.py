"""``calc``: the systems-map estimators, printing their working."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from interviewer import estimators
from interviewer.commands import CommandError, Handler, Parser, SubParsers, add_command

if TYPE_CHECKING:
    from interviewer.config import Settings


def register(sub: SubParsers) -> None:
    add_command(sub, "calc", _usage, "back-of-envelope estimators that show their working", _estimators)


def _usage(args: argparse.Namespace, settings: Settings) -> int:
    """``calc`` alone: its help lists the estimators."""
    args.calc_help()
    return 2


def _estimators(calc: Parser) -> None:
    calc.set_defaults(calc_help=calc.print_help)
    kinds = calc.add_subparsers(dest="estimator", metavar="ESTIMATOR", parser_class=Parser)

    p = kinds.add_parser("params", help="parameter count: L, D, V, FFN multiple")
    p.add_argument("--layers", type=int, required=True, help="number of transformer layers (L)")
    p.add_argument("--d-model", type=int, required=True, help="hidden size (D)")
    p.add_argument("--vocab", type=int, required=True, help="vocabulary size (V)")
    p.add_argument("--ffn-mult", type=float, default=8.0, help="FFN parameters as a multiple of D² (default 8)")
    p.add_argument("--untied", action="store_true", help="separate output head (adds another V·D)")
    p.set_defaults(handler=_run("param_count", "layers", "d_model", "vocab", "ffn_mult", "untied"))

    p = kinds.add_parser("allreduce", help="ring all-reduce time: size, N, bandwidth, latency")
    p.add_argument("--size-gb", type=float, required=True, help="buffer size in GB (1e9 bytes)")
    p.add_argument("--gpus", type=int, required=True, help="ranks in the ring (N)")
    p.add_argument(
        "--bandwidth-gb-s",
        type=float,
        required=True,
        help="per-rank bandwidth in GB/s, one direction (NDR InfiniBand 400 Gb/s = 50 GB/s)",
    )
    p.add_argument("--latency-us", type=float, default=0.0, help="per-step latency in µs (default 0)")
    p.set_defaults(handler=_run("ring_allreduce", "size_gb", "gpus", "bandwidth_gb_s", "latency_us"))

    p = kinds.add_parser("memory", help="training memory ledger: params, dtype, optimizer, ZeRO/FSDP, N")
    p.add_argument("--params-b", type=float, required=True, help="parameters in billions")
    p.add_argument("--dtype", default="bf16", help="weight/gradient dtype: fp32, bf16, fp16, fp8 (default bf16)")
    p.add_argument("--optimizer", default="adam", help="adam, adamw, sgd-momentum or sgd (default adam)")
    p.add_argument("--sharding", default="none", help="none/ddp, zero1, zero2, zero3 or fsdp (default none)")
    p.add_argument("--gpus", type=int, default=1, help="data-parallel ranks the state is sharded over")
    p.set_defaults(handler=_run("training_memory", "params_b", "dtype", "optimizer", "sharding", "gpus"))

    p = kinds.add_parser("kv", help="KV-cache size: layers, KV heads, head dim, sequence, batch, dtype")
    p.add_argument("--layers", type=int, required=True, help="number of layers")
    p.add_argument("--kv-heads", type=int, required=True, help="KV heads (with GQA, fewer than query heads)")
    p.add_argument("--head-dim", type=int, required=True, help="dimension per head")
    p.add_argument("--seq-len", type=int, required=True, help="tokens kept per sequence")
    p.add_argument("--batch", type=int, default=1, help="concurrent sequences (default 1)")
    p.add_argument("--dtype", default="fp16", help="cache dtype: fp16, bf16, fp8, int8 (default fp16)")
    p.set_defaults(handler=_run("kv_cache", "layers", "kv_heads", "head_dim", "seq_len", "batch", "dtype"))


def _run(func_name: str, *fields: str) -> Handler:
    """A handler that calls ``estimators.<func_name>`` with the named flags, in order, and prints its working."""
    func: Callable[..., estimators.Estimate] = getattr(estimators, func_name)

    def handler(args: argparse.Namespace, settings: Settings) -> int:
        try:
            estimate = func(*(getattr(args, f) for f in fields))
        except estimators.EstimateError as exc:
            raise CommandError(str(exc), code=2) from None
        print(estimate.text())
        return 0

    return handler
