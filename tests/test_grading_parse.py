"""Unit tests for the pieces of the LLM grader that need no server: parsing, quotes, streaming, prompts."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interviewer.config import Settings
from interviewer.grading.errors import safe_url, scrub
from interviewer.grading.llm.client import _repeating, _retry_after, normalise_base
from interviewer.grading.llm.evidence import normalise, quote_in_answer
from interviewer.grading.llm.parse import load_json, parse_reply, repair_json, reply_schema, strip_wrappers
from interviewer.grading.llm.stream import FeedbackStream
from interviewer.grading.types import GradingError
from tests.fakeserver import grade_reply, kv_request

GOOD = json.dumps(grade_reply())


# --------------------------------------------------------------------------- tolerant parsing


@pytest.mark.parametrize(
    "text",
    [
        GOOD,
        f"<think>I think \"feedback\" {{ is }} needed</think>\n{GOOD}",
        f"```json\n{GOOD}\n```",
        f"Here is the grade:\n```\n{GOOD}\n```\nHope that helps!",
        f"Sure. {GOOD} Anything else?",
        f"reasoning without an opening tag</think>{GOOD}",
    ],
    ids=["plain", "think", "fence", "fence-prose", "prose", "orphan-close"],
)
def test_wrapped_replies_parse(text: str) -> None:
    reply = parse_reply(text, "stop")
    assert reply.dimensions["numbers"].score == 4


def test_unclosed_think_block_hides_everything_after_it() -> None:
    with pytest.raises(GradingError, match="no JSON object"):
        parse_reply("<think>" + GOOD, "stop")


def test_repairs_trailing_commas_single_quotes_python_literals_and_bare_keys() -> None:
    text = (
        "{'feedback': 'It\\'s fine, mostly', dimensions: {"
        "'mechanism': {'score': 3, 'evidence': ['a b c',], 'missing': [],},"
        "'tradeoff': {'score': 2, 'evidence': [], 'missing': None},"
        "'numbers': {'score': '4', 'evidence': [], 'missing': []},"
        "'failure_modes': {'score': 1.6, 'evidence': [], 'missing': []},}, 'flags': [], 'ok': True,}"
    )
    reply = parse_reply(text, "stop")
    assert reply.feedback == "It's fine, mostly"
    assert [reply.dimensions[d].score for d in reply.dimensions] == [3, 2, 4, 2]


def test_unclosed_brackets_are_closed_when_the_model_stopped_on_its_own() -> None:
    text = GOOD[:-2]  # lost the final '}}' (the flags list is closed)
    assert parse_reply(text, "stop").dimensions["mechanism"].score == 3


def test_cut_off_output_is_never_parsed_into_a_score() -> None:
    with pytest.raises(GradingError, match="finish_reason=length"):
        parse_reply(GOOD, "length")
    with pytest.raises(GradingError):
        load_json(GOOD[:-2], "length")
    with pytest.raises(GradingError):
        repair_json('{"a": "b', close=False)


def test_near_miss_shapes_are_accepted() -> None:
    flat = {"feedback": "ok", "mechanism": 3, "tradeoff": 2, "Numbers": "3/4", "failure modes": {"score": 1}}
    reply = parse_reply(json.dumps(flat), "stop")
    assert {d: s.score for d, s in reply.dimensions.items()} == {
        "mechanism": 3,
        "tradeoff": 2,
        "numbers": 3,
        "failure_modes": 1,
    }
    scores = {"scores": {d: {"score": 2, "evidence": "one quote"} for d in ("mechanism", "tradeoff", "numbers")}}
    scores["scores"]["failure_modes"] = {"score": 0}
    reply = parse_reply(json.dumps(scores), "stop")
    assert reply.dimensions["mechanism"].evidence == ["one quote"]
    assert reply.dimensions["failure_modes"].missing is None


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        ({}, "no score for mechanism"),
        ({"dimensions": {"mechanism": {"score": True}}}, "no score for tradeoff"),
        ({"feedback": "good", "mechanism": "high", "tradeoff": 1, "numbers": 1, "failure_modes": 1}, "mechanism"),
        ([1, 2, 3], "no JSON object"),
    ],
)
def test_nonsense_is_rejected(payload: object, words: str) -> None:
    with pytest.raises(GradingError, match=words):
        parse_reply(json.dumps(payload), "stop")


def test_boolean_scores_are_rejected() -> None:
    data = grade_reply()
    data["dimensions"]["mechanism"]["score"] = True
    with pytest.raises(GradingError, match="score"):
        parse_reply(json.dumps(data), "stop")


def test_empty_and_filtered_replies() -> None:
    with pytest.raises(GradingError, match="empty"):
        parse_reply("  ", "stop")
    with pytest.raises(GradingError, match="content_filter"):
        parse_reply(GOOD, "content_filter")


@given(st.text(max_size=300))
def test_parsing_never_raises_anything_but_grading_error(text: str) -> None:
    with contextlib.suppress(GradingError):
        parse_reply(text, "stop")


def test_reply_schema_is_strict_compatible() -> None:
    schema = reply_schema()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object":
                assert node["additionalProperties"] is False
                assert sorted(node["required"]) == sorted(node["properties"])
            for value in node.values():
                walk(value)

    walk(schema)
    assert next(iter(schema["properties"])) == "feedback", "feedback streams first"
    assert "maxLength" in json.dumps(reply_schema(bounded=True))


def test_strip_wrappers_keeps_plain_text() -> None:
    assert strip_wrappers("<think>hmm</think> What would you do?") == "What would you do?"


# --------------------------------------------------------------------------- evidence quotes


def test_quotes_match_case_and_whitespace_insensitively() -> None:
    answer = normalise("The KV cache\nstores  keys and values — for every layer.")
    assert quote_in_answer("stores keys AND values", answer)
    assert quote_in_answer("“stores keys and values - for every layer.”", answer)
    assert quote_in_answer("The KV cache ... every layer", answer)
    assert not quote_in_answer("every layer ... The KV cache", answer), "fragments must be in order"
    assert not quote_in_answer("stores queries", answer)
    assert not quote_in_answer("a", answer), "a one-letter quote proves nothing"
    assert not quote_in_answer("", answer)


# --------------------------------------------------------------------------- streaming preview


def _stream(pieces: list[str]) -> str:
    out: list[str] = []
    feed = FeedbackStream(out.append)
    for piece in pieces:
        feed.feed(piece)
    return "".join(out)


def test_feedback_is_decoded_across_chunk_boundaries() -> None:
    text = json.dumps({"feedback": 'Say "why" \\ then\nhow. Café ü', "dimensions": {}}, ensure_ascii=True)
    for size in (1, 2, 3, 7, len(text)):
        assert _stream([text[i : i + size] for i in range(0, len(text), size)]) == 'Say "why" \\ then\nhow. Café ü'


def test_only_the_top_level_feedback_is_streamed() -> None:
    text = json.dumps({"dimensions": {"mechanism": {"feedback": "nested, not shown"}}, "feedback": "top level"})
    assert _stream([text[i : i + 5] for i in range(0, len(text), 5)]) == "top level"


def test_split_surrogate_pairs_and_escapes_stream_whole_characters() -> None:
    text = json.dumps({"feedback": "Good \U0001f600 \u00e9\"q\" done"}, ensure_ascii=True)
    pieces = [text[i : i + 1] for i in range(len(text))]
    assert _stream(pieces) == "Good \U0001f600 \u00e9\"q\" done"


def test_a_reply_that_is_not_json_streams_nothing() -> None:
    assert _stream(["I would give it ", "{a three} out of four"]) == ""


def test_feedback_in_a_think_block_is_not_streamed() -> None:
    text = '<think>draft "feedback": "nope"</think>{"feedback": "yes"}'
    assert _stream([text[i : i + 4] for i in range(0, len(text), 4)]) == "yes"


def test_restart_does_not_repeat_what_was_shown() -> None:
    out: list[str] = []
    feed = FeedbackStream(out.append)
    feed.feed('{"feedback": "Good mech')
    feed.restart()
    feed.feed('{"feedback": "Good mechanism, weak numbers."}')
    assert "".join(out) == "Good mechanism, weak numbers."


# --------------------------------------------------------------------------- prompts


def test_case_text_is_data_not_a_template(mini_case, rubric) -> None:
    from interviewer.grading.llm.prompts import grading_messages

    evil = mini_case.model_copy(update={"scenario": "{{ ''.__class__.__mro__ }} {% for x in range(3) %}x{% endfor %}"})
    answer = "{{ 7 * 7 }} and {% raw %}"
    messages = grading_messages(kv_request(evil, rubric, answer), answer, "abc123")
    user = messages[1]["content"]
    assert "{{ ''.__class__.__mro__ }}" in user
    assert "{{ 7 * 7 }} and {% raw %}" in user
    assert "49" not in user


def test_templates_render_in_a_sandbox() -> None:
    from jinja2.sandbox import SandboxedEnvironment

    from interviewer.grading.llm.prompts import environment

    assert isinstance(environment(), SandboxedEnvironment)
    assert environment().autoescape is False


def test_grading_prompt_lists_rubric_levels_and_key_points(mini_case, rubric) -> None:
    from interviewer.grading.llm.prompts import grading_messages

    user = grading_messages(kv_request(mini_case, rubric), "an answer", "n0nce")[1]["content"]
    for dim in rubric.dimensions.values():
        assert dim.levels[4] in user
    assert "K and V are stored for every layer and KV head" in user
    assert "320 KiB" in user


def test_history_answers_are_fenced_too(mini_case, rubric) -> None:
    from interviewer.grading.llm.prompts import grading_messages

    request = kv_request(mini_case, rubric, history=(("First question?", "earlier answer text"),))
    user = grading_messages(request, "now", "n0nce")[1]["content"]
    assert "<answer-n0nce>earlier answer text</answer-n0nce>" in user


# --------------------------------------------------------------------------- small helpers


@pytest.mark.parametrize(
    ("given_url", "expected"),
    [
        ("http://h:8080/v1/", "http://h:8080/v1"),
        ("h:8080", "http://h:8080"),
        ("https://api.example.com/v1/chat/completions", "https://api.example.com/v1"),
        (" http://h/ ", "http://h"),
    ],
)
def test_normalise_base(given_url: str, expected: str) -> None:
    assert normalise_base(given_url) == expected


def test_retry_after_parsing() -> None:
    assert _retry_after({"retry-after": "2"}) == 2.0
    assert _retry_after({"retry-after": "0.5"}) == 0.5
    assert _retry_after({}) is None
    assert _retry_after({"retry-after": "soon"}) is None
    assert _retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0


def test_repetition_detector() -> None:
    assert _repeating("The answer is good. " * 20)
    assert not _repeating(" ".join(str(i) for i in range(200)))


def test_scrub_removes_key_bearer_and_newlines() -> None:
    from pydantic import SecretStr

    settings = Settings(api_key=SecretStr("sk-live-abcdefghijklmnop"))
    text = "bad key sk-live-abcdefghijklmnop\nAuthorization: Bearer other-token-xyz; prefix sk-live-abcd…"
    clean = scrub(text, settings)
    assert "abcdefghijklmnop" not in clean and "other-token-xyz" not in clean and "sk-live-abcd" not in clean
    assert "\n" not in clean


def test_safe_url_drops_credentials() -> None:
    assert safe_url("http://user:pw@host:1/v1?key=x") == "http://host:1/v1"


def test_policy_import_does_not_import_openai_or_jinja() -> None:
    code = (
        "import sys, interviewer.grading.policy\n"
        "print('openai' in sys.modules, 'jinja2' in sys.modules, 'textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "False"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Follow-up: How much is that for 4,096 tokens?", "How much is that for 4,096 tokens?"),
        ('"You said 320 KiB. What about 8k tokens?" Hope this helps.', "You said 320 KiB. What about 8k tokens?"),
        ("<think>hmm</think>\nWhat breaks first when HBM fills?\n\nExtra notes.", "What breaks first when HBM fills?"),
    ],
)
def test_follow_up_wording_is_cleaned(text: str, expected: str) -> None:
    from interviewer.grading.llm.grader import clean_question

    assert clean_question(text) == expected


@pytest.mark.parametrize(
    "text", ["The candidate's answer is between 2 and 3.", "Why?", "", '{"question": "What?"}', "x?" * 300]
)
def test_unusable_follow_up_wording_is_rejected(text: str) -> None:
    from interviewer.grading.llm.grader import clean_question

    with pytest.raises(GradingError):
        clean_question(text)
