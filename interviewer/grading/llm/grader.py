"""The OpenAI-compatible grader: prompt, stream, parse, validate, and keep the model honest.

``LLMGrader.grade`` raises ``GradingError`` (one-line reason) whenever the
model's output cannot be trusted; the fallback policy then uses the offline
grade.  It never invents a score.  Follow-ups are chosen by the code
(``choose_probe``); ``word_follow_up`` only asks the model to phrase the
chosen probe, in a small second call made after the grade is final (the
probe depends on the final scores, so it cannot be part of the grading
reply).
"""

from __future__ import annotations

import re
import secrets

from interviewer.config import Settings
from interviewer.followup import Probe
from interviewer.grading.llm.client import ChatClient, Completion
from interviewer.grading.llm.merge import merge
from interviewer.grading.llm.parse import parse_reply, reply_schema, strip_wrappers
from interviewer.grading.llm.prompts import follow_up_messages, grading_messages
from interviewer.grading.llm.stream import FeedbackStream
from interviewer.grading.offline.grader import KeywordGrader
from interviewer.grading.offline.injection import detect_injection
from interviewer.grading.types import ChunkCallback, Grade, Grader, GradeRequest, GraderName, GradingError

DEFAULT_MAX_TOKENS = 900
"""Enough for feedback plus four scored dimensions with short quotes."""
RETRY_MAX_TOKENS = 2400
"""Budget for the single retry after ``finish_reason == "length"`` (thinking models need room)."""
FOLLOW_UP_MAX_TOKENS = 160
MAX_ANSWER_CHARS = 12_000
"""Longer answers are clipped for the model (and flagged ``truncated``); about 3,000 tokens."""
FOLLOW_UP_ANSWER_CHARS = 3000
MAX_FOLLOW_UP_CHARS = 400

_LEAD_IN = re.compile(r"^\s*(?:follow[- ]?up(?: question)?|question|interviewer)\s*[:\-]\s*", re.I)


def nonce() -> str:
    """A fresh tag suffix per call, so an answer cannot close its own delimiter."""
    return secrets.token_hex(6)


class LLMGrader:
    name: GraderName = "llm"

    def __init__(
        self,
        settings: Settings,
        *,
        client: ChatClient | None = None,
        offline: Grader | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        retry_max_tokens: int = RETRY_MAX_TOKENS,
    ) -> None:
        self.settings = settings
        self.client = client or ChatClient(settings)
        self._offline = offline
        self.max_tokens = max_tokens
        self.retry_max_tokens = max(retry_max_tokens, max_tokens)

    @property
    def model_name(self) -> str | None:
        """The model in use, once known (configured, or discovered on the first call)."""
        return self.client.model_name

    def _offline_grade(self, request: GradeRequest) -> Grade:
        if self._offline is None:
            self._offline = KeywordGrader()
        return self._offline.grade(request)

    def grade(
        self, request: GradeRequest, on_chunk: ChunkCallback | None = None, *, offline: Grade | None = None
    ) -> Grade:
        """Grade with the model.  ``offline`` is the keyword grade of the same request, if already computed."""
        offline = offline if offline is not None else self._offline_grade(request)
        answer = request.answer[:MAX_ANSWER_CHARS]
        clipped = len(request.answer) > MAX_ANSWER_CHARS
        messages = grading_messages(request, answer, nonce(), clipped=clipped)
        preview = FeedbackStream(on_chunk) if on_chunk is not None else None
        budget = self.max_tokens
        completion = self._ask(messages, budget, preview)
        if completion.finish_reason == "length" and self.retry_max_tokens > budget:
            if preview is not None:
                preview.restart()
            budget = self.retry_max_tokens
            completion = self._ask(messages, budget, preview)
        if completion.finish_reason == "length":
            raise GradingError(f"model output was cut off (finish_reason=length) at a {budget}-token budget")
        reply = parse_reply(completion.text, completion.finish_reason)
        return merge(
            reply,
            request,
            offline,
            model=completion.model,
            injection=detect_injection(request.answer),
            answer_clipped=clipped,
        )

    def _ask(self, messages: list[dict[str, str]], budget: int, preview: FeedbackStream | None) -> Completion:
        return self.client.chat(
            messages,
            max_tokens=budget,
            schema=reply_schema(),
            grammar_schema=reply_schema(bounded=True),
            on_text=preview.feed if preview else None,
        )

    def word_follow_up(self, request: GradeRequest, probe: Probe) -> str:
        """The model's wording of the probe the code chose.  Raises ``GradingError`` if it is unusable."""
        if detect_injection(request.answer):
            raise GradingError("answer contains instructions to the grader; using the scripted follow-up")
        messages = follow_up_messages(request, probe, request.answer[:FOLLOW_UP_ANSWER_CHARS], nonce())
        completion = self.client.chat(messages, max_tokens=FOLLOW_UP_MAX_TOKENS)
        if completion.finish_reason == "length":
            raise GradingError("follow-up wording was cut off (finish_reason=length)")
        return clean_question(completion.text)


def clean_question(text: str) -> str:
    """One short question from the model's reply, or ``GradingError``."""
    text = strip_wrappers(text)
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    if not paragraphs:
        raise GradingError("follow-up wording was empty")
    question = " ".join(_LEAD_IN.sub("", paragraphs[0]).split()).strip("\"'` ")
    if "?" not in question:
        raise GradingError("follow-up wording was not a question")
    question = question[: question.rindex("?") + 1]  # drop anything the model added after the question
    if len(question.split()) < 3:
        raise GradingError("follow-up wording was too short")
    if len(question) > MAX_FOLLOW_UP_CHARS:
        raise GradingError("follow-up wording was too long")
    if "{" in question or "<answer-" in question:
        raise GradingError("follow-up wording was not a plain question")
    return question
