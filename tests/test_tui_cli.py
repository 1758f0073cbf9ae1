"""The ``run``/``review`` commands outside the app: bad input fails fast, and Textual stays unimported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli import run

ROOT = Path(__file__).resolve().parent.parent


def run_cli(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``interviewer --transcripts-dir TMP/t ARGS`` through ``cli.main`` in this process, with no terminal.

    Like a process with stdin from /dev/null and its output piped (the app's terminal check reads
    ``sys.stdin``/``sys.stdout``); ``test_cli.test_the_entry_point_runs_as_a_real_process`` and
    ``test_cli.test_app_needs_a_terminal`` cover the real process.  The config is the test's own (conftest).
    """
    return run("--transcripts-dir", str(tmp_path / "t"), *args)


def test_unknown_case_is_one_line_listing_ids_and_exit_2(tmp_path: Path) -> None:
    result = run_cli(["run", "no-such-case", "--cases-dir", str(ROOT / "tests" / "fixtures" / "cases")], tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "unknown case 'no-such-case'; available: " in lines[0]
    assert "mini" in lines[0]
    assert result.stdout == ""  # the app never took over the terminal
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("minutes", ["0", "-5", "601"])
def test_bad_minutes_is_a_usage_error(tmp_path: Path, minutes: str) -> None:
    result = run_cli(["run", "mini", "--minutes", minutes], tmp_path)
    assert result.returncode == 2
    assert "--minutes" in result.stderr


def test_strict_and_soft_are_exclusive(tmp_path: Path) -> None:
    result = run_cli(["run", "mini", "--strict", "--soft"], tmp_path)
    assert result.returncode == 2


@pytest.mark.parametrize(
    "code",
    [
        "import interviewer.commands.app",
        "from interviewer.cli import build_parser; build_parser()",
        "from interviewer.cli import main\ntry:\n    main(['run', '--help'])\nexcept SystemExit:\n    pass",
    ],
)
def test_commands_do_not_import_textual(code: str) -> None:
    """``interviewer --help`` and friends stay fast: Textual loads only when the app opens."""
    check = f"{code}\nimport sys\nassert 'textual' not in sys.modules, 'textual was imported'"
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 0, result.stderr


def test_no_sessions_message_names_the_folder(tmp_path: Path) -> None:
    result = run_cli(["transcripts"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"no saved sessions in {tmp_path / 't'}"
