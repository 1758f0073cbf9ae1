"""Render a transcript as Markdown (for people) or JSON (for tools).

Candidate answers are put in fenced blocks so that whatever they typed,
Markdown included, is shown as written.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from interviewer.clock import duration_text
from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS, Case
from interviewer.grading.types import Grade
from interviewer.report import Report, build_report, dimension_title
from interviewer.transcripts import Transcript, TranscriptStore, Turn


def transcript_json(transcript: Transcript) -> str:
    return transcript.model_dump_json(indent=2)


def _fence(text: str) -> str:
    """A code fence longer than any run of backticks inside ``text``."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def _quote(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines()) or ">"


def grade_markdown(grade: Grade) -> list[str]:
    lines = [f"**Grade: {grade.overall}/100** ({_grader_label(grade)})", ""]
    lines.append("| Dimension | Score | Evidence | Missing |")
    lines.append("|---|---|---|---|")
    for dim, d in grade.scored():
        evidence = "; ".join(f"“{_cell(e)}”" for e in d.evidence[:3]) or "-"
        missing = "; ".join(_cell(m) for m in d.missing) or "-"
        lines.append(
            f"| {DIMENSION_TITLES[dim]} | {'█' * d.score}{'░' * (4 - d.score)} {d.score}/4 | {evidence} | {missing} |"
        )
    if grade.numbers_checked:
        lines += ["", "Numbers checked:"]
        mark = {"correct": "✓", "wrong": "✗", "unverified": "?"}
        for check in grade.numbers_checked:
            ref = f" (reference: {check.reference})" if check.reference else ""
            lines.append(f"- {mark[check.verdict]} {check.claim}: {check.verdict}{ref}")
    if grade.flags:
        lines += ["", f"Flags: {', '.join(grade.flags)}"]
    if grade.offline_scores:
        both = [
            f"{DIMENSION_TITLES[d]} {grade.dimensions[d].score} (model) vs {off} (offline)"
            for d, off in grade.offline_scores.items()
            if d in grade.dimensions and grade.dimensions[d].score != off
        ]
        lines += ["", f"The model and the offline grader disagree: {'; '.join(both)}."]
    if grade.feedback:
        lines += ["", "Feedback:", "", _quote(grade.feedback)]
    return lines


def _grader_label(grade: Grade) -> str:
    if grade.grader == "llm":
        return f"graded by {grade.model or 'a model'}"
    if grade.fallback_reason:
        return f"offline keyword scoring; fell back because {grade.fallback_reason}"
    return "offline keyword scoring"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _turn_markdown(turn: Turn) -> list[str]:
    who = "Follow-up" if turn.kind == "follow_up" else "Question"
    lines = [f"### {who} {turn.id} · {turn.question_id}", "", f"**Interviewer:** {turn.prompt}", ""]
    if turn.hints:
        lines += [f"Hints taken: {'; '.join(turn.hints)}", ""]
    if turn.answer:
        took = ""
        if turn.answered_at is not None:
            took = f" (answered in {duration_text(turn.answered_at - turn.asked_at)})"
        lines += [f"**Candidate**{took}:", "", _fence(turn.answer), ""]
    else:
        lines += [f"*{turn.status.replace('_', ' ')}*", ""]
    if turn.grade:
        lines += [*grade_markdown(turn.grade), ""]
    elif turn.status == "answered":
        lines += ["*Not graded yet.*", ""]
    return lines


def _scores_table(report: Report) -> list[str]:
    """Every question's scores per dimension and overall, main answers and follow-ups apart."""
    rows = [(q.question_id, "main", q.main) for q in report.questions if q.main]
    rows += [(q.question_id, f"follow-up (turn {f.turn_id})", f) for q in report.questions for f in q.follow_ups]
    if not rows:
        return []
    head = " | ".join(DIMENSION_TITLES[d] for d in DIMENSIONS)
    out = ["## Scores per question", "", f"| Question | Answer | {head} | Overall |", "|---|---|" + "---|" * 5]
    for qid, label, score in rows:
        assert score is not None
        cells = " | ".join(str(score.scores[d]) if d in score.scores else "-" for d in DIMENSIONS)
        out.append(f"| {_cell(qid)} | {label} | {cells} | {score.overall} |")
    return [*out, ""]


def _out_of_100(score: int | None) -> str:
    """'31/100', or 'n/a' when nothing was graded (not 'n/a/100')."""
    return "n/a" if score is None else f"{score}/100"


def transcript_markdown(transcript: Transcript, case: Case | None) -> str:
    report = build_report(transcript, case)
    status = "finished" if transcript.status == "finished" else "unfinished"
    out = [
        f"# {transcript.case_title}",
        "",
        f"Session `{transcript.id}` · started {transcript.started} · {status}",
        "",
        "## Summary",
        "",
        f"- Overall: {_out_of_100(report.overall)} over {report.answered} "
        f"{'answer' if report.answered == 1 else 'answers'} ({report.skipped} skipped)",
        f"- Follow-ups: {_out_of_100(report.follow_up_overall)}",
        f"- Your time: {duration_text(transcript.elapsed)} · grading time (clock stopped): "
        f"{duration_text(transcript.grading_s)}",
        f"- How the overall is made: {report.overall_rule}",
        *([f"- {report.grader_note}"] if report.grader_note else []),
        f"- Strongest: {dimension_title(report.strongest)} · Weakest: {dimension_title(report.weakest)}",
        f"- Graded by: {', '.join(report.graders) or 'nobody yet'}",
        "",
        "| Dimension | Average |",
        "|---|---|",
        *[f"| {DIMENSION_TITLES[d]} | {report.average_label(d)} |" for d in DIMENSIONS],
        "",
        "| Phase | Used | Budget |",
        "|---|---|---|",
        *[
            f"| {_cell(p.title)} | {duration_text(p.used_s)}{' (over)' if p.over else ''}"
            f" | {duration_text(p.budget_s)} |"
            for p in report.phases
        ],
        "",
    ]
    out += _scores_table(report)
    if report.fallbacks:
        out += ["Fallbacks to offline scoring:", *[f"- {r}" for r in report.fallbacks], ""]
    out += ["## Turns", ""]
    for turn in transcript.turns:
        out += _turn_markdown(turn)
    reviews = [q for q in report.questions if q.outline or q.missed]
    if reviews:
        out += ["## Review", ""]
        for q in reviews:
            out += [f"### {q.question_id}", "", q.prompt, ""]
            if q.missed:
                out += ["Key points missed:", *[f"- {m}" for m in q.missed], ""]
            if q.outline:
                out += ["Model answer outline:", *[f"- {item}" for item in q.outline], ""]
    return "\n".join(out).rstrip() + "\n"


ExportFormat = Literal["md", "json"]


def default_export_path(store: TranscriptStore | None, transcript: Transcript, fmt: ExportFormat = "md") -> Path:
    """Where an export goes when no path is given.

    Markdown goes beside the transcript (``<transcripts dir>/<id>.md``); a JSON
    copy goes to the current folder, because a .json in the transcripts dir
    would be listed as a second copy of the session.
    """
    if fmt == "md" and store is not None:
        return store.path_for(transcript.id).with_suffix(".md")
    return Path.cwd() / f"{transcript.id}.{fmt}"


def write_export(
    transcript: Transcript,
    case: Case | None,
    store: TranscriptStore | None,
    target: Path | None = None,
    fmt: ExportFormat = "md",
) -> Path:
    """Write one session as Markdown or JSON; the one export path for the CLI and the TUI.

    A folder as ``target`` gets ``<id>.<fmt>`` inside it, and missing parent
    folders of a path the user chose are created.  Never overwrites a
    transcript (``TranscriptError``); an ``OSError`` says why the file could
    not be written.  Returns the path written.
    """
    path = (target or default_export_path(store, transcript, fmt)).expanduser()
    if path.is_dir():
        path = path / f"{transcript.id}.{fmt}"
    if store is not None:
        store.check_export_target(path)
    text = transcript_json(transcript) + "\n" if fmt == "json" else transcript_markdown(transcript, case)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
