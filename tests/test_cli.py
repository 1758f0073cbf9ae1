"""The command line: interfaces (names, JSON fields, exit codes) and one-line errors, through ``cli.main``."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from interviewer.cli import main
from interviewer.content.schema import DIMENSIONS
from interviewer.grading.types import DimensionScore, Grade, NumberCheck
from interviewer.session import Session
from interviewer.transcripts import TranscriptStore
from tests.conftest import FIXTURES, REPO

CASES = str(FIXTURES / "cases")


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """``interviewer ARGS`` in this process: ``main`` with stdin, stdout and stderr swapped for buffers.

    The same code path as the installed command (``__main__`` only calls ``main``) without paying for a
    fresh interpreter per call; ``test_the_entry_point_runs_as_a_real_process`` covers the process itself.
    """
    out, err = io.StringIO(), io.StringIO()
    fake_stdin = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8")
    cwd = os.getcwd()
    saved = sys.stdin
    try:
        os.chdir(REPO)
        sys.stdin = fake_stdin
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # --help and --version exit through argparse
                code = exc.code if isinstance(exc.code, int) else 0
    finally:
        sys.stdin = saved
        os.chdir(cwd)
    return subprocess.CompletedProcess(["interviewer", *args], code, out.getvalue(), err.getvalue())


def run_process(*args: str, stdin: bytes | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m interviewer ARGS`` as a real process (for what only a process shows: exit codes, the TTY check)."""
    proc = subprocess.run(
        [sys.executable, "-m", "interviewer", *args],
        input=stdin,
        capture_output=True,
        timeout=timeout,
        cwd=REPO,
    )
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def assert_one_line_error(proc: subprocess.CompletedProcess[str], code: int, fragment: str) -> None:
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert fragment in lines[0], lines[0]


def test_version_and_help() -> None:
    proc = run("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("interviewer ")
    proc = run("--help")
    assert proc.returncode == 0
    for command in ("validate", "cases", "score", "transcripts", "show", "regrade", "calc"):
        assert command in proc.stdout


def test_bad_flag_is_one_line() -> None:
    assert_one_line_error(run("--bogus"), 2, "unrecognized arguments: --bogus")
    assert_one_line_error(run("transcripts", "--format", "xml"), 2, "unrecognized arguments")
    assert_one_line_error(run("show", "x", "--format", "xml"), 2, "invalid choice: 'xml'")


def test_validate_good_and_bad(tmp_path: Path) -> None:
    proc = run("validate", str(FIXTURES / "cases" / "mini.yaml"), "rubrics")
    assert proc.returncode == 0, proc.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text((FIXTURES / "cases" / "mini.yaml").read_text().replace("kind: case", "kind: quiz"))
    proc = run("validate", str(bad))
    assert proc.returncode == 1
    assert f"{bad}:3: kind: Input should be 'case' or 'bank'" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert_one_line_error(run("validate", str(tmp_path / "missing.yaml")), 1, "no such file")


def test_cases_json_lists_user_cases() -> None:
    proc = run("cases", "--json", "--cases-dir", CASES)
    assert proc.returncode == 0, proc.stderr
    rows = {row["id"]: row for row in json.loads(proc.stdout)}
    mini = rows["mini"]
    assert set(mini) == {"id", "title", "kind", "minutes", "questions"}
    assert mini["minutes"] == 5
    assert mini["questions"][0] == {
        "id": "kv-size",
        "prompt": "How big is the KV cache per token for Llama-3-70B in FP16?",
    }


def test_missing_cases_dir_is_reported() -> None:
    proc = run("cases", "--cases-dir", "/nonexistent/cases")
    assert proc.returncode == 0
    assert "/nonexistent/cases: cases dir does not exist" in proc.stderr


def _saved_session(mini_case, rubric, transcripts_dir: Path) -> str:
    store = TranscriptStore(transcripts_dir)
    s = Session.start(mini_case, rubric, store)
    s.submit("KV stores keys and values. [bold]not markup[/bold]\n```\ncode ``` inside\n```")
    grade = Grade(
        grader="keyword",
        fallback_reason="endpoint unreachable: connection refused",
        overall=50,
        dimensions={d: DimensionScore(score=2, evidence=["KV stores keys"], missing=["a point"]) for d in DIMENSIONS},
        numbers_checked=[NumberCheck(claim="2 MB", reference="320 KiB (KV per token)", verdict="wrong")],
        flags=["wrong_number"],
        feedback="Good start.",
    )
    s.record_grade(1, grade)
    return s.transcript.id


def test_transcripts_show_export(mini_case, rubric, transcripts_dir: Path, tmp_path: Path) -> None:
    tid = _saved_session(mini_case, rubric, transcripts_dir)
    (transcripts_dir / "junk.json").write_text("{not json")
    proc = run("transcripts", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert rows[0]["id"] == tid
    assert {"id", "case", "started", "status", "overall", "grader"} <= set(rows[0])
    assert rows[0]["overall"] == 50 and rows[0]["grader"] == "keyword" and rows[0]["status"] == "in_progress"
    assert "junk.json" in proc.stderr

    md = run("show", tid[:-1], "--cases-dir", CASES)
    assert md.returncode == 0, md.stderr
    assert "# Mini case for tests" in md.stdout
    assert "✗ 2 MB: wrong (reference: 320 KiB (KV per token))" in md.stdout
    assert "fell back because endpoint unreachable" in md.stdout
    assert "````text\nKV stores keys and values. [bold]not markup[/bold]" in md.stdout
    assert "Model answer outline:" in md.stdout
    assert "- Overall: 50/100 over 1 answer (0 skipped)" in md.stdout
    assert "- Follow-ups: n/a\n" in md.stdout  # none asked yet: not 'n/a/100'

    js = run("show", tid, "--format", "json")
    assert json.loads(js.stdout)["turns"][0]["grade"]["overall"] == 50

    out = tmp_path / "x.md"
    proc = run("export", tid, "-o", str(out), "--cases-dir", CASES)
    assert proc.returncode == 0 and out.read_text().startswith("# Mini case for tests")


def test_unknown_transcript_id() -> None:
    assert_one_line_error(run("show", "nope"), 2, "no transcript with id 'nope'")
    assert_one_line_error(run("regrade", "nope"), 2, "no transcript with id 'nope'")


def test_progress(mini_case, rubric, transcripts_dir: Path) -> None:
    _saved_session(mini_case, rubric, transcripts_dir)
    proc = run("progress", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert len(data["sessions"]) == 1
    assert data["recent"]["numbers"] == 2
    assert data["drills"][0] == {"key_point": "a point", "missed": 1}


@pytest.mark.parametrize("config_body", ["colour = 1", "base_url = "])
def test_bad_config_is_one_line(tmp_path: Path, config_body: str) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text(config_body)
    assert_one_line_error(run("--config", str(cfg), "transcripts"), 2, str(cfg))


@pytest.mark.parametrize(
    "stdin, fragment",
    [
        (b"", "stdin: the answer is empty"),
        (b"   \n\t  \n", "stdin: the answer is empty"),
        (b"word " * 250_000, "stdin: the answer is longer than the 20,000-character limit"),
        (bytes(range(256)) * 4000, "stdin: the answer looks like binary data"),
        (b"\xff\xfe\xfa caf\xe9 latin-1", "stdin: the answer is not UTF-8 text"),
        (b"\x01\x02\x03\x04" * 50 + b"ok", "full of control characters"),
    ],
    ids=["empty", "blank", "1MB", "binary", "latin-1", "control-chars"],
)
def test_score_refuses_bad_answers_in_one_line(stdin: bytes, fragment: str) -> None:
    proc = run("score", "--case", "mini", "--question", "kv-size", "--cases-dir", CASES, stdin=stdin)
    assert_one_line_error(proc, 2, fragment)


def test_score_unknown_ids_name_the_flag() -> None:
    proc = run("score", "--case", "nope", "--question", "x", stdin=b"answer")
    assert_one_line_error(proc, 2, "--case: unknown case 'nope' (known: ")
    proc = run("score", "--case", "mini", "--question", "nope", "--cases-dir", CASES, stdin=b"answer")
    assert_one_line_error(proc, 2, "--question: case 'mini' has no question 'nope' (known: kv-size, allreduce)")
    proc = run(
        "score", "--case", "mini", "--question", "kv-size", "--answer-file", "/nonexistent/a.txt", "--cases-dir", CASES
    )
    assert_one_line_error(proc, 2, "--answer-file: cannot read /nonexistent/a.txt")


def test_validate_reports_a_clash_with_a_builtin_case(tmp_path: Path) -> None:
    clash = tmp_path / "clash.yaml"
    clash.write_text((FIXTURES / "cases" / "mini.yaml").read_text().replace("id: mini", "id: nvidia-inference", 1))
    proc = run("validate", str(clash))
    assert proc.returncode == 1
    assert f"{clash}:1: id: case id 'nvidia-inference' clashes with a built-in case" in proc.stderr
    assert run("validate", str(REPO / "cases")).returncode == 0


def test_app_needs_a_terminal() -> None:
    assert_one_line_error(run_process("run", "nvidia-inference", stdin=b""), 2, "needs a terminal")


def test_the_entry_point_runs_as_a_real_process() -> None:
    proc = run_process("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("interviewer ")
    assert_one_line_error(run_process("--bogus"), 2, "unrecognized arguments: --bogus")
    proc = run_process("cases", "--json", "--cases-dir", CASES)
    assert proc.returncode == 0 and "mini" in {row["id"] for row in json.loads(proc.stdout)}


def test_export_never_overwrites_a_transcript(mini_case, rubric, transcripts_dir: Path) -> None:
    tid = _saved_session(mini_case, rubric, transcripts_dir)
    before = (transcripts_dir / f"{tid}.json").read_bytes()
    proc = run("export", tid, "-o", str(transcripts_dir / f"{tid}.json"))
    assert_one_line_error(proc, 2, "refusing to overwrite a transcript file")
    assert (transcripts_dir / f"{tid}.json").read_bytes() == before


def test_transcripts_dir_that_is_a_file(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert_one_line_error(run("transcripts", "--transcripts-dir", str(afile)), 1, "is not a folder")
    assert_one_line_error(run("show", "x", "--transcripts-dir", str(afile)), 1, "is not a folder")


def test_progress_unknown_case() -> None:
    assert_one_line_error(run("progress", "--case", "nope"), 2, "unknown case 'nope'")


def test_every_command_module_registers_itself() -> None:
    """A new module in interviewer/commands joins the CLI without a list to edit."""
    import argparse

    from interviewer.cli import build_parser
    from interviewer.commands import command_modules

    modules = command_modules()
    assert "interviewer.commands.content" in modules and "interviewer.commands.calc" in modules
    assert not any(m.rsplit(".", 1)[1].startswith("_") for m in modules)
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parsers = [sub.parser(name) for name in sub.choices]
    registered = {(p.get_default("handler") or p.get_default("app_handler")).__module__ for p in parsers}
    assert registered == set(modules)


def test_a_command_that_fails_to_import_is_loud(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from interviewer.cli import build_parser

    real = importlib.import_module

    def broken(name: str, package: str | None = None) -> object:
        if name == "interviewer.commands.score":
            raise ModuleNotFoundError("No module named 'some_missing_dependency'", name="some_missing_dependency")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="some_missing_dependency"):
        build_parser()


def test_commands_never_import_the_cli() -> None:
    """The CLI imports the commands; the reverse would be a cycle."""
    import ast

    offenders = []
    for path in (REPO / "interviewer" / "commands").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "interviewer.cli":
                offenders.append(path.name)
            if isinstance(node, ast.Import) and any(a.name == "interviewer.cli" for a in node.names):
                offenders.append(path.name)
    assert offenders == []


def test_settings_are_resolved_once_and_passed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import interviewer.cli as cli
    import interviewer.config as config
    from interviewer.config import load_settings

    calls = []

    def counting(args: object) -> object:
        calls.append(args)
        return load_settings(args)  # type: ignore[arg-type]

    monkeypatch.setattr(config, "load_settings", counting)
    assert cli.main(["cases", "--cases-dir", CASES]) == 0
    assert len(calls) == 1
    assert not hasattr(calls[0], "_settings")
    assert "mini" in capsys.readouterr().out


def test_validate_reports_schema_and_rubric_problems_together(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    text = (FIXTURES / "cases" / "mini.yaml").read_text()
    bad.write_text(text.replace("kind: case", "kind: quiz").replace("rubric: ai-infra", "rubric: nope"))
    proc = run("validate", str(bad))
    assert proc.returncode == 1
    assert f"{bad}:3: kind: Input should be 'case' or 'bank'" in proc.stderr
    assert f"{bad}:5: rubric: unknown rubric 'nope'" in proc.stderr


def test_every_builtin_file_validates_in_place() -> None:
    builtin = [*(REPO / "cases").glob("*.yaml"), *(REPO / "rubrics").glob("*.yaml")]
    files = sorted(str(p.relative_to(REPO)) for p in builtin)
    proc = run("validate", *files)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [f"ok {f}" for f in files]


def test_progress_with_no_sessions_names_the_folder(transcripts_dir: Path, capsys) -> None:
    assert main(["progress", "--transcripts-dir", str(transcripts_dir)]) == 0
    assert str(transcripts_dir) in capsys.readouterr().out


def test_a_phase_that_took_exactly_its_budget_is_not_over() -> None:
    from interviewer.report import PhaseTime

    assert not PhaseTime("p", "P", 60.0, 60.4).over
    assert PhaseTime("p", "P", 60.0, 61.2).over
