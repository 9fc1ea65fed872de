"""A bootstrap plan as Markdown: to paste into an issue or a chat, or to keep beside the tree."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..basics.model import short_path
from .bootstrap import BootstrapPlan, PlanItem, Tier

HEADINGS = {
    Tier.CRITICAL: "Critical (every session)",
    Tier.FREQUENT: "Frequently referenced",
    Tier.PROJECT: "Current project",
    Tier.RECENT_HIGH: "Recent high importance",
    Tier.RUNBOOK: "Runbooks",
}
"""The tiers that load at start, in load order, as a person names them."""

DISAGREES = "≠"
"""The mark of a place where index.json and the files disagree, in every rendering of a plan."""

_SPECIAL = re.compile(r"([\\`*_\[\]<>|~#])")


Named = Callable[[str, str], str]
"""(path, title as planned) -> the name to show (views/naming.py)."""


def _as_titled(path: str, title: str) -> str:
    return title


def escape(text: str) -> str:
    """User text made literal in Markdown: no emphasis, links or table breaks, on one line."""
    return _SPECIAL.sub(r"\\\1", " ".join(text.split()))


def code(text: str) -> str:
    """A code span that holds any text, backticks included; `|` escaped for a table cell."""
    text = text.replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    return f"{fence}{padded}{fence}"


def _total_line(plan: BootstrapPlan, budget: int | None) -> str:
    files = f"{len(plan.items)} file{'s' * (len(plan.items) != 1)}"
    line = f"**Loads at start:** {files}, {plan.total_tokens:,} tokens"
    if budget is None:
        return line + "."
    spare = budget - plan.total_tokens
    if spare >= 0:
        return line + f" of a {budget:,}-token budget ({spare:,} to spare)."
    first = next(i for i, item in enumerate(plan.items) if item.running_tokens > budget)
    return (
        line + f" against a {budget:,}-token budget: {-spare:,} over;"
        f" the budget runs out at item {first + 1}."
    )


def _why(reason: str, disagreements: tuple[str, ...]) -> str:
    """A reason cell, each disagreement after it behind the mark."""
    return " — ".join([escape(reason), *(f"{DISAGREES} {escape(t)}" for t in disagreements)])


def _item_rows(
    items: list[tuple[int, PlanItem]], budget: int | None, named: Named = _as_titled
) -> list[str]:
    rows = [
        "| # | File | Title | Why it loads | Tokens | Total |",
        "|--:|------|-------|--------------|-------:|------:|",
    ]
    for index, item in items:
        over = budget is not None and item.running_tokens > budget
        total = f"{item.running_tokens:,}" + (" (over budget)" if over else "")
        tokens = f"{item.tokens:,}" if item.file_found else "no file"
        why = _why(item.reason, item.disagreements)
        if not item.file_found and (item.index_status or item.index_summary):
            said = " · ".join(t for t in (item.index_status, item.index_summary) if t)
            why += f" — index.json: {escape(said)}"
        name = escape(named(item.path, item.title))
        rows.append(
            f"| {index + 1} | {code(short_path(item.path))} | {name} | {why} | {tokens} | {total} |"
        )
    return rows


def _header(plan: BootstrapPlan, budget: int | None) -> list[str]:
    strategy = plan.strategy
    needed = strategy.minimum_positive_categories
    categories = "category" if needed == 1 else "categories"
    veto = (
        "a matching negative signal vetoes"
        if strategy.negative_signals_are_veto
        else "negative signals do not veto"
    )
    out = [
        "# Bootstrap plan",
        "",
        f"**Current project:** {escape(plan.project or 'none')}  ",
        _total_line(plan, budget) + "  ",
        f"Runbooks load when signals of at least {needed} {categories} match; {veto}.",
    ]
    if plan.disagreements:
        count = plan.disagreements
        out[-1] += "  "
        out.append(
            f"**Index and files disagree** in {count} place{'s' * (count != 1)}, marked"
            f" {DISAGREES}: the assistant goes by index.json."
        )
    return [*out, ""]


def _sources(plan: BootstrapPlan) -> list[str]:
    if not plan.sources:
        return []
    out = ["## Where the plan comes from", ""]
    for source in plan.sources:
        if source.from_index:
            out.append(f"- {source.kind.slug}: {code(source.index)}")
        else:
            out.append(f"- {escape(source.note)}")
    return [*out, ""]


def _on_demand(plan: BootstrapPlan, named: Named) -> list[str]:
    out = [f"## {len(HEADINGS) + 1}. Long-term, on demand (not loaded at start)", ""]
    if not plan.on_demand:
        return [*out, "None.", ""]
    tokens = sum(m.tokens for m in plan.on_demand)
    out += [
        f"{len(plan.on_demand)} memories, {tokens:,} tokens in all, read when a session needs"
        " them.",
        "",
        "| File | Title | Tokens |",
        "|------|-------|-------:|",
    ]
    out += [
        f"| {code(short_path(m.path))} | {escape(named(m.path, m.title))} | {m.tokens:,} |"
        for m in plan.on_demand
    ]
    return [*out, ""]


def _near_misses(plan: BootstrapPlan, named: Named) -> list[str]:
    out = ["## Near misses (not loaded)", ""]
    if not plan.near_misses:
        return [*out, "None.", ""]
    out += ["| File | Title | Why it is out |", "|------|-------|---------------|"]
    out += [
        f"| {code(short_path(m.path))} | {escape(named(m.path, m.title))}"
        f" | {_why(m.reason, m.disagreements)} |"
        for m in plan.near_misses
    ]
    return [*out, ""]


def render(plan: BootstrapPlan, budget: int | None, named: Named = _as_titled) -> str:
    """The plan as Markdown: a table per tier in load order, on demand, near misses, notes.
    Each file is named by `named(path, title)` (the name it is shown by; its title as planned
    by default).

    Items whose running total passes `budget` are marked over budget; None leaves budgets out.
    """
    out = _header(plan, budget)
    for number, (tier, heading) in enumerate(HEADINGS.items(), start=1):
        out += [f"## {number}. {heading}", ""]
        items = [(i, item) for i, item in enumerate(plan.items) if item.tier is tier]
        out += [*_item_rows(items, budget, named), ""] if items else ["None.", ""]
    out += _on_demand(plan, named) + _near_misses(plan, named)
    out += _sources(plan)
    if plan.notes:
        out += ["## Notes", "", *(f"- {escape(note)}" for note in plan.notes), ""]
    return "\n".join(out).rstrip("\n") + "\n"
