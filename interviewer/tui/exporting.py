"""Writing a transcript as Markdown from the TUI (the text itself comes from ``interviewer.export``)."""

from __future__ import annotations

from pathlib import Path

from interviewer.content.schema import Case
from interviewer.transcripts import Transcript, TranscriptError, TranscriptStore


def default_export_path(store: TranscriptStore | None, transcript: Transcript) -> Path:
    """``<transcripts dir>/<id>.md``: next to the transcript, where ``interviewer export`` puts it too."""
    if store is None:
        return Path.cwd() / f"{transcript.id}.md"
    return store.path_for(transcript.id).with_suffix(".md")


def write_markdown(transcript: Transcript, case: Case | None, path: Path, store: TranscriptStore | None = None) -> Path:
    """Write the Markdown export; raises OSError with the reason when the path cannot be written."""
    from interviewer.export import transcript_markdown

    target = path.expanduser()
    if target.is_dir():
        target = target / f"{transcript.id}.md"
    if store is not None:
        try:
            store.check_export_target(target)
        except TranscriptError as exc:
            raise OSError(str(exc)) from None
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(transcript_markdown(transcript, case), encoding="utf-8")
    return target.resolve()
