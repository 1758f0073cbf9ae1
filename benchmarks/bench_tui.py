"""Benchmarks for the TUI, run in a real pseudo-terminal.  Prints figures; not a test.

    python benchmarks/bench_tui.py [--runs 7] [--keys 120]

The app is run as ``python -m interviewer`` with this repository first on
PYTHONPATH, so the tree under test is measured, not an installed copy.

1. Start-up: time from spawning the process to its first painted frame, next
   to a bare Textual app with a Header and a Footer measured in the same run
   (interleaved, so machine load hits both alike).  Target: the session's
   first paint (header, countdown, question area) at most 1.2x the bare app;
   the home screen's is reported beside it.  Also the CPU time each process had used when its
   first frame was seen (``/proc/PID/stat``), which machine load moves far
   less than wall time; for interviewer it includes whatever the loading
   worker did before the frame was read, so it overstates a little.  Measured for the home screen (``interviewer``)
   and the session screen (``interviewer run mini``); "ready" is when the
   cases (or the first question) have filled in from the loading worker.
2. ``interviewer --help`` against ``python -c pass``: the cost of the CLI alone.
3. Keystroke latency: time from writing a key to the pty until the editor's
   new text is on the screen, while a fake grader streams feedback slowly
   (a chunk every 10 ms).  Target: at most 50 ms.
4. Memory: peak RSS (VmHWM) of the interviewer process.  Target: at most 150 MB.

"On the screen" means: the text appeared in what the app wrote to the pty
(escape sequences stripped), which is what the terminal then paints.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import re
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INTERVIEWER = [sys.executable, "-m", "interviewer"]
FIXTURE_CASES = ROOT / "tests" / "fixtures" / "cases"
COLS, ROWS = 100, 30
ANSI = re.compile(
    rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]"  # CSI: cursor moves, colours, modes
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: titles, clipboard
    rb"|\x1b[PX^_][^\x1b]*\x1b\\"  # DCS and friends
    rb"|\x1b[=>()][0-9A-Za-z]?"  # keypad modes, charsets
)

BARE_APP = """
from textual.app import App
from textual.widgets import Footer, Header

class Bare(App):
    TITLE = "bare-ready"
    def compose(self):
        yield Header()
        yield Footer()

Bare().run()
"""


GLYPHS = "αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"
"""Characters that appear nowhere else on the screen (the streamed text is ASCII)."""


class Pty:
    """A child process on a pseudo-terminal of COLS x ROWS; collects what it writes, escapes stripped."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True, start_new_session=True
        )
        os.close(slave)
        self.raw = bytearray()

    def text(self) -> str:
        return ANSI.sub(b"", bytes(self.raw)).decode("utf-8", "replace")

    def pump(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        self.raw += data
        return bool(data)

    def wait_for(self, needle: str, timeout: float = 20.0, since: int = 0) -> float:
        """Seconds (perf_counter) at which ``needle`` appeared in the output after byte ``since``."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if needle in ANSI.sub(b"", bytes(self.raw[since:])).decode("utf-8", "replace"):
                return time.perf_counter()
            self.pump(0.002)
        raise TimeoutError(f"{needle!r} did not appear; last output: {self.text()[-400:]!r}")

    def write(self, data: str) -> None:
        os.write(self.master, data.encode())

    def cpu_s(self) -> float:
        """CPU seconds (user + system) the child has used so far: unlike wall time, barely moved by machine load."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mb(self) -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        match = re.search(r"VmHWM:\s+(\d+) kB", status)
        return int(match.group(1)) / 1024 if match else float("nan")

    def close(self) -> None:
        self.write("\x11")  # ctrl+q
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        while self.pump(0.01):
            pass
        os.close(self.master)


def clean_env(home: Path) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "LANG": "C.UTF-8",
        "INTERVIEWER_CONFIG": str(home / "config.toml"),
        "PYTHONPATH": str(ROOT),
    }


def first_paint(
    argv: list[str], env: dict[str, str], painted: str, ready: str
) -> tuple[float, float, float, float]:
    """Seconds to the first frame (``painted`` shown), CPU seconds used by then, seconds to ``ready``, peak RSS MB."""
    pty = Pty(argv, env)
    first = pty.wait_for(painted) - pty.started
    cpu = pty.cpu_s()
    done = pty.wait_for(ready) - pty.started
    rss = pty.peak_rss_mb()
    pty.close()
    return first, cpu, done, rss


def startup(runs: int) -> dict[str, list[float]]:
    """Interleaved runs of the bare app, the home screen and the session screen."""
    keys = ("bare", "bare_cpu", "home", "home_cpu", "home_ready", "run", "run_cpu", "run_ready", "rss")
    times: dict[str, list[float]] = {k: [] for k in keys}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            env = clean_env(Path(tmp))
            pty = Pty([sys.executable, "-c", BARE_APP], env)
            times["bare"].append(pty.wait_for("bare-ready") - pty.started)
            times["bare_cpu"].append(pty.cpu_s())
            pty.close()
            for key, argv, painted, ready in (
                ("home", [*INTERVIEWER, "--transcripts-dir", f"{tmp}/t", "--offline"],
                 "Cases and question banks", "offline keyword scoring"),
                ("run", [*INTERVIEWER, "--transcripts-dir", f"{tmp}/t", "--offline", "run", "mini",
                         "--cases-dir", str(FIXTURE_CASES)],
                 "Total ", "How big is the KV cache"),
            ):
                first, cpu, done, rss = first_paint(argv, env, painted, ready)
                times[key].append(first)
                times[f"{key}_cpu"].append(cpu)
                times[f"{key}_ready"].append(done)
                times["rss"].append(rss)
    return times


BREAKDOWN = """
import time
t0 = time.perf_counter()
from interviewer.cli import build_parser
args = build_parser().parse_args(["--offline"])
t1 = time.perf_counter()
import textual.app, textual.widgets
t2 = time.perf_counter()
import interviewer.tui.app, interviewer.tui.screens.home, interviewer.tui.screens.frame
t3 = time.perf_counter()
from interviewer.cli import resolve_settings
from interviewer.commands.app import environment_for
environment_for(resolve_settings(args))
import interviewer.tui.screens.session
t4 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, t4 - t3)
"""


def breakdown(runs: int) -> list[list[float]]:
    """In-process seconds: CLI parse, Textual, the app's first screens (all before the first frame), then the
    environment and the session screen that the loading worker builds after it."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    rows = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", BREAKDOWN], env=env, capture_output=True, text=True, check=True)
        rows.append([float(x) for x in out.stdout.split()])
    return [list(col) for col in zip(*rows, strict=True)]


def cli_times(runs: int) -> tuple[list[float], list[float]]:
    """Wall time of ``interviewer --help`` and of ``python -c pass``, interleaved."""
    helps: list[float] = []
    bare: list[float] = []
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for _ in range(runs):
        for argv, into in (([*INTERVIEWER, "--help"], helps), ([sys.executable, "-c", "pass"], bare)):
            started = time.perf_counter()
            subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            into.append(time.perf_counter() - started)
    return helps, bare


DRIVER = """
import sys, time
sys.path.insert(0, {root!r})
from pathlib import Path
from interviewer.config import Settings
from interviewer.transcripts import TranscriptStore
from interviewer.tui.app import Environment, create_app
from interviewer.tui.start import Run
from tests.tui_fakes import ScriptedGrader, make_grade, mini_library

chunks = ["word%d " % i for i in range({chunks})]   # one chunk every 10 ms
grader = ScriptedGrader([make_grade(50)], chunks=chunks, chunk_delay=0.01)
settings = Settings(transcripts_dir=Path({tmp!r}), offline=True)
create_app(Environment(settings, mini_library(), grader, TranscriptStore(Path({tmp!r}))), start=Run("mini")).run()
"""


def keystrokes(samples: int, chunks: int = 3000) -> tuple[list[float], float]:
    with tempfile.TemporaryDirectory() as tmp:
        env = clean_env(Path(tmp))
        pty = Pty([sys.executable, "-c", DRIVER.format(root=str(ROOT), tmp=f"{tmp}/t", chunks=chunks)], env)
        pty.wait_for("How big is the KV cache")
        pty.write("first answer")
        pty.wait_for("first answer")
        pty.write("\x13")  # ctrl+s: submit, the slow streaming grade starts
        if chunks > 3:
            pty.wait_for("word3 ")
        latencies: list[float] = []
        for i in range(samples):
            # Textual repaints only what changed, so look for the new character itself.  Each one is
            # unique on its line, so a late repaint of an earlier key can never be mistaken for it.
            char = GLYPHS[i % len(GLYPHS)]
            mark = len(pty.raw)
            sent = time.perf_counter()
            pty.write(char)
            latencies.append(pty.wait_for(char, since=mark) - sent)
            if i % len(GLYPHS) == len(GLYPHS) - 1:
                pty.write("\r")  # start a fresh line before the glyphs repeat
                time.sleep(0.1)
            time.sleep(0.03)
        streaming = "word" in pty.text()[-2000:]
        rss = pty.peak_rss_mb()
        pty.close()
    if not streaming:
        print("warning: the grade was no longer streaming at the end of the keystroke run")
    return latencies, rss


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:7.0f} ms   (min {min(values) * 1000:.0f}, max {max(values) * 1000:.0f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="start-up runs of each app")
    parser.add_argument("--keys", type=int, default=120, help="keystrokes to time (0 skips the keystroke test)")
    args = parser.parse_args()

    t = startup(args.runs)
    bare = statistics.median(t["bare"])
    print(f"start-up ({args.runs} interleaved runs, median; {COLS}x{ROWS} pty)")
    print(f"  bare Textual Header+Footer, first paint:   {ms(t['bare'])}")
    for key, label in (("home", "interviewer (home), first paint:"), ("run", "interviewer run mini, first paint:")):
        ratio = statistics.median(t[key]) / bare
        if key == "run":
            verdict = f"-> {'OK' if ratio <= 1.2 else 'OVER'} (target <= 1.2x)"
        else:  # the issue sets the target on the session's first frame and asks for home to be reported
            verdict = "(reported; the target is for the session's first frame)"
        print(f"  {label:<42} {ms(t[key])}   {ratio:.2f}x bare {verdict}")
        cpu_ratio = statistics.median(t[f"{key}_cpu"]) / statistics.median(t["bare_cpu"])
        print(f"  {'  ... CPU used by the first frame:':<42} {ms(t[key + '_cpu'])}   {cpu_ratio:.2f}x bare's "
              f"{statistics.median(t['bare_cpu']) * 1000:.0f} ms")
        print(f"  {'  ... cases/question filled in:':<42} {ms(t[key + '_ready'])}")

    helps, pass_ = cli_times(args.runs)
    print(f"interviewer --help ({args.runs} runs, median)")
    print(f"  interviewer --help:                        {ms(helps)}")
    print(f"  python -c pass:                            {ms(pass_)}")

    cols = breakdown(args.runs)
    print(f"where the start-up time goes (in-process, {args.runs} runs, median)")
    labels = ["before the frame: CLI parse", "before the frame: Textual",
              "before the frame: app, home, session frame", "after the frame: cases, grader, session"]
    for label, col in zip(labels, cols, strict=True):
        print(f"  {label + ':':<42} {statistics.median(col) * 1000:7.0f} ms")

    rss_session = 0.0
    if args.keys:
        latencies, rss_session = keystrokes(args.keys)
        lat_ms = sorted(x * 1000 for x in latencies)
        p50 = statistics.median(lat_ms)
        p95 = lat_ms[int(0.95 * (len(lat_ms) - 1))]
        print(f"keystroke -> screen in the editor while a grade streams ({len(lat_ms)} keys)")
        print(
            f"  median {p50:.1f} ms   p95 {p95:.1f} ms   max {lat_ms[-1]:.1f} ms  -> "
            f"{'OK' if p95 <= 50 else 'OVER'} (target <= 50 ms)"
        )

    peak = max([*t["rss"], rss_session])
    print("peak RSS (VmHWM)")
    print(
        f"  start-up {max(t['rss']):.0f} MB   session while streaming {rss_session:.0f} MB  -> "
        f"{'OK' if peak <= 150 else 'OVER'} (target <= 150 MB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
