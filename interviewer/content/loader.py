"""Load and validate case and rubric YAML files.

Every problem is reported as ``file:line: field: problem`` so that a person
editing a case can jump straight to the line.  YAML is composed into nodes
first (which keep their line marks) and then constructed, so a pydantic error
location such as ``phases.0.questions.2.prompt`` can be mapped back to the
line that holds it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from interviewer.content.schema import Case, FactSheet, Lexicon, Rubric

MAX_FILE_BYTES = 2_000_000
"""Larger files are refused: no real case needs more, and it keeps loading bounded."""

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Problem:
    """One validation problem, printable as ``file:line: field: problem``."""

    path: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class ContentError(Exception):
    """Raised when a file cannot be loaded; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML has it: about five times faster, which matters at start-up."""


class _UniqueKeyLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """A safe loader that refuses duplicate mapping keys instead of keeping the last one."""


def _construct_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "mapping keys must be plain values", key_node.start_mark
            ) from None
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        seen.add(key)
    mapping: dict[Any, Any] = loader.construct_mapping(node, deep=deep)
    return mapping


_UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
    _construct_mapping,
)


def _node_line(root: yaml.Node | None, loc: Sequence[int | str]) -> int:
    """Walk ``loc`` through the node tree and return the 1-based line of the deepest node reached."""
    node = root
    line = (root.start_mark.line + 1) if root is not None else 0
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            nxt = None
            for key_node, value_node in node.value:
                if str(getattr(key_node, "value", None)) == str(part):
                    nxt = value_node
                    line = key_node.start_mark.line + 1
                    break
            if nxt is None:
                return line
            node = nxt
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line


def _read_text(path: Path) -> str:
    name = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ContentError([Problem(name, 0, "", f"cannot read file: {exc.strerror or exc}")]) from None
    if size > MAX_FILE_BYTES:
        raise ContentError([Problem(name, 0, "", f"file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}")])
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError([Problem(name, 0, "", f"not UTF-8 text (byte {exc.start})")]) from None
    except OSError as exc:
        raise ContentError([Problem(name, 0, "", f"cannot read file: {exc.strerror or exc}")]) from None
    return text


def _read_yaml(path: Path, text: str | None = None) -> tuple[Any, yaml.Node | None]:
    """The constructed data and the node tree (for line numbers) of a YAML file."""
    name = str(path)
    if text is None:
        text = _read_text(path)
    try:
        loader = _UniqueKeyLoader(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        problem = exc.problem or exc.context or "invalid YAML"
        raise ContentError([Problem(name, line, "", f"YAML: {problem}")]) from None
    except yaml.YAMLError as exc:
        raise ContentError([Problem(name, 0, "", f"YAML: {exc}")]) from None
    except RecursionError:
        raise ContentError([Problem(name, 0, "", "YAML is nested too deeply")]) from None
    return data, node


_LOADED: dict[tuple[type[BaseModel], bytes], BaseModel] = {}
"""Validated models by (model, digest of the file's text).  Keyed by content, never by name or mtime, so a
changed file is always read again; an unchanged one (the built-in cases, loaded by every command and test)
is parsed and validated once per process.  The models are frozen, so sharing them is safe."""


def _validate(model: type[M], path: Path) -> M:
    text = _read_text(path)
    key = (model, hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest())
    cached = _LOADED.get(key)
    if cached is None:
        cached = _LOADED[key] = _validate_text(model, path, text)
    assert isinstance(cached, model)
    return cached


def _validate_text(model: type[M], path: Path, text: str) -> M:
    data, node = _read_yaml(path, text)
    name = str(path)
    if not isinstance(data, dict):
        raise ContentError([Problem(name, 1, "", "expected a mapping at the top of the file")])
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors(include_url=False):
            loc = [p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-"))]
            field_name = ".".join(str(p) for p in loc)
            message = err["msg"].removeprefix("Value error, ")
            problems.append(Problem(name, _node_line(node, loc), field_name, message))
        raise ContentError(problems) from None


def load_case(path: Path) -> Case:
    """Load one case or bank file; raises ``ContentError``."""
    return _validate(Case, path)


def case_reference_problems(path: Path, rubric_ids: Collection[str], builtin: Mapping[str, Path]) -> list[Problem]:
    """Problems with what a case file refers to: an unknown rubric, or an id a built-in case already has.

    Read from the raw YAML, not the validated model, so that ``validate`` reports them in the same pass
    as the schema errors instead of only after those are fixed.  A file that is not YAML has none.
    """
    try:
        data, node = _read_yaml(path)
    except ContentError:
        return []
    if not isinstance(data, dict):
        return []
    name, problems = str(path), []
    rubric = data.get("rubric")
    if isinstance(rubric, str) and rubric.strip() not in rubric_ids:
        known = ", ".join(sorted(rubric_ids)) or "none"
        message = f"unknown rubric {rubric!r} (known: {known})"
        problems.append(Problem(name, _node_line(node, ["rubric"]), "rubric", message))
    case_id = data.get("id")
    source = builtin.get(case_id) if isinstance(case_id, str) else None
    if source is not None and source.resolve() != path.resolve():
        message = f"case id {case_id!r} clashes with a built-in case"
        problems.append(Problem(name, _node_line(node, ["id"]), "id", message))
    return problems


def load_rubric(path: Path) -> Rubric:
    """Load one rubric file; raises ``ContentError``."""
    return _validate(Rubric, path)


def load_facts(path: Path) -> FactSheet:
    """Load the shared fact sheet; raises ``ContentError``."""
    return _validate(FactSheet, path)


def load_lexicon(path: Path) -> Lexicon:
    """Load the shared domain lexicon; raises ``ContentError``."""
    return _validate(Lexicon, path)


SHARED_KINDS = ("facts", "lexicon")
"""Top-level ``kind`` values of the shared content files that sit beside the cases."""


def shared_kind(path: Path) -> str | None:
    """``facts`` or ``lexicon`` for the shared files that live in ``cases/`` but are not cases; else None."""
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:20_000]
    except OSError:
        return None
    for line in head.splitlines():
        if line.startswith("kind:"):
            kind = line.removeprefix("kind:").strip().strip("'\"")
            return kind if kind in SHARED_KINDS else None
    return None


def is_shared_file(path: Path) -> bool:
    return shared_kind(path) is not None


def yaml_files(paths: Iterable[Path]) -> list[Path]:
    """Expand directories into their ``*.yaml``/``*.yml`` files, sorted."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix in (".yaml", ".yml") and q.is_file()))
        else:
            out.append(p)
    return out


def is_rubric_file(path: Path) -> bool:
    """A file is treated as a rubric when it sits in a ``rubrics`` folder or declares ``dimensions`` at the top."""
    if path.parent.name == "rubrics":
        return True
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:20_000]
    except OSError:
        return False
    return any(line.startswith("dimensions:") for line in head.splitlines())


@dataclass
class Library:
    """Every loaded case and rubric, plus the problems found while loading them."""

    cases: dict[str, Case] = field(default_factory=dict)
    rubrics: dict[str, Rubric] = field(default_factory=dict)
    sources: dict[str, Path] = field(default_factory=dict)
    builtin_ids: set[str] = field(default_factory=set)
    problems: list[Problem] = field(default_factory=list)

    def case(self, case_id: str) -> Case:
        try:
            return self.cases[case_id]
        except KeyError:
            raise KeyError(case_id) from None

    def rubric_for(self, case: Case) -> Rubric:
        return self.rubrics[case.rubric]

    def unknown_case(self, case_id: str) -> str | None:
        """None when ``case_id`` is loaded; otherwise the one line that says so and lists the known ids."""
        if case_id in self.cases:
            return None
        known = ", ".join(sorted(self.cases)) or "none (check --cases-dir)"
        broken = ""
        if self.problems:
            broken = f" ({len(self.problems)} problems loading content; see 'interviewer validate')"
        return f"unknown case {case_id!r}; available: {known}{broken}"


def load_library(case_dirs: Sequence[Path], rubric_dirs: Sequence[Path], *, builtin_count: int = 1) -> Library:
    """Load rubrics and cases.  The first ``builtin_count`` case dirs are the built-in ones.

    A user case whose id clashes with a built-in one is reported and skipped,
    never silently shadowing it.  A case whose rubric is unknown is reported
    and skipped.
    """
    lib = Library()
    for rdir in rubric_dirs:
        for path in yaml_files([rdir]) if rdir.is_dir() else []:
            try:
                rubric = load_rubric(path)
            except ContentError as exc:
                lib.problems.extend(exc.problems)
                continue
            if rubric.id in lib.rubrics:
                lib.problems.append(Problem(str(path), 1, "id", f"rubric id {rubric.id!r} is already defined"))
                continue
            lib.rubrics[rubric.id] = rubric
    for index, cdir in enumerate(case_dirs):
        builtin = index < builtin_count
        if not cdir.is_dir():
            if not builtin:
                why = "is not a folder" if cdir.exists() else "does not exist"
                lib.problems.append(Problem(str(cdir), 0, "", f"cases dir {why}"))
            continue
        for path in yaml_files([cdir]):
            if is_rubric_file(path) or is_shared_file(path):
                continue
            try:
                case = load_case(path)
            except ContentError as exc:
                lib.problems.extend(exc.problems)
                continue
            if case.id in lib.cases:
                clash = "a built-in case" if case.id in lib.builtin_ids else f"{lib.sources[case.id]}"
                lib.problems.append(Problem(str(path), 1, "id", f"case id {case.id!r} clashes with {clash}; skipped"))
                continue
            if case.rubric not in lib.rubrics:
                lib.problems.append(Problem(str(path), 1, "rubric", f"unknown rubric {case.rubric!r}"))
                continue
            lib.cases[case.id] = case
            lib.sources[case.id] = path
            if builtin:
                lib.builtin_ids.add(case.id)
    return lib
