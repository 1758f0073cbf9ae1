"""Test isolation: every test gets its own config, transcripts and cache dirs, and no endpoint.

Tests never see the developer's real config, keys or transcripts, so a
machine with ``OPENAI_API_KEY`` set behaves exactly like CI.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from interviewer.config import ENV_NAMES

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"

# The cyclic collector less often in the test process.  A test process holds a big long-lived
# heap (imports, collected tests, the graders' per-question caches) and the Pilot tests allocate
# millions of short-lived widgets, styles and strips; with CPython's default threshold (700) the
# collector walked the whole heap about 60 times a run, a fifth of the suite's CPU time.  At
# 10,000 it is a few per cent.  Nothing is kept alive longer than the next collection, and no
# test depends on when garbage is collected.
gc.set_threshold(10_000, *gc.get_threshold()[1:])


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: unknown to pytest without the plugin
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the default in pyproject.toml): one pytest-xdist worker more than there are CPUs.

    A worker spends about a quarter of its time waiting (a Pilot pause lasts until the app goes
    idle; the process tests wait for their child), and the extra worker uses those gaps.
    ``-n N`` or ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still choose the number; ``-n0`` runs in one process.
    """
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cpus + 1


_FIRST = ("test_tui_tmux", "test_tui_signals", "test_packaging", "test_transcripts")
"""Modules that run the real program in its own process: each test takes seconds, mostly waiting."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first: real processes, then the Pilot tests (``test_tui_*``), then the rest.

    Under pytest-xdist a worker takes the next test as it finishes one, so with the
    quick tests last the workers run out of work together instead of one waiting for
    another's slow test.  Within a module the order is unchanged.
    """

    def rank(item: pytest.Item) -> int:
        module = item.path.stem
        if module in _FIRST:
            return 0
        return 1 if module.startswith("test_tui_") else 2

    items.sort(key=rank)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move what exists after collection (imports, the collected tests) out of the collector's way.

    Those objects live to the end of the run anyway; frozen, no collection walks them again,
    including the five full collections pytest makes after the last test.
    """
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _textual_styles_cache_released() -> Iterator[None]:
    """After a test that rendered Textual widgets, drop the widgets' cached renders.

    Textual memoises ``StylesCache.get_inner_outer`` with an ``lru_cache`` on the method, so the
    cache keeps up to 1,024 widgets' ``StylesCache`` objects, and every line they rendered, alive
    after their app has gone; dozens of Pilot tests in one process keep some 200,000 dead objects
    for the collector to walk.  Clearing the memo changes nothing but memory.
    """
    yield
    styles_cache = sys.modules.get("textual._styles_cache")
    memo = getattr(getattr(styles_cache, "StylesCache", None), "get_inner_outer", None)
    if memo is not None and hasattr(memo, "cache_clear"):
        memo.cache_clear()

_ENDPOINT_VARS = tuple(ENV_NAMES)
"""Every variable a setting reads (endpoint, key, timeouts, folders): none leaks in from the developer's shell."""


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for var in _ENDPOINT_VARS:
        monkeypatch.delenv(var, raising=False)
    home = tmp_path / "_home"
    home.mkdir()
    monkeypatch.setenv("INTERVIEWER_CONFIG", str(home / "config.toml"))
    monkeypatch.setenv("INTERVIEWER_TRANSCRIPTS_DIR", str(home / "transcripts"))
    monkeypatch.setenv("INTERVIEWER_CACHE_DIR", str(home / "cache"))
    monkeypatch.setenv("INTERVIEWER_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("NO_COLOR", "1")
    return home


@pytest.fixture
def transcripts_dir(isolated_env: Path) -> Path:
    return isolated_env / "transcripts"


@pytest.fixture
def mini_case():
    from interviewer.content.loader import load_case

    return load_case(FIXTURES / "cases" / "mini.yaml")


@pytest.fixture
def rubric():
    from interviewer.content.loader import load_rubric

    return load_rubric(REPO / "rubrics" / "ai-infra.yaml")
