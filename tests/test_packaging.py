"""A non-editable install, run from another directory, finds every built-in case and rubric."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.conftest import REPO


def test_wheel_ships_cases_and_finds_them_from_elsewhere(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels), str(REPO)],
        check=True,
        capture_output=True,
    )
    wheel = next(wheels.glob("interviewer-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(Path(n).name for n in names if n.startswith("interviewer/_data/cases/"))
    expected = sorted(p.name for p in (REPO / "cases").glob("*.yaml"))
    assert shipped == expected and expected
    assert "interviewer/_data/rubrics/ai-infra.yaml" in names
    assert any(n.startswith("interviewer/grading/llm/prompts/") for n in names)

    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run(
        [sys.executable, "-c", "import interviewer; print(interviewer.__file__)"],
        cwd=elsewhere, env=env, capture_output=True, text=True, check=True,
    ).stdout
    assert where.startswith(str(site))
    proc = subprocess.run(
        [sys.executable, "-m", "interviewer", "cases", "--json"],
        cwd=elsewhere, env=env, capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    ids = {row["id"] for row in json.loads(proc.stdout)}
    shared = {"facts", "lexicon"}  # the fact sheet and the lexicon sit beside the cases but are not cases
    assert ids == {p.stem for p in (REPO / "cases").glob("*.yaml")} - shared
