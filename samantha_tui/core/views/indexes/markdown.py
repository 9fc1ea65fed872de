"""index.md for each kind: the human fallback, rendered from the same entries as index.json."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...basics.model import Kind
from .jsonfmt import SharedEntry
from .odd_names import markdown_bytes, markdown_file
from .sections import Built, entries

NONE = "None."
CRITICAL_HEADING = "## ⚠️ CRITICAL - Read Every Session"


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return "" if value is None else str(value)


def _file(value: Any) -> str:
    """A file name on its one line: a line break in it written as `\\n` or `\\r`."""
    return markdown_file(_text(value))


def memory_line(entry: Mapping[str, Any], refs: bool = False) -> str:
    """`- \\`file\\` - summary [topics: a, b] [importance: high]` as the real template has it."""
    if type(entry) is not SharedEntry:
        return _memory_line(entry, refs)
    form = "md refs" if refs else "md"
    line = entry.rendered.get(form)
    if line is None:
        line = entry.rendered[form] = _memory_line(entry, refs)
    return line


def _memory_line(entry: Mapping[str, Any], refs: bool) -> str:
    summary = _text(entry.get("summary")) or _text(entry.get("title"))
    line = f"- `{_file(entry.get('file'))}` - {summary}"
    line += (
        f" [topics: {_text(entry.get('topics'))}] [importance: {_text(entry.get('importance'))}]"
    )
    if refs:
        line += f" [refs: {_text(entry.get('references'))}]"
    return line


def _section(heading: str, lines: Iterable[str]) -> list[str]:
    body = list(lines)
    return [heading, "", *(body or [NONE]), ""]


def _header(title: str, data: Mapping[str, Any], count_label: str, count: Any) -> list[str]:
    return [
        f"# {title}",
        "",
        f"**Last Updated**: {_text(data.get('last_updated'))}",
        f"**{count_label}**: {_text(count)}",
        "",
    ]


def _topics(groups: Mapping[str, Any], full: bool) -> list[str]:
    lines: list[str] = []
    for topic in sorted(groups):
        if not full and (block := _file_block(topic, groups[topic])):
            lines += [block, ""]
            continue
        items = entries(groups[topic])
        listed = [memory_line(e) if full else f"- `{_file(e.get('file'))}`" for e in items]
        lines += [f"### {topic}", "", *listed, ""]
    return lines


_BLOCKS: dict[int, tuple[str, list[Any], str]] = {}
"""A by-topic group of file names as text, by the id of its list: the short-term build makes a
group's list again only when one of its memories changed, and never changes a list it made, so
an unchanged group (7,000 lines in all at 10,000 memories) is not rendered again."""
_BLOCKS_LIMIT = 10_000


def _file_block(topic: str, items: Any) -> str | None:
    """`### topic`, a blank line and the group's file-name lines, as one piece of text."""
    cached = _BLOCKS.get(id(items))
    # The entry keeps the list alive, so its id cannot name another list meanwhile.
    if cached is not None and cached[0] == topic and cached[1] is items:
        return cached[2]
    listed = [f"- `{_file(e.get('file'))}`" for e in entries(items)]
    if not listed:
        return None  # an empty group's blank lines are trimmed at the end of the file
    block = "\n".join([f"### {topic}", "", *listed])
    if isinstance(items, list):
        if len(_BLOCKS) >= _BLOCKS_LIMIT:
            _BLOCKS.clear()
        _BLOCKS[id(items)] = (topic, items, block)
    return block


def _short_term(built: Built) -> list[str]:
    data, extra = built.data, built.extra
    lines = _header("Short-Term Memory Index", data, "Total Memories", data.get("total_memories"))
    lines += _section(CRITICAL_HEADING, map(memory_line, entries(data.get("critical"))))
    high = (memory_line(e, refs=True) for e in entries(data.get("high_priority")))
    lines += _section("## High Priority (Frequent References)", high)
    lines += _section("## Recent (Last 30 Days)", map(memory_line, extra["recent"]))
    lines += _section("## Older (30-90 Days)", map(memory_line, extra["older"]))
    topics = _topics(extra["by_topic"], full=False)
    return [*lines, "## By Topic", "", *(topics or [NONE, ""])]


def _long_term(built: Built) -> list[str]:
    data = built.data
    lines = _header("Long-Term Memory Index", data, "Total Memories", data.get("total_memories"))
    lines += _section(CRITICAL_HEADING, map(memory_line, entries(data.get("critical"))))
    lines += _section("## High Importance", map(memory_line, entries(data.get("high_importance"))))
    groups = data.get("by_topic")
    groups = groups if isinstance(groups, Mapping) else {}
    topics = _topics(groups, full=True)
    return [*lines, "## By Topic", "", *(topics or [NONE, ""])]


def _project(entry: Mapping[str, Any]) -> list[str]:
    lines = [f"### {_text(entry.get('name'))}"]
    for key, label in (
        ("status", "Status"),
        ("started", "Started"),
        ("completed", "Completed"),
        ("summary", "Summary"),
    ):
        if entry.get(key):
            lines.append(f"**{label}**: {_text(entry[key])}")
    files = entry.get("files")
    if isinstance(files, list) and files:
        lines.append("**Files**: " + ", ".join(f"`{_file(file)}`" for file in files))
    return [*lines, ""]


def _projects(heading: str, items: list[Mapping[str, Any]]) -> list[str]:
    body = [line for entry in items for line in _project(entry)]
    return [heading, "", *(body or [NONE, ""])]


def _current_tasks(built: Built) -> list[str]:
    data = built.data
    lines = _header("Current Tasks Index", data, "Active Projects", data.get("active_count"))
    lines += _projects("## Active Projects", entries(data.get("active")))
    lines += _projects("## Blocked Projects", entries(data.get("blocked")))
    return lines + _projects("## Recently Completed", entries(data.get("recently_completed")))


def _work_experience(built: Built) -> list[str]:
    data = built.data
    lines = _header("Work Experience Index", data, "Completed Projects", data.get("total_projects"))
    return lines + _projects("## Completed Projects", entries(data.get("completed")))


def _signals(triggers: Any) -> list[str]:
    triggers = triggers if isinstance(triggers, Mapping) else {}
    positive = triggers.get("positive") if isinstance(triggers.get("positive"), Mapping) else {}
    lines = [
        f"**Positive ({category.removesuffix('_signals')})**: {_text(values)}"
        for category, values in positive.items()
        if values
    ]
    for item in entries(triggers.get("negative")):
        reason = f" ({_text(item.get('reason'))})" if item.get("reason") else ""
        lines.append(f"**Negative**: `{_text(item.get('signal'))}`{reason}")
    return lines


def _procedural(built: Built) -> list[str]:
    data = built.data
    lines = _header("Procedural Memory Index", data, "Total Runbooks", data.get("total_runbooks"))
    body: list[str] = []
    for entry in entries(data.get("runbooks")):
        body += [f"### {_text(entry.get('domain'))}", f"**File**: `{_file(entry.get('file'))}`"]
        if entry.get("summary"):
            body.append(f"**Summary**: {_text(entry['summary'])}")
        body.append(f"**Confidence**: {_text(entry.get('confidence')) or 'unknown'}")
        body += _signals(entry.get("triggers"))
        body += [f"**Corrections**: {_text(entry.get('corrections_count'))}", ""]
    lines += ["## Runbooks", "", *(body or [NONE, ""])]
    strategy = data.get("loading_strategy")
    if isinstance(strategy, Mapping):
        rule = (
            f"A runbook loads when signals from at least "
            f"{_text(strategy.get('minimum_positive_categories'))} positive categories match"
        )
        veto = strategy.get("negative_signals_are_veto")
        rule += "; any matching negative signal vetoes it." if veto else "."
        lines += ["## Loading Strategy", "", rule, ""]
    return lines


_RENDERERS = {
    Kind.SHORT_TERM: _short_term,
    Kind.LONG_TERM: _long_term,
    Kind.CURRENT_TASKS: _current_tasks,
    Kind.WORK_EXPERIENCE: _work_experience,
    Kind.PROCEDURAL: _procedural,
}


def render_markdown(kind: Kind, built: Built) -> bytes:
    """The index.md text for a kind, ending in one newline."""
    lines = _RENDERERS[kind](built)
    while lines and not lines[-1]:
        lines.pop()
    return markdown_bytes("\n".join(lines) + "\n")
