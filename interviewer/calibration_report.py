"""What ``interviewer calibrate`` concludes and keeps: the figures side by side, a plain verdict, the saved result.

The verdict is derived from the figures by fixed rules, so two runs with the
same figures always read the same, and a reader can check it by hand:

1. Fewer than ``MIN_ANSWERS`` answers graded: no verdict ("too few answers").
2. A fallback rate of ``MAX_FALLBACK`` or more: the figures are mostly the
   offline grader's, so the verdict says to fix the endpoint and run again.
3. Otherwise compare the overall Spearman of the configured grader (rho_c)
   with the offline grader's on the same answers (rho_o): within
   ``SAME_BAND`` of each other is "about as well as the offline grader",
   above that "better than", below "worse than".
4. Then how far to rely on it, from its own rho and its within-one agreement
   pooled over the dimensions: rho >= ``TRUST_RHO`` and within-one >=
   ``TRUST_WITHIN_ONE`` means its scores can be used as numbers; rho >=
   ``RANK_RHO`` means trust its ranking of answers but not the exact scores;
   below that, don't rely on it for numbers.
5. Some fallbacks (under rule 2's threshold) are mentioned; a run stopped with
   Ctrl+C says it is partial and how many answers it covers.

With no endpoint configured only rule 1, 4 and 5 apply, to the offline grader.

The saved result (``user_data_dir()/calibration.json``) holds the endpoint
without user info, query or key, the model, the date, the figures and the
verdict; the home screen shows its one-line form beside the grader's status.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from interviewer.atomic import write_atomic
from interviewer.calibration import Agreement, Result, agreement
from interviewer.paths import user_data_dir

MIN_ANSWERS = 10
MAX_FALLBACK = 0.5
SAME_BAND = 0.1
TRUST_RHO = 0.85
TRUST_WITHIN_ONE = 0.9
RANK_RHO = 0.6
RESULT_NAME = "calibration.json"


def pooled(figures: Agreement, field: str) -> float | None:
    """Exact or within-one agreement over every labelled dimension score (each dimension weighted by its count)."""
    total = sum(a.n for a in figures.dimensions.values())
    if not total:
        return None
    return float(sum(getattr(a, field) * a.n for a in figures.dimensions.values())) / total


def figures(results: Sequence[Result], description: str) -> dict[str, Any]:
    """One grader's figures as JSON: what the table prints and the saved file keeps."""
    s = agreement(results)
    return {
        "grader": description,
        "answers": s.n,
        "spearman": s.overall_spearman,
        "exact": pooled(s, "exact"),
        "within_one": pooled(s, "within_one"),
        "dimensions": {
            d: {"n": a.n, "spearman": a.spearman, "exact": a.exact, "within_one": a.within_one}
            for d, a in s.dimensions.items()
        },
        "fallback_rate": s.fallback_rate,
        "fallback_reasons": dict(Counter(s.fallback_reasons).most_common()),
        "median_s": s.median_s,
        "p95_s": s.p95_s,
    }


def _reliance(rho: float, within_one: float | None) -> str:
    if rho >= TRUST_RHO and (within_one or 0.0) >= TRUST_WITHIN_ONE:
        return "its scores can be relied on as numbers"
    if rho >= RANK_RHO:
        return "trust its ranking of answers, not its exact scores"
    return "don't rely on it for numbers"


def verdict(configured: dict[str, Any] | None, offline: dict[str, Any], *, total: int, partial: bool) -> str:
    """The plain verdict, by the rules in the module docstring."""
    main = configured or offline
    n = int(main["answers"])
    prefix = f"partial run ({n} of {total} answers): " if partial else ""
    if n < MIN_ANSWERS:
        return f"{prefix}too few answers graded ({n}) for a verdict; run it to the end"
    rho = float(main["spearman"] or 0.0)
    if configured is None:
        return f"{prefix}offline grader only (rho {rho:.2f} with the labels): {_reliance(rho, offline['within_one'])}"
    rate = float(configured["fallback_rate"])
    if rate >= MAX_FALLBACK:
        reasons = configured["fallback_reasons"]
        top = f" (mostly: {next(iter(reasons))})" if reasons else ""
        return (f"{prefix}the endpoint failed on {rate:.0%} of answers{top}, so these figures are mostly the "
                "offline grader's; fix the endpoint and calibrate again")
    delta = rho - float(offline["spearman"] or 0.0)
    if abs(delta) < SAME_BAND:
        compared = "agrees with the labels about as well as the offline grader"
    elif delta > 0:
        compared = "agrees with the labels better than the offline grader"
    else:
        compared = "agrees with the labels worse than the offline grader"
    fell_back = f" ({rate:.0%} of its grades fell back to offline)" if rate > 0 else ""
    return f"{prefix}{compared}{fell_back}; {_reliance(rho, configured['within_one'])}"


@dataclass(frozen=True)
class Outcome:
    """A calibration run: everything ``calibrate`` prints and saves."""

    date: str
    partial: bool
    set_path: str
    total: int
    questions: int
    endpoint: str | None
    model: str | None
    configured: dict[str, Any] | None
    offline: dict[str, Any]
    verdict: str

    def as_json(self) -> dict[str, Any]:
        return {
            "date": self.date,
            "partial": self.partial,
            "set": {"path": self.set_path, "answers": self.total, "questions": self.questions},
            "endpoint": self.endpoint,
            "model": self.model,
            "configured": self.configured,
            "offline": self.offline,
            "verdict": self.verdict,
        }


def result_path() -> Path:
    return user_data_dir() / RESULT_NAME


def save(data: dict[str, Any], text: str | None = None) -> Path:
    """Write the result atomically (``text`` is its JSON, already checked for secrets, when given)."""
    path = result_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (text or json.dumps(data, indent=1, ensure_ascii=False)).encode("utf-8"))
    return path


def load_latest() -> dict[str, Any] | None:
    """The saved result, or None when there is none or it cannot be read (it is only ever informative)."""
    try:
        data = json.loads(result_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("verdict"), str) else None


def status_line(data: dict[str, Any], current_endpoint: str | None = None) -> str:
    """One line for the home screen: when, against what, rho beside the offline grader's, and the verdict.

    ``current_endpoint`` (the configured one, without secrets) marks a result measured on another endpoint,
    which says little about the grader in use now.
    """
    try:
        day = datetime.fromisoformat(str(data["date"])).strftime("%Y-%m-%d")
    except (KeyError, ValueError):
        day = "unknown date"
    what = data.get("model") or "offline grader"
    if data.get("endpoint"):
        what = f"{what} at {data['endpoint']}"
    rhos = []
    for key in ("configured", "offline"):
        figs = data.get(key)
        if isinstance(figs, dict) and figs.get("spearman") is not None:
            rhos.append(f"{'model' if key == 'configured' else 'offline'} rho {float(figs['spearman']):.2f}")
    partial = " (partial)" if data.get("partial") else ""
    if current_endpoint is not None and data.get("endpoint") != current_endpoint:
        partial += " (not the endpoint configured now)"
    return f"calibrated {day}{partial}, {what}: {', '.join(rhos) or 'no figures'}: {data['verdict']}"
