"""Case and rubric loading: good files load, bad ones give file:line: field: problem."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interviewer.content.loader import ContentError, load_case, load_library, load_rubric
from tests.conftest import FIXTURES, REPO

MINI = (FIXTURES / "cases" / "mini.yaml").read_text()


def _write(tmp_path: Path, text: str, name: str = "case.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_fixture_case_loads() -> None:
    case = load_case(FIXTURES / "cases" / "mini.yaml")
    assert case.id == "mini"
    assert [p.id for p in case.phases] == ["warmup", "main"]
    assert case.minutes == 5
    assert case.question("kv-size") is not None


def test_builtin_rubric_has_all_levels() -> None:
    rubric = load_rubric(REPO / "rubrics" / "ai-infra.yaml")
    for dim in rubric.dimensions.values():
        assert sorted(dim.levels) == [0, 1, 2, 3, 4]


def test_missing_field_reports_line(tmp_path: Path) -> None:
    text = MINI.replace("        prompt: How long does a ring", "        promptx: How long does a ring")
    path = _write(tmp_path, text)
    with pytest.raises(ContentError) as err:
        load_case(path)
    lines = [str(p) for p in err.value.problems]
    line_no = next(i for i, line in enumerate(text.splitlines(), 1) if "promptx" in line)
    assert f"{path}:{line_no}: phases.1.questions.0.promptx: Extra inputs are not permitted" in lines
    assert any("phases.1.questions.0.prompt: Field required" in line for line in lines)


def test_wrong_type_points_at_value_line(tmp_path: Path) -> None:
    text = MINI.replace("    minutes: 3\n", "    minutes: soon\n")
    path = _write(tmp_path, text)
    with pytest.raises(ContentError) as err:
        load_case(path)
    line_no = next(i for i, line in enumerate(text.splitlines(), 1) if "minutes: soon" in line)
    assert str(err.value.problems[0]).startswith(f"{path}:{line_no}: phases.1.minutes:")


def test_yaml_syntax_error_has_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "id: x\ntitle: [unclosed\nkind: case\n")
    with pytest.raises(ContentError) as err:
        load_case(path)
    assert str(err.value).startswith(f"{path}:")
    assert "YAML" in str(err.value)


def test_duplicate_key_is_an_error(tmp_path: Path) -> None:
    path = _write(tmp_path, MINI.replace("title: Mini case for tests", "title: Mini case for tests\ntitle: again"))
    with pytest.raises(ContentError, match="duplicate key 'title'"):
        load_case(path)


def test_duplicate_question_ids(tmp_path: Path) -> None:
    path = _write(tmp_path, MINI.replace("id: allreduce", "id: kv-size"))
    with pytest.raises(ContentError, match="question id 'kv-size' is used twice"):
        load_case(path)


def test_rubric_missing_level(tmp_path: Path) -> None:
    text = (
        (REPO / "rubrics" / "ai-infra.yaml")
        .read_text()
        .replace("      4: Correct and precise", "      5: Correct and precise", 1)
    )
    path = _write(tmp_path, text, "rubric.yaml")
    with pytest.raises(ContentError, match=r"dimensions\.mechanism\.levels: needs exactly the levels"):
        load_rubric(path)


def test_not_a_mapping_binary_and_missing(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match="expected a mapping"):
        load_case(_write(tmp_path, "- just\n- a list\n"))
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ContentError, match="not UTF-8"):
        load_case(binary)
    with pytest.raises(ContentError, match="cannot read file"):
        load_case(tmp_path / "nope.yaml")


def test_user_case_clashing_with_builtin_is_reported(tmp_path: Path) -> None:
    builtin = tmp_path / "builtin"
    user = tmp_path / "user"
    builtin.mkdir()
    user.mkdir()
    (builtin / "mini.yaml").write_text(MINI)
    (user / "mine.yaml").write_text(MINI.replace("title: Mini case for tests", "title: Impostor"))
    lib = load_library([builtin, user], [REPO / "rubrics"])
    assert lib.cases["mini"].title == "Mini case for tests"
    assert any("clashes with a built-in case" in str(p) for p in lib.problems)


def test_unknown_rubric_is_reported(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(MINI.replace("rubric: ai-infra", "rubric: nope"))
    lib = load_library([tmp_path], [REPO / "rubrics"])
    assert "mini" not in lib.cases
    assert any("unknown rubric 'nope'" in str(p) for p in lib.problems)


yaml_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=30))
yaml_values = st.recursive(
    yaml_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=400))
def test_arbitrary_text_never_crashes(tmp_path: Path, text: str) -> None:
    path = tmp_path / "fuzz.yaml"
    path.write_bytes(text.encode("utf-8", errors="replace"))
    try:
        load_case(path)
    except ContentError as exc:
        assert exc.problems and all(str(p).startswith(str(path)) for p in exc.problems)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.dictionaries(st.sampled_from(["id", "title", "kind", "scenario", "rubric", "phases", "x"]), yaml_values))
def test_arbitrary_structures_never_crash(tmp_path: Path, data: dict) -> None:
    import yaml

    path = tmp_path / "fuzz.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    try:
        load_case(path)
    except ContentError as exc:
        assert all(str(p).startswith(str(path)) for p in exc.problems)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(min_value=0, max_value=len(MINI)))
def test_truncated_case_files_never_crash(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "cut.yaml"
    path.write_text(MINI[:cut], encoding="utf-8")
    try:
        load_case(path)
    except ContentError as exc:
        assert exc.problems


@pytest.mark.parametrize("unit", ["furlongs", "furlongs/s", "GB/s/GPU", "widgets"])
def test_unknown_unit_is_an_error_listing_the_known_units(tmp_path: Path, unit: str) -> None:
    first = MINI.index("unit: ")
    line = MINI[:first].count("\n") + 1
    end = MINI.index("\n", first)
    path = _write(tmp_path, MINI[:first] + f"unit: {unit}" + MINI[end:])
    with pytest.raises(ContentError) as err:
        load_case(path)
    [problem] = err.value.problems
    assert problem.line == line
    assert problem.field.endswith(".unit")
    assert f"unknown unit {unit!r}" in problem.message
    for known in ("GB/s", "ms", "tokens/s", "%", "GPUs", "SMs", "layers"):
        assert known.lower() in problem.message.lower(), known


@pytest.mark.parametrize("unit", ["GPUs", "SMs", "layers", "GB/s", "tokens per second", "inferences/s", "x"])
def test_known_units_and_count_nouns_are_accepted(tmp_path: Path, unit: str) -> None:
    first = MINI.index("unit: ")
    end = MINI.index("\n", first)
    load_case(_write(tmp_path, MINI[:first] + f"unit: {unit}" + MINI[end:]))


def test_schema_and_reference_problems_are_reported_in_one_pass(tmp_path: Path) -> None:
    from interviewer.content.loader import case_reference_problems

    text = MINI.replace("kind: case", "kind: quiz").replace("rubric: ai-infra", "rubric: no-such-rubric")
    path = _write(tmp_path, text)
    with pytest.raises(ContentError) as err:
        load_case(path)
    assert [p.field for p in err.value.problems] == ["kind"]
    refs = case_reference_problems(path, {"ai-infra"}, {})
    assert [(p.line, p.field) for p in refs] == [(5, "rubric")]
    assert "unknown rubric 'no-such-rubric' (known: ai-infra)" in refs[0].message


def test_a_builtin_file_does_not_clash_with_itself(tmp_path: Path) -> None:
    from interviewer.content.loader import case_reference_problems

    builtin = {"mini": FIXTURES / "cases" / "mini.yaml"}
    assert case_reference_problems(FIXTURES / "cases" / "mini.yaml", {"ai-infra"}, builtin) == []
    copy = _write(tmp_path, MINI)
    [clash] = case_reference_problems(copy, {"ai-infra"}, builtin)
    assert (clash.line, clash.field) == (1, "id")


def test_an_unchanged_file_is_validated_once_and_a_changed_one_again(tmp_path: Path) -> None:
    path = _write(tmp_path, MINI)
    first = load_case(path)
    assert load_case(path) is first, "the same text is not parsed and validated twice"
    path.write_text(MINI.replace("title: Mini case for tests", "title: Mini case, edited"), encoding="utf-8")
    assert load_case(path).title == "Mini case, edited"
