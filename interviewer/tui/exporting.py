"""Writing a transcript as Markdown from the TUI (the text itself comes from ``interviewer.export``)."""

from __future__ import annotations

from pathlib import Path

from interviewer.content.schema import Case
from interviewer.transcripts import Transcript, TranscriptStore


def default_export_path(store: TranscriptStore | None, transcript: Transcript) -> Path:
    """``<transcripts dir>/<id>.md``: next to the transcript, where ``interviewer export`` puts it too."""
    if store is None:
        return Path.cwd() / f"{transcript.id}.md"
    return store.path_for(transcript.id).with_suffix(".md")


def write_markdown(transcript: Transcript, case: Case | None, path: Path) -> Path:
    """Write the Markdown export; raises OSError with the reason when the path cannot be written."""
    from interviewer.export import transcript_markdown

    target = path.expanduser()
    if target.is_dir():
        target = target / f"{transcript.id}.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(transcript_markdown(transcript, case), encoding="utf-8")
    return target.resolve()
