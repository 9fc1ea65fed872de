"""`bootstrap`: what the assistant loads at session start, in order, with reasons and sizes."""

from __future__ import annotations

import argparse
from typing import Any

from ..core.basics.model import short_path
from ..core.views.bootstrap import BootstrapPlan, PlanItem, Signals, Tier, plan
from ..core.views.bootstrap_markdown import DISAGREES
from .common import open_store, tree_argument
from .output import print_json, say

_HEADINGS = {
    Tier.CRITICAL: "Critical memories (every session)",
    Tier.FREQUENT: "Frequently referenced",
    Tier.PROJECT: "Current project",
    Tier.RECENT_HIGH: "Recent high importance",
    Tier.RUNBOOK: "Runbooks",
}


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "bootstrap", help="show what the assistant loads at session start, in order"
    )
    tree_argument(parser)
    parser.add_argument("--project", metavar="P", help="the current project (a current task)")
    parser.add_argument(
        "--repo", dest="repos", action="append", default=[], metavar="R", help="runbook signal"
    )
    parser.add_argument(
        "--path", dest="signal_paths", action="append", default=[], metavar="X",
        help="runbook signal: a file or folder in play",
    )  # fmt: skip
    parser.add_argument(
        "--keyword", dest="keywords", action="append", default=[], metavar="K",
        help="runbook signal: a word or phrase from the task",
    )  # fmt: skip
    parser.add_argument(
        "--budget", type=int, metavar="TOKENS", help="mark where this many tokens run out"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=run)


def _size(item: PlanItem, value: int) -> int | None:
    """A size, or None for a project the assistant knows only from its index entry."""
    return value if item.file_found else None


def as_dict(result: BootstrapPlan) -> dict[str, Any]:
    """The whole plan as plain data for --json."""
    return {
        "project": result.project,
        "budget": result.budget,
        "total_tokens": result.total_tokens,
        "budget_runs_out_at": result.budget_runs_out_at,
        "minimum_positive_categories": result.strategy.minimum_positive_categories,
        "negative_signals_are_veto": result.strategy.negative_signals_are_veto,
        "loading_strategy_source": result.strategy.source,
        "items": [
            {
                "tier": item.tier.value,
                "path": item.path,
                "title": item.title,
                "reason": item.reason,
                "lines": _size(item, item.lines),
                "chars": _size(item, item.chars),
                "tokens": _size(item, item.tokens),
                "running_tokens": item.running_tokens,
                "over_budget": item.over_budget,
                "file_found": item.file_found,
                "disagreements": list(item.disagreements),
                **(
                    {"index_status": item.index_status, "index_summary": item.index_summary}
                    if item.tier is Tier.PROJECT and (item.index_status or item.index_summary)
                    else {}
                ),
            }
            for item in result.items
        ],
        "near_misses": [
            {
                "path": m.path,
                "title": m.title,
                "reason": m.reason,
                "file_found": m.file_found,
                "disagreements": list(m.disagreements),
            }
            for m in result.near_misses
        ],
        "disagreements": result.disagreements,
        "sources": [
            {
                "kind": source.kind.slug,
                "index": source.index,
                "from_index": source.from_index,
                "note": source.note,
            }
            for source in result.sources
        ],
        "on_demand": [
            {"path": m.path, "title": m.title, "tokens": m.tokens} for m in result.on_demand
        ],
        "on_demand_tokens": sum(m.tokens for m in result.on_demand),
        "notes": list(result.notes),
    }


def render(result: BootstrapPlan) -> list[str]:
    """The plan as text: one section per tier, the budget marker, near misses, then notes."""
    out: list[str] = [f"From the files: {s.note}" for s in result.sources if not s.from_index]
    cut = result.budget_runs_out_at
    for tier, heading in _HEADINGS.items():
        out.append(heading)
        rows = [(i, item) for i, item in enumerate(result.items) if item.tier is tier]
        for index, item in rows:
            if index == cut:
                out.append(f"--- budget of {result.budget} tokens runs out here ---")
            tokens = f"{item.tokens:>5}" if item.file_found else f"{'-':>5}"
            sizes = f"{tokens} tok   total {item.running_tokens:>5}"
            out.append(
                f"{index + 1:>3}  {tier.value:<9}{sizes}  {short_path(item.path)}  {item.reason}"
            )
            if not item.file_found:
                out.append(f"{'':>5}index.json: {item.index_status or '-'} · {item.index_summary}")
            out.extend(f"{'':>5}{DISAGREES} {text}" for text in item.disagreements)
        if not rows:
            out.append("     (none)")
    total = f"{len(result.items)} files, {result.total_tokens} tokens"
    if result.budget is not None:
        spare = result.budget - result.total_tokens
        total += f"; budget {result.budget}: " + (
            f"{spare} to spare" if spare >= 0 else f"{-spare} over"
        )
    out.append(f"Total: {total}")
    if result.near_misses:
        out.append("Near misses (not loaded)")
        for m in result.near_misses:
            out.append(f"     {short_path(m.path)}  {m.reason}")
            out.extend(f"{'':>7}{DISAGREES} {text}" for text in m.disagreements)
    on_demand_tokens = sum(m.tokens for m in result.on_demand)
    out.append(
        f"On demand: {len(result.on_demand)} long-term memories ({on_demand_tokens} tokens),"
        " listed, not loaded"
    )
    out.extend(f"Note: {note}" for note in result.notes)
    return out


def run(args: argparse.Namespace) -> int:
    store = open_store(args)
    signals = Signals(
        project=args.project,
        repos=tuple(args.repos),
        paths=tuple(args.signal_paths),
        keywords=tuple(args.keywords),
    )
    result = plan(store.tree, signals, store.today(), args.budget)
    if args.json:
        print_json(as_dict(result))
    else:
        for line in render(result):
            say(line)
    return 0
