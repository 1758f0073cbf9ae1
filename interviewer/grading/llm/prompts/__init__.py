"""Prompt templates (Jinja2 files beside this module) and the code that renders them.

Every template is rendered in a ``SandboxedEnvironment`` with autoescape off
(the output is plain text for a model, not HTML).  Text from case files and
answers is passed in as *data*: it is never compiled as a template, so a
case author or a candidate who writes ``{{ ... }}`` gets those characters
printed, not executed.  The answer is wrapped in tags carrying a random
nonce, and the rubric comes after it, so instructions hidden in an answer
have the least pull on the grader.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interviewer.content.schema import DIMENSION_TITLES, DIMENSIONS
from interviewer.followup import probe_label
from interviewer.grading.types import GradeRequest

if TYPE_CHECKING:
    from jinja2.sandbox import SandboxedEnvironment

    from interviewer.followup import Probe

TEMPLATE_DIR = Path(__file__).resolve().parent
HISTORY_ANSWER_CHARS = 1500
"""Earlier answers on the same question are context; only their head is sent."""


@lru_cache(maxsize=1)
def environment() -> SandboxedEnvironment:
    from jinja2 import FileSystemLoader, StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    return SandboxedEnvironment(
        loader=FileSystemLoader(str(TEMPLATE_DIR)),
        autoescape=False,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


def render(name: str, **data: Any) -> str:
    return environment().get_template(name).render(**data).strip()


def _fmt(value: float) -> str:
    return f"{value:g}"


def grading_messages(request: GradeRequest, answer: str, nonce: str, *, clipped: bool = False) -> list[dict[str, str]]:
    """System and user messages for grading ``answer`` (already clipped to the length limit)."""
    rubric, question = request.rubric, request.question
    dimensions = [
        {
            "key": dim,
            "title": DIMENSION_TITLES[dim],
            "description": rubric.dimensions[dim].description,
            "levels": sorted(rubric.dimensions[dim].levels.items()),
            "key_points": [kp.text for kp in question.key_points.get(dim, [])],
            "graded": dim in question.dimensions,
        }
        for dim in DIMENSIONS
    ]
    quantities = [
        f"{q.measures}: {_fmt(q.value)} {q.unit} (±{_fmt(q.tolerance * 100)}%)" for q in question.quantities
    ]
    misconceptions = [f"{m.text} (correction: {m.correction})" for m in question.misconceptions]
    history = [{"prompt": p, "answer": a[:HISTORY_ANSWER_CHARS]} for p, a in request.history]
    parent = request.parent.prompt if request.parent is not None else ""
    user = render(
        "grade.j2",
        case={"title": request.case.title, "scenario": request.case.scenario},
        parent=parent,
        asked=request.asked,
        history=history,
        nonce=nonce,
        answer=answer,
        clipped=clipped,
        rubric={"title": rubric.title},
        dimensions=dimensions,
        quantities=quantities,
        misconceptions=misconceptions,
    )
    return [{"role": "system", "content": render("system.j2")}, {"role": "user", "content": user}]


def follow_up_messages(request: GradeRequest, probe: Probe, answer: str, nonce: str) -> list[dict[str, str]]:
    """Messages asking the model to word the follow-up the code chose."""
    user = render(
        "follow_up.j2",
        asked=request.asked,
        answer=answer,
        nonce=nonce,
        label=probe_label(probe),
        missed=probe.missed_point or "",
        scripted=probe.scripted,
    )
    return [{"role": "system", "content": render("follow_up_system.j2")}, {"role": "user", "content": user}]
