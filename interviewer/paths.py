"""Where things live.  Functions, not import-time constants, and nothing is created on import.

Built-in ``cases/`` and ``rubrics/`` sit at the repository root in a checkout
and are copied to ``interviewer/_data/`` inside the wheel; ``data_dir`` finds
whichever is present.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir, user_config_dir
from platformdirs import user_data_dir as platform_data_dir

TRANSCRIPTS_ENV = "INTERVIEWER_TRANSCRIPTS_DIR"
CONFIG_ENV = "INTERVIEWER_CONFIG"


def _package_dir() -> Path:
    return Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The built-in ``cases`` or ``rubrics`` folder, in a wheel or in a checkout."""
    packaged = _package_dir() / "_data" / name
    if packaged.is_dir():
        return packaged
    return _package_dir().parent / name


def builtin_cases_dir() -> Path:
    return data_dir("cases")


def builtin_rubrics_dir() -> Path:
    return data_dir("rubrics")


def config_file() -> Path:
    """The TOML config file: ``$INTERVIEWER_CONFIG`` or the platform's user config dir."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    return Path(user_config_dir("interviewer", appauthor=False)) / "config.toml"


def default_transcripts_dir() -> Path:
    """``./transcripts`` relative to where the command runs."""
    return Path.cwd() / "transcripts"


CACHE_ENV = "INTERVIEWER_CACHE_DIR"


def cache_dir() -> Path:
    """Small caches (e.g. which structured-output mode an endpoint supports); ``$INTERVIEWER_CACHE_DIR`` overrides."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override).expanduser()
    return Path(user_cache_dir("interviewer", appauthor=False))


DATA_ENV = "INTERVIEWER_DATA_DIR"


def user_data_dir() -> Path:
    """What interviewer keeps about you beyond transcripts (the latest calibration result).

    ``$INTERVIEWER_DATA_DIR`` overrides the platform's user data dir (the tests use it).  Nothing is
    created here: writers create the folder when they first save.
    """
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platform_data_dir("interviewer", appauthor=False))


def calibration_set() -> Path:
    """The labelled answers shipped with the package for ``interviewer calibrate``."""
    return _package_dir() / "data" / "calibration.yaml"
