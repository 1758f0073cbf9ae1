"""The domain stays headless: importing it must not pull in Textual (or, offline, openai)."""

from __future__ import annotations

import subprocess
import sys

CORE = [
    "interviewer.cli",
    "interviewer.config",
    "interviewer.paths",
    "interviewer.clock",
    "interviewer.atomic",
    "interviewer.commands",
    "interviewer.content.loader",
    "interviewer.session",
    "interviewer.transcripts",
    "interviewer.report",
    "interviewer.export",
    "interviewer.regrade",
    "interviewer.progress",
    "interviewer.progress_plot",
    "interviewer.drills",
    "interviewer.estimators",
    "interviewer.followup",
    "interviewer.grading.offline.grader",
    "interviewer.grading.policy",
]


def _loaded_after(import_lines: str) -> set[str]:
    code = f"{import_lines}\nimport sys\nprint('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_core_never_imports_textual() -> None:
    modules = _loaded_after("\n".join(f"import {m}" for m in CORE))
    assert not {m for m in modules if m == "textual" or m.startswith("textual.")}


def test_offline_start_does_not_import_openai() -> None:
    modules = _loaded_after(
        "\n".join(f"import {m}" for m in CORE) + "\nfrom interviewer.cli import build_parser\nbuild_parser()"
    )
    assert "openai" not in modules


def test_no_textual_import_statement_outside_tui() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "interviewer"
    offenders = [
        str(p)
        for p in root.rglob("*.py")
        if "tui" not in p.relative_to(root).parts[:1]
        and any(line.lstrip().startswith(("import textual", "from textual")) for line in p.read_text().splitlines())
    ]
    assert offenders == [], offenders


def test_the_first_frame_needs_no_pydantic() -> None:
    """Paint first: parsing the command line, the app and its first screens load neither pydantic nor yaml.

    ``interviewer`` and ``interviewer run`` draw their first frame before the
    settings, the case files and the grader are loaded (in the app's worker).
    """
    modules = _loaded_after(
        "from interviewer.cli import build_parser\n"
        "build_parser().parse_args(['run', 'mini'])\n"
        "import interviewer.tui.app, interviewer.tui.screens.frame, interviewer.tui.screens.home"
    )
    heavy = {m for m in modules if m.split(".")[0] in ("pydantic", "pydantic_settings", "yaml", "openai", "fsrs")}
    assert heavy == set()
