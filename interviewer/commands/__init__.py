"""Subcommands.  Each module has ``register(sub)``; heavy imports stay inside handlers so start-up is fast."""

from __future__ import annotations

import argparse


def register_all(sub: argparse._SubParsersAction) -> None:
    from interviewer.commands import content

    content.register(sub)
    for name in ("score", "transcripts", "calc", "check", "app"):
        try:
            module = __import__(f"interviewer.commands.{name}", fromlist=["register"])
        except ModuleNotFoundError as exc:
            if exc.name != f"interviewer.commands.{name}":
                raise
            continue
        module.register(sub)
