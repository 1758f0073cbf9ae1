"""Grade the answers of a saved transcript again, with whatever grader is configured now.

Shared by ``interviewer regrade`` and the review screen.  The old grade is
kept in ``previous_grades`` (with who graded it and when) so progress over time
stays honest, but a turn keeps at most ``MAX_GRADES_PER_TURN`` grades in all:
regrading a session every evening must not grow its file without bound.
"""

from __future__ import annotations

from collections.abc import Callable

from interviewer.content.schema import Case, Dimension, Question, Rubric
from interviewer.grading.types import Grade, Grader, GradeRequest
from interviewer.transcripts import Transcript, TranscriptStore, Turn

MAX_GRADES_PER_TURN = 5
"""The current grade and the four before it; older grades are dropped, oldest first."""


def request_for_turn(transcript: Transcript, turn: Turn, case: Case, rubric: Rubric) -> GradeRequest:
    """The GradeRequest for one answered turn, with earlier answers on the same question as history.

    A follow-up is graded against its own key points (``Probe.question``), with
    the question it follows as context.
    """
    question = case.question(turn.question_id)
    if question is None:
        raise KeyError(turn.question_id)
    history = tuple(
        (t.prompt, t.answer or "")
        for t in transcript.turns
        if t.question_id == turn.question_id and t.id < turn.id and t.answer
    )
    target, parent = question, None
    if turn.kind == "follow_up":
        target, parent = follow_up_target(question, turn), question
    return GradeRequest(
        case=case,
        rubric=rubric,
        question=target,
        parent=parent,
        answer=turn.answer or "",
        prompt=turn.prompt,
        history=history,
    )


def follow_up_target(question: Question, turn: Turn) -> Question:
    """What a follow-up turn is graded against.  Old transcripts (no number saved) find it by its prompt."""
    number = turn.follow_up
    if number is None:
        number = next((n for n, f in enumerate(question.follow_ups, 1) if f.prompt == turn.prompt), None)
    if number is not None and 1 <= number <= len(question.follow_ups):
        return question.follow_up_question(number)
    dimension: Dimension = next((d for d in question.dimensions if d == turn.probe_dimension), "mechanism")
    return question.probe_question(dimension, turn.probe_point, turn.prompt)


def regrade(
    transcript: Transcript,
    case: Case,
    rubric: Rubric,
    grader: Grader,
    store: TranscriptStore | None,
    *,
    on_turn: Callable[[Turn, Grade | None, Grade], None] | None = None,
    should_stop: Callable[[], bool] = lambda: False,
) -> int:
    """Regrade every answered turn, saving after each one.  Returns how many were regraded.

    Turns whose question is gone from the case are left as they are.
    """
    done = 0
    last_saved = transcript.updated  # saving each turn moves ``updated``; old grades date from before this run
    for turn in transcript.turns:
        if should_stop():
            break
        if not turn.answer or case.question(turn.question_id) is None:
            continue
        old = turn.grade
        new = grader.grade(request_for_turn(transcript, turn, case, rubric))
        if old is not None:
            keep_in_history(turn, old, last_saved)
        turn.grade = new
        turn.status = "graded"
        if store is not None:
            store.save(transcript)
        done += 1
        if on_turn is not None:
            on_turn(turn, old, new)
    return done


def keep_in_history(turn: Turn, old: Grade, updated: str) -> None:
    """Move ``old`` into the turn's history, dropping the oldest grades beyond the cap.

    A grade from before ``graded_at`` existed gets the transcript's last save
    time (``updated``): the best guess at hand, and no earlier than the truth.
    """
    if old.graded_at is None:
        old = old.model_copy(update={"graded_at": updated})
    turn.previous_grades.append(old)
    del turn.previous_grades[: max(0, len(turn.previous_grades) - (MAX_GRADES_PER_TURN - 1))]
