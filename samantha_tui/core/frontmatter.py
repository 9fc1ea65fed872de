"""Frontmatter: read with a real YAML parser, write with the one minimal-diff writer.

The writer edits text, not data: it finds the lines of the keys being changed (from the YAML
composer's marks) and replaces only those, so key order, comments, quoting, CRLF, a BOM and the body
keep every byte. Values are written in the subset samantha-llm's naive reader understands.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from .fastyaml import try_parse

BOM = "\ufeff"
_DELIMITER = re.compile(r"---[ \t]*\r?\n?\Z")
_CLOSERS = ("---", "...")
_DATE_TOKEN = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_KEEP_CHOMPING = re.compile(r":\s+[|>][1-9]?\+")
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class FrontmatterError(ValueError):
    """The frontmatter cannot be read or edited as asked; the message says why."""


@dataclass(frozen=True)
class Parsed:
    """A file split into frontmatter and body, with what went wrong reading it."""

    mapping: dict[str, Any] | None
    body: str
    errors: tuple[tuple[int | None, str], ...] = field(default_factory=tuple)
    """(file line or None, message) for each reason the frontmatter could not be used."""


@dataclass(frozen=True)
class _Block:
    """Where the frontmatter sits in a list of lines (each keeping its line ending)."""

    lines: list[str]
    open_index: int
    close_index: int
    newline: str

    @property
    def yaml_lines(self) -> list[str]:
        return self.lines[self.open_index + 1 : self.close_index]

    @property
    def yaml_text(self) -> str:
        return "".join(self.yaml_lines)


def split_lines(text: str) -> list[str]:
    """Split on `\\n` only, keeping endings: characters Python also treats as breaks stay put."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _find_block(text: str) -> _Block | None:
    lines = split_lines(text)
    if not lines:
        return None
    first = lines[0][1:] if lines[0].startswith(BOM) else lines[0]
    if not _DELIMITER.match(first) or not first.endswith("\n"):
        return None
    newline = "\r\n" if first.endswith("\r\n") else "\n"
    for index in range(1, len(lines)):
        if lines[index].rstrip(" \t\r\n") in _CLOSERS and not lines[index][:1].isspace():
            return _Block(lines, 0, index, newline)
    raise FrontmatterError("frontmatter is never closed: add a line `---` after the last field")


def _yaml_error_line(error: yaml.YAMLError) -> int | None:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    return None if mark is None else mark.line + 2


def _describe_yaml_error(error: yaml.YAMLError) -> str:
    problem = getattr(error, "problem", None)
    context = getattr(error, "context", None)
    parts = [part for part in (context, problem) if part]
    detail = ", ".join(parts) if parts else str(error).splitlines()[0]
    return f"invalid YAML in frontmatter: {detail}"


def _bad_date_line(yaml_lines: list[str]) -> tuple[int | None, str]:
    for offset, line in enumerate(yaml_lines):
        for match in _DATE_TOKEN.finditer(line):
            year, month, day = (int(part) for part in match.groups())
            try:
                dt.date(year, month, day)
            except ValueError as error:
                return (
                    offset + 2,
                    f"impossible date {match.group(0)} ({error}); expected YYYY-MM-DD",
                )
    return None, "a value could not be read as a date; expected YYYY-MM-DD"


def load_yaml(text: str) -> Any:
    """Parse YAML with the safe loader only (never constructs Python objects)."""
    return yaml.load(text, Loader=_SAFE_LOADER)


def parse(text: str) -> Parsed:
    """Split text into frontmatter mapping and body; never raises for bad input."""
    try:
        block = _find_block(text)
    except FrontmatterError as error:
        return Parsed(None, text, errors=((1, str(error)),))
    if block is None:
        return Parsed(None, text.removeprefix(BOM), errors=((1, _NO_FRONTMATTER),))
    body = "".join(block.lines[block.close_index + 1 :])
    base = {"body": body}
    try:
        data = try_parse(block.yaml_text)
        if data is None:
            data = load_yaml(block.yaml_text)
    except yaml.YAMLError as error:
        return Parsed(
            None, errors=((_yaml_error_line(error), _describe_yaml_error(error)),), **base
        )
    except ValueError:
        return Parsed(None, errors=(_bad_date_line(block.yaml_lines),), **base)
    except RecursionError:
        return Parsed(None, errors=((2, "frontmatter is nested too deeply to read"),), **base)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        shape = "a list" if isinstance(data, list) else f"a single {type(data).__name__} value"
        message = f"frontmatter is {shape}; expected `key: value` lines"
        return Parsed(None, errors=((2, message),), **base)
    bad_keys = [key for key in data if not isinstance(key, str)]
    if bad_keys:
        message = f"frontmatter key {bad_keys[0]!r} is not text; expected `name: value`"
        return Parsed(None, errors=((2, message),), **base)
    return Parsed(data, **base)


_NO_FRONTMATTER = "no frontmatter: the file must start with a `---` line, then `key: value` lines"


# --- writing -------------------------------------------------------------------------------------


def _is_plain_safe(text: str, in_flow: bool) -> bool:
    if not text or text != text.strip() or any(ch in text for ch in "\n\r\t\x85\u2028\u2029"):
        return False
    if any(not ch.isprintable() for ch in text):
        return False
    probe = f"k: [{text}]" if in_flow else f"k: {text}"
    try:
        loaded = load_yaml(probe)
    except (yaml.YAMLError, ValueError):
        return False
    expected = [text] if in_flow else text
    return isinstance(loaded, dict) and loaded.get("k") == expected


def _quote(text: str) -> str:
    if any(not ch.isprintable() for ch in text):
        return json.dumps(text, ensure_ascii=True)
    return "'" + text.replace("'", "''") + "'"


def render_scalar(value: Any, in_flow: bool = False) -> str:
    """One value in the naive reader's subset: bare dates, booleans and numbers, plain strings."""
    if value is None:
        return "null" if in_flow else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        return value if _is_plain_safe(value, in_flow) else _quote(value)
    raise FrontmatterError(f"cannot write a value of type {type(value).__name__}")


def _is_flat_list(value: Any) -> bool:
    return isinstance(value, list) and not any(isinstance(v, list | dict) for v in value)


def _render_block(value: Any, indent: str) -> list[str]:
    """A nested value as block YAML lines, flat lists kept in the flow style people write."""
    lines: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            lines.extend(_render_entry(indent + render_scalar(str(key)), item, indent))
        return lines
    for item in value:
        if isinstance(item, dict) and item:
            first, *rest = _render_block(item, indent + "  ")
            lines.append(indent + "- " + first.removeprefix(indent + "  "))
            lines.extend(rest)
        else:
            lines.extend(_render_entry(indent + "-", item, indent, separator=" "))
    return lines


def _is_block(value: Any) -> bool:
    """Nested values need block lines; scalars and flat lists fit on one line."""
    return (isinstance(value, dict) and bool(value)) or (
        isinstance(value, list) and not _is_flat_list(value)
    )


def _render_entry(head: str, value: Any, indent: str, separator: str = ": ") -> list[str]:
    if _is_block(value):
        return [
            head.rstrip() + ("" if separator == " " else ":"),
            *_render_block(value, indent + "  "),
        ]
    if isinstance(value, dict):
        rendered = "{}"
    elif isinstance(value, list):
        rendered = "[" + ", ".join(render_scalar(v, in_flow=True) for v in value) + "]"
    else:
        rendered = render_scalar(value, in_flow=separator == " ")
    return [f"{head}{separator}{rendered}".rstrip(" ")]


def render_field(
    key: str, value: Any, newline: str = "\n", key_text: str | None = None
) -> list[str]:
    """The lines for one top-level key: one line for scalars and flat lists, a block otherwise."""
    name = key_text if key_text is not None else render_scalar(key)
    return [line + newline for line in _render_entry(name, value, "")]


def _key_spans(block: _Block) -> dict[str, list[tuple[int, int, str]]]:
    """Each top-level key -> [(first line, last line, key text)] as indexes into block.lines."""
    try:
        node = yaml.compose(block.yaml_text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, ValueError) as error:
        raise FrontmatterError(
            f"cannot edit: the frontmatter is not valid YAML ({error})"
        ) from None
    if node is None:
        return {}
    if not isinstance(node, yaml.MappingNode):
        raise FrontmatterError("cannot edit: the frontmatter is not a set of `key: value` lines")
    if node.flow_style:
        raise FrontmatterError(
            "cannot edit: the frontmatter is one `{...}` mapping; edit it by hand"
        )
    yaml_lines = block.yaml_lines
    base = block.open_index + 1
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for key_node, value_node in node.value:
        first = key_node.start_mark.line
        end = value_node.end_mark
        last = end.line - 1 if end.column == 0 and end.line > first else end.line
        last = min(last, len(yaml_lines) - 1)
        # Comments at the margin and blank lines after a value belong to no key: leave them. A
        # block scalar with `+` chomping keeps its trailing blank lines as text, and an indented
        # `#` line inside any block scalar is text, not a comment.
        keeps_blanks = bool(_KEEP_CHOMPING.search(yaml_lines[first]))
        while last > first and (
            yaml_lines[last].startswith("#") or (not yaml_lines[last].strip() and not keeps_blanks)
        ):
            last -= 1
        line = yaml_lines[first]
        key_text = line[key_node.start_mark.column : key_node.end_mark.column]
        spans.setdefault(str(key_node.value), []).append((base + first, base + last, key_text))
    lines_used = [span[0] for entries in spans.values() for span in entries]
    if len(lines_used) != len(set(lines_used)):
        raise FrontmatterError("cannot edit: several keys share one line; edit this file by hand")
    return spans


def edit(text: str, set_values: Mapping[str, Any] | None = None, unset: Iterable[str] = ()) -> str:
    """Return text with keys set or removed, every other byte unchanged.

    Raises FrontmatterError when the file has no usable frontmatter, a key to change appears twice,
    or the result would not read back as exactly the intended mapping.
    """
    set_values = dict(set_values or {})
    unset = [key for key in unset if key not in set_values]
    parsed = parse(text)
    if parsed.mapping is None:
        reason = parsed.errors[0][1] if parsed.errors else "no frontmatter"
        raise FrontmatterError(f"cannot edit: {reason}")
    block = _find_block(text)
    assert block is not None  # parse() succeeded, so there is a block
    spans = _key_spans(block)
    for key in [*set_values, *unset]:
        if len(spans.get(key, ())) > 1:
            raise FrontmatterError(
                f"cannot edit: key `{key}` appears more than once; fix it by hand"
            )

    replacements: dict[int, tuple[int, list[str]]] = {}
    appended: list[str] = []
    for key, value in set_values.items():
        if key in spans:
            first, last, key_text = spans[key][0]
            replacements[first] = (last, render_field(key, value, block.newline, key_text))
        else:
            appended.extend(render_field(key, value, block.newline))
    for key in unset:
        if key in spans:
            first, last, _ = spans[key][0]
            replacements[first] = (last, [])

    out: list[str] = []
    index = 0
    lines = block.lines
    while index < len(lines):
        if index == block.close_index:
            out.extend(appended)
        if index in replacements:
            last, new_lines = replacements[index]
            out.extend(new_lines)
            index = last + 1
            continue
        out.append(lines[index])
        index += 1
    result = "".join(out)

    expected = {k: v for k, v in parsed.mapping.items() if k not in unset}
    expected.update(set_values)
    check = parse(result)
    if check.mapping != expected or check.body != parsed.body:
        raise FrontmatterError("refused: the edited frontmatter would not read back as intended")
    return result


def render_new(mapping: Mapping[str, Any], body: str, newline: str = "\n") -> str:
    """A new file: `---`, one line per key in the given order, `---`, then the body."""
    lines = ["---" + newline]
    for key, value in mapping.items():
        lines.extend(render_field(key, value, newline))
    lines.append("---" + newline)
    text = "".join(lines) + body
    if parse(text).mapping != dict(mapping):
        raise FrontmatterError("refused: the new frontmatter would not read back as intended")
    return text
