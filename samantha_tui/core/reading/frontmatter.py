"""Frontmatter: read with a real YAML parser, write with the one minimal-diff writer.

Values mean what they mean to samantha-llm (see yaml_loader); a frontmatter strict YAML refuses
is read field by field the way samantha-llm reads it (see naive_frontmatter), with a warning.

The writer edits text, not data: it finds the lines of the keys being changed (from the YAML
composer's marks) and replaces only those, so key order, comments, quoting, CRLF, a BOM and the body
keep every byte. Values are written in the subset samantha-llm's naive reader understands.
"""

from __future__ import annotations

import bisect
import datetime as dt
import math
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..basics.wording import quoted, written
from . import naive_frontmatter, name_fields, yaml_loader
from .fastyaml import try_parse

BOM = "\ufeff"
_DELIMITER = re.compile(r"---[ \t]*\r?\n?\Z")
_CLOSERS = ("---", "...")
_DATE_TOKEN = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_KEEP_CHOMPING = re.compile(r":\s+[|>][1-9]?\+")
_SAFE_LOADER = yaml_loader.LOADER


class FrontmatterError(ValueError):
    """The frontmatter cannot be read or edited as asked; the message says why."""


class UnreadableValue(FrontmatterError):
    """A value the reader refuses to build; `line` is its line in the file, when known."""

    def __init__(
        self, message: str, line: int | None = None, fall_back_reason: str | None = None
    ) -> None:
        super().__init__(message)
        self.line = line
        self.fall_back_reason = fall_back_reason
        """Set when samantha-llm reads the text anyway (a `!tag` is just text to it): why strict
        YAML does not, in a few words."""


@dataclass(frozen=True)
class Parsed:
    """A file split into frontmatter and body, with what went wrong reading it."""

    mapping: dict[str, Any] | None
    body: str
    errors: tuple[tuple[int | None, str], ...] = field(default_factory=tuple)
    """(file line or None, message) for each reason the frontmatter could not be used; with a
    mapping, for each fault it was read in spite of (a key written twice: the last one counts)."""
    warnings: tuple[tuple[int | None, str], ...] = field(default_factory=tuple)
    """(file line, message) for each field strict YAML refused and samantha-llm reads anyway."""
    naive_lines: tuple[int, ...] = ()
    """File lines of the fields read as samantha-llm reads them: no edit may rewrite them."""
    refused: Mapping[str, int] = field(default_factory=dict)
    """Key of each field read as samantha-llm reads it -> the file line strict YAML refused."""


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


_NEVER_CLOSED = "frontmatter is never closed: add a line `---` after the last field"


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
    raise FrontmatterError(_NEVER_CLOSED)


def _yaml_error_line(error: yaml.YAMLError, yaml_text: str) -> int | None:
    # From the character index, not mark.line: YAML also counts NEL, LS, PS and a lone CR as
    # line breaks, the file's lines are split on `\n` only.
    if isinstance(error, yaml.reader.ReaderError):  # a forbidden character: no mark, a position
        return yaml_text.count("\n", 0, error.position) + 2
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    return None if mark is None else yaml_text.count("\n", 0, mark.index) + 2


def _describe_yaml_error(error: yaml.YAMLError) -> str:
    problem = getattr(error, "problem", None)
    context = getattr(error, "context", None)
    parts = [part for part in (context, problem) if part]
    detail = ", ".join(parts) if parts else str(error).splitlines()[0]
    return f"invalid YAML in frontmatter: {detail}"


def _yaml_reason(error: yaml.YAMLError) -> str:
    """The words of a YAML error without its marks: `did not find expected ',' or ']'`."""
    problem = getattr(error, "problem", None)
    return str(problem) if problem else str(error).splitlines()[0]


def _bad_value_line(yaml_lines: list[str], error: ValueError) -> tuple[int | None, str]:
    """Where and why the constructor refused a value: an impossible date, a huge number, or else
    what it said."""
    for offset, line in enumerate(yaml_lines):
        for match in _DATE_TOKEN.finditer(line):
            year, month, day = (int(part) for part in match.groups())
            try:
                dt.date(year, month, day)
            except ValueError as bad_date:
                return (
                    offset + 2,
                    f"impossible date {match.group(0)} ({bad_date}); expected YYYY-MM-DD",
                )
    digits = sys.get_int_max_str_digits()
    if digits:
        too_long = re.compile(rf"\d{{{digits + 1}}}")
        for offset, line in enumerate(yaml_lines):
            if too_long.search(line):
                return (
                    offset + 2,
                    f"a number of more than {digits} digits cannot be read; quote it to keep it "
                    "as text",
                )
    return None, f"a value could not be read ({error}); check its dates and numbers"


def load_yaml(text: str) -> Any:
    """Parse YAML with the safe loader only (never constructs Python objects).

    Raises yaml.YAMLError for bad syntax, UnreadableValue for shapes that would hurt whoever uses
    the result later (see _check_shape) and ValueError for other values that cannot be built.
    """
    return _load(text)[0]


def load_value(text: str, key: str | None = None) -> Any:
    """A value a person typed for `key`, read as the file would read it: samantha-llm's integers
    (`20261128_140000` is text), each item of a text list such as `topics` as text, and a name
    field's word as its text (`domain=yes` is `yes`, never a bool: see name_fields)."""
    value = _load(text, as_text_list=key in yaml_loader.TEXT_LISTS)[0]
    if key in yaml_loader.TEXT_SCALARS and not isinstance(value, list | dict) and "\n" not in text:
        value = name_fields.as_samantha_llm_reads({key: value}, f"{key}: {text.strip()}")[key]
    return value


def _load(text: str, as_text_list: bool = False) -> tuple[Any, tuple[tuple[int | None, str], ...]]:
    """load_yaml's value, and (line, message) for each top-level key written more than once.

    `as_text_list`: the document is one value of a text list (its items are text)."""
    loader = _SAFE_LOADER(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, ()
        if _may_break_shape(text):
            _check_shape(node)
        try:
            if as_text_list:
                node = yaml_loader.text_items(node)
            else:
                yaml_loader.apply_text_lists(node)
        except yaml_loader.NotText as error:
            raise UnreadableValue(str(error), error.line + 2, str(error)) from None
        try:
            return loader.construct_document(node), _repeated_keys(node)
        except (LookupError, TypeError, AttributeError, ArithmeticError) as error:
            # Only an explicit tag (`!!bool maybe`, `!!timestamp soon`) hands a constructor text
            # its resolver did not vouch for; PyYAML then fails with whatever it hits.
            raise UnreadableValue(
                f"a value does not fit its `!!` tag ({type(error).__name__}: {error}); "
                "remove the tag"
            ) from None
    finally:
        loader.dispose()


MAX_DEPTH = 32
"""Deepest nesting read (runbook triggers need 5): deeper data breaks whoever walks it later."""
ALIAS_BUDGET = 100_000
"""How much more than their own text the values may grow through `*aliases` (nodes plus
characters): a billion-laughs document of a few hundred bytes would otherwise stand for gigabytes
that printing, JSON export or comparing would build."""
_CORE_TAG = "tag:yaml.org,2002:"
# What plain YAML resolves to (`<<` and `=` included: the constructor judges those). Any other tag
# builds something samantha-llm and the writer do not know (bytes, sets, pair lists, objects).
_PLAIN_TAGS = frozenset(
    _CORE_TAG + name
    for name in ("null", "bool", "int", "float", "timestamp", "str", "seq", "map", "merge", "value")
)


def _repeated_keys(node: yaml.Node) -> tuple[tuple[int | None, str], ...]:
    if not isinstance(node, yaml.MappingNode):
        return ()
    first: dict[tuple[str, str], int] = {}
    found: list[tuple[int | None, str]] = []
    for key, _ in node.value:
        if not isinstance(key, yaml.ScalarNode):
            continue
        line = key.start_mark.line + 2
        if (key.tag, key.value) in first:
            message = (
                f"key `{key.value}` appears more than once (first on line "
                f"{first[key.tag, key.value]}); the last one counts: remove the others"
            )
            found.append((line, message))
        else:
            first[key.tag, key.value] = line
    return tuple(found)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return node.value
    return []


def _own_weight(node: yaml.Node) -> int:
    return 1 + (len(node.value) if isinstance(node, yaml.ScalarNode) else 0)


def _may_break_shape(text: str) -> bool:
    """Whether _check_shape can find anything: only aliases and tags need `*` or `!`, and each
    level of nesting starts with its own `:`, `-`, `?`, `[` or `{` (most files have too few)."""
    return "*" in text or "!" in text or sum(map(text.count, ":-?[{")) >= MAX_DEPTH


def _check_shape(root: yaml.Node) -> None:
    """Refuse a node graph that refers to itself, nests deeper than MAX_DEPTH, grows beyond
    ALIAS_BUDGET through aliases, or holds a tag other than YAML's plain scalars and collections.

    Aliases share nodes, so each node is measured once (iteratively: no recursion to exhaust).
    """
    weight: dict[int, int] = {}
    depth: dict[int, int] = {}
    started: set[int] = set()
    distinct = 0
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            kids = _children(node)
            weight[key] = _own_weight(node) + sum(weight[id(kid)] for kid in kids)
            depth[key] = 1 + max((depth[id(kid)] for kid in kids), default=0)
            distinct += _own_weight(node)
            if depth[key] > MAX_DEPTH:
                raise UnreadableValue(
                    f"frontmatter is nested more than {MAX_DEPTH} levels deep; flatten it",
                    node.start_mark.line + 2,
                )
            continue
        if key in weight:
            continue
        if key in started:
            raise UnreadableValue(
                "an alias (`*name`) refers to the value that holds it; write the value out",
                node.start_mark.line + 2,
            )
        if node.tag not in _PLAIN_TAGS:
            tag = node.tag.replace(_CORE_TAG, "!!", 1)
            raise UnreadableValue(
                f"a value is tagged `{tag}`, which samantha-llm cannot read; remove the tag and "
                "write a plain value",
                node.start_mark.line + 2,
                # A local `!word` is what a topic opening with `!` becomes; YAML's own `!!` tags
                # (python objects, binary, sets) are never text someone meant.
                fall_back_reason=f"YAML reads `{tag}` as a type tag" if tag[1:2] != "!" else None,
            )
        started.add(key)
        stack.append((node, True))
        stack.extend((kid, False) for kid in _children(node))
    if weight[id(root)] - distinct > ALIAS_BUDGET:
        raise UnreadableValue(
            f"aliases (`*name`) expand the frontmatter to {weight[id(root)]:,} values and "
            f"characters, over the {ALIAS_BUDGET:,} allowed; write the values out"
        )


# A closing line as _find_block judges one: `---` or `...` at column 0, then only spaces, tabs, CRs.
_CLOSER_LINE = re.compile(r"^(?:---|\.\.\.)[ \t\r]*$", re.MULTILINE)


def _split(text: str) -> tuple[str, str] | None:
    """(YAML text, body): the split _find_block makes, without a list of every line of the body.

    Reading runs this on every file of a scan; the writer needs the lines and uses _find_block.
    """
    start = 1 if text.startswith(BOM) else 0
    first_end = text.find("\n", start) + 1
    if first_end == 0 or not _DELIMITER.match(text, start, first_end):
        return None
    closer = _CLOSER_LINE.search(text, first_end)
    if closer is None:
        raise FrontmatterError(_NEVER_CLOSED)
    return text[first_end : closer.start()], text[closer.end() + 1 :]


def parse(text: str) -> Parsed:
    """Split text into frontmatter mapping and body; never raises for bad input."""
    try:
        split = _split(text)
    except FrontmatterError as error:
        return Parsed(None, text, errors=((1, str(error)),))
    if split is None:
        return Parsed(None, text.removeprefix(BOM), errors=((1, _NO_FRONTMATTER),))
    yaml_text, body = split
    repeated: tuple[tuple[int | None, str], ...] = ()
    try:
        data = try_parse(yaml_text)
        if data is None:
            data, repeated = _load(yaml_text)
    except yaml.YAMLError as error:
        refused = Parsed(
            None,
            errors=((_yaml_error_line(error, yaml_text), _describe_yaml_error(error)),),
            body=body,
        )
        return _as_samantha_llm_reads(yaml_text, body) or refused
    except UnreadableValue as error:
        refused = Parsed(None, errors=((error.line, str(error)),), body=body)
        return (error.fall_back_reason and _as_samantha_llm_reads(yaml_text, body)) or refused
    except ValueError as error:
        return Parsed(None, errors=(_bad_value_line(split_lines(yaml_text), error),), body=body)
    except RecursionError:
        return Parsed(None, errors=((2, "frontmatter is nested too deeply to read"),), body=body)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        shape = "a list" if isinstance(data, list) else f"a single value ({written(data)})"
        message = f"frontmatter is {shape}; expected `key: value` lines"
        return Parsed(None, errors=((2, message),), body=body)
    bad_keys = [key for key in data if not isinstance(key, str)]
    if bad_keys:
        message = f"frontmatter key {quoted(bad_keys[0])} is not text; expected `name: value`"
        return Parsed(None, errors=((2, message),), body=body)
    return Parsed(name_fields.as_samantha_llm_reads(data, yaml_text), errors=repeated, body=body)


_NO_FRONTMATTER = "no frontmatter: the file must start with a `---` line, then `key: value` lines"


def _load_field(text: str) -> Any:
    """One top-level field read strictly; every refusal as naive_frontmatter.Refused."""
    try:
        return _load(text)[0]
    except yaml.YAMLError as error:
        line = _yaml_error_line(error, text)
        raise naive_frontmatter.Refused(
            _yaml_reason(error), None if line is None else line - 2
        ) from None
    except UnreadableValue as error:
        offset = None if error.line is None else error.line - 2
        reason = error.fall_back_reason or str(error).split(";")[0]
        raise naive_frontmatter.Refused(reason, offset) from None
    except ValueError as error:
        line, message = _bad_value_line(split_lines(text), error)
        offset = None if line is None else line - 2
        raise naive_frontmatter.Refused(message.split(";")[0], offset) from None
    except RecursionError:
        raise naive_frontmatter.Refused("nested too deeply") from None


def _as_samantha_llm_reads(yaml_text: str, body: str) -> Parsed | None:
    """A refused frontmatter read field by field as samantha-llm reads it; None when that finds
    no field at all (then the strict refusal says more)."""
    reading = naive_frontmatter.read(split_lines(yaml_text), _load_field)
    if not reading.mapping:
        return None
    return Parsed(
        name_fields.as_samantha_llm_reads(reading.mapping, yaml_text),
        body,
        warnings=tuple((offset + 2, message) for offset, message in reading.warnings),
        naive_lines=tuple(offset + 2 for offset in reading.refused_lines),
        refused={key: offset + 2 for key, offset in reading.refused.items()},
    )


# --- writing -------------------------------------------------------------------------------------


def _is_plain_safe(text: str, in_flow: bool, text_item: bool = False) -> bool:
    if not text or text != text.strip() or any(ch in text for ch in "\n\r\t\x85\u2028\u2029"):
        return False
    if any(not ch.isprintable() for ch in text):
        return False
    # An item of a text list (`topics`) is text however it is spelled: `[yes, 42]` stays bare.
    key = next(iter(yaml_loader.TEXT_LISTS)) if text_item else "k"
    probe = f"{key}: [{text}]" if in_flow else f"{key}: {text}"
    try:
        loaded = load_yaml(probe)
    except (yaml.YAMLError, ValueError):
        return False
    expected = [text] if in_flow else text
    return isinstance(loaded, dict) and loaded.get(key) == expected


def _quote(text: str) -> str:
    if any(not ch.isprintable() for ch in text):
        return '"' + "".join(map(_escape, text)) + '"'
    return "'" + text.replace("'", "''") + "'"


def _escape(char: str) -> str:
    """One character inside YAML double quotes. Not JSON's escapes: those spell an emoji as two
    surrogates, which libyaml refuses, so text holding a newline and an emoji could not be saved."""
    if char in '"\\':
        return "\\" + char
    if char.isprintable():
        return char
    code = ord(char)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def render_scalar(value: Any, in_flow: bool = False, text_item: bool = False) -> str:
    """One value in the naive reader's subset: bare dates, booleans and numbers, plain strings.

    `text_item`: an item of a text list such as `topics`, where every plain item reads as text.
    """
    if value is None:
        return "null" if in_flow else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        try:
            return str(value)
        except ValueError:  # more digits than Python will turn into text
            raise FrontmatterError("cannot write a number this long; write it as text") from None
    if isinstance(value, float):
        return _render_float(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        return value if _is_plain_safe(value, in_flow, text_item) else _quote(value)
    raise FrontmatterError(f"cannot write a value of type {type(value).__name__}")


def _render_float(value: float) -> str:
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    text = repr(value)
    # YAML 1.1 reads a float only with a dot in it: `1e+16` would come back as text.
    return text if "." in text or "e" not in text else text.replace("e", ".0e", 1)


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


def _bare_name(key: str, value: str) -> bool:
    """Whether `key: value` reads back as this text to both readers (see name_fields)."""
    probe = f"{key}: {value}"
    try:
        loaded = load_yaml(probe) if value.isprintable() else None
    except (yaml.YAMLError, ValueError):
        return False
    if not isinstance(loaded, dict) or isinstance(loaded.get(key), list | dict):
        return False
    return name_fields.as_samantha_llm_reads(dict(loaded), probe).get(key) == value


def _render_entry(
    head: str,
    value: Any,
    indent: str,
    separator: str = ": ",
    text_items: bool = False,
    name_key: str | None = None,
) -> list[str]:
    # A name is bare whenever it reads back (`project: yes`): samantha-llm's worker would keep
    # quotes as part of the name. Quoted only when nothing else reads back (`a: b`, ` x`).
    if name_key is not None and isinstance(value, str) and _bare_name(name_key, value):
        return [f"{head}{separator}{value}"]
    if _is_block(value):
        return [
            head.rstrip() + ("" if separator == " " else ":"),
            *_render_block(value, indent + "  "),
        ]
    if isinstance(value, dict):
        rendered = "{}"
    elif isinstance(value, list):
        items = (render_scalar(v, in_flow=True, text_item=text_items) for v in value)
        rendered = "[" + ", ".join(items) + "]"
    else:
        rendered = render_scalar(value, in_flow=separator == " ")
    return [f"{head}{separator}{rendered}".rstrip(" ")]


def render_field(
    key: str, value: Any, newline: str = "\n", key_text: str | None = None
) -> list[str]:
    """The lines for one top-level key: one line for scalars and flat lists, a block otherwise."""
    name = key_text if key_text is not None else render_scalar(key)
    try:
        lines = _render_entry(
            name,
            value,
            "",
            text_items=key in yaml_loader.TEXT_LISTS,
            name_key=key if key in yaml_loader.TEXT_SCALARS else None,
        )
        return [line + newline for line in lines]
    except RecursionError:  # a value that holds itself, or nests thousands deep
        raise FrontmatterError(f"cannot write `{key}`: its value nests too deeply") from None


class _Lines:
    """Line numbers (split on `\\n` only) of character indexes in a text.

    The composer's marks count NEL, LS, PS and a lone CR as line breaks too; a quoted value
    holding one put every later key a line off, and an edit then failed with an IndexError.
    """

    def __init__(self, text: str) -> None:
        self.starts = [0, *(match.end() for match in re.finditer("\n", text))]

    def of(self, index: int) -> int:
        return bisect.bisect_right(self.starts, index) - 1

    def at_line_start(self, index: int) -> bool:
        return self.starts[self.of(index)] == index


def _key_spans(block: _Block) -> dict[str, list[tuple[int, int, str]]]:
    """Each top-level key -> [(first line, last line, key text)] as indexes into block.lines."""
    text = block.yaml_text
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, ValueError) as error:
        where = _yaml_error_line(error, text) if isinstance(error, yaml.YAMLError) else None
        line = f"line {where + block.open_index - 1}: " if where else ""
        raise FrontmatterError(
            f"cannot edit: {line}the frontmatter is not valid YAML; fix it by hand"
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
    lines = _Lines(text)
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for number, (key_node, value_node) in enumerate(node.value):
        first = lines.of(key_node.start_mark.index)
        if number and key_node.start_mark.index < node.value[number - 1][0].start_mark.index:
            # The composer hands back an alias's anchored node, marks and all.
            raise FrontmatterError("cannot edit: a key is an alias (`*name`); edit it by hand")
        if value_node.start_mark.index < key_node.end_mark.index:
            # An alias of a value anchored earlier: it runs to the next key, less the comments and
            # blank lines before that (an alias holds no text that could look like either).
            following = node.value[number + 1][0] if number + 1 < len(node.value) else None
            last = (lines.of(following.start_mark.index) if following else len(yaml_lines)) - 1
            while last > first and yaml_lines[last].strip()[:1] in ("", "#"):
                last -= 1
        else:
            end = value_node.end_mark.index
            last = lines.of(end)
            if lines.at_line_start(end) and last > first:
                last -= 1
            last = min(last, len(yaml_lines) - 1)
            # Comments at the margin and blank lines after a value belong to no key: leave them.
            # A block scalar with `+` chomping keeps its trailing blank lines as text, and an
            # indented `#` line inside any block scalar is text, not a comment.
            keeps_blanks = bool(_KEEP_CHOMPING.search(yaml_lines[first]))
            while last > first and (
                yaml_lines[last].startswith("#")
                or (not yaml_lines[last].strip() and not keeps_blanks)
            ):
                last -= 1
        key_text = text[key_node.start_mark.index : key_node.end_mark.index]
        spans.setdefault(str(key_node.value), []).append((base + first, base + last, key_text))
    lines_used = [span[0] for entries in spans.values() for span in entries]
    if len(lines_used) != len(set(lines_used)):
        raise FrontmatterError("cannot edit: several keys share one line; edit this file by hand")
    return spans


def _field_spans(block: _Block, parsed: Parsed) -> dict[str, list[tuple[int, int, str]]]:
    """Key spans of a frontmatter read as samantha-llm reads it, field by field; refuses an edit
    of a field strict YAML refused, since no rewrite of it could be checked."""
    base = block.open_index + 1
    spans: dict[str, list[tuple[int, int, str]]] = {}
    naive = set(parsed.naive_lines)
    for part in naive_frontmatter.fields(block.yaml_lines):
        if part.first + 2 in naive:
            continue
        one = _Block(block.lines, base + part.first - 1, base + part.last + 1, block.newline)
        for key, found in _key_spans(one).items():
            spans.setdefault(key, []).extend(found)
    return spans


def _refuse_naive_keys(parsed: Parsed, keys: Iterable[str]) -> None:
    for key in keys:
        if key in parsed.refused:
            raise FrontmatterError(
                f"cannot edit `{key}`: line {parsed.refused[key]} is not YAML samantha-tui can "
                "rewrite safely; fix that line by hand, then edit again"
            )


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
    if parsed.naive_lines:
        _refuse_naive_keys(parsed, [*set_values, *unset])
        spans = _field_spans(block, parsed)
    else:
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
    # What was written must read strictly: only the fields refused before may be read naively.
    if (
        not _reads_as(check.mapping, expected)
        or check.body != parsed.body
        or check.refused.keys() != parsed.refused.keys()
        or len(check.warnings) != len(parsed.warnings)
    ):
        raise FrontmatterError("refused: the edited frontmatter would not read back as intended")
    return result


def _reads_as(found: dict[str, Any] | None, expected: dict[str, Any]) -> bool:
    # `.nan` is never equal to itself, yet it reads back as written.
    return found == expected or repr(found) == repr(expected)


def render_new(mapping: Mapping[str, Any], body: str, newline: str = "\n") -> str:
    """A new file: `---`, one line per key in the given order, `---`, then the body."""
    lines = ["---" + newline]
    for key, value in mapping.items():
        lines.extend(render_field(key, value, newline))
    lines.append("---" + newline)
    text = "".join(lines) + body
    check = parse(text)
    if check.naive_lines or not _reads_as(check.mapping, dict(mapping)):
        raise FrontmatterError("refused: the new frontmatter would not read back as intended")
    return text
