"""``check``: probe the configured grading endpoint and report whether grades will come from it."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from interviewer.commands import CommandError, SubParsers, add_command

if TYPE_CHECKING:
    from interviewer.config import Settings


def register(sub: SubParsers) -> None:
    add_command(
        sub,
        "check",
        check,
        "probe the grading endpoint: reachability, models, structured-output mode and latency",
        lambda p: p.add_argument("--json", action="store_true", help="print the result as JSON"),
    )


def check(args: argparse.Namespace, settings: Settings) -> int:
    from interviewer.grading.llm.check import NOT_CONFIGURED, run_check

    if not settings.base_url:
        raise CommandError(NOT_CONFIGURED, code=2)
    if settings.offline:
        print("note: --offline is set; grading will not use this endpoint until it is removed", file=sys.stderr)
    result = run_check(settings)
    if args.json:
        json.dump(result.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"endpoint: {result.base_url} ({'reachable' if result.reachable else 'unreachable'})")
        if result.models:
            more = f" … ({len(result.models)} in all)" if len(result.models) > 8 else ""
            shown = ", ".join(result.models[:8]) + more
            print(f"models: {shown}")
        if result.model:
            print(f"model: {result.model}")
        if result.mode:
            print(f"structured output: {result.mode} ({'streaming' if result.streamed else 'not streaming'})")
        if result.latency_s is not None:
            verdict = f"valid grade (overall {result.grade_overall})" if result.ok else "no valid grade"
            print(f"grading call: {result.latency_s:.2f} s, {verdict}")
        if result.ok:
            print(f"ok: grades will come from {result.model} at {result.base_url}")
    if not result.ok:
        raise CommandError(f"check failed: {result.reason}", code=1)
    return 0
