"""A memory tree made the way samantha-llm makes one, after some months of use.

bench/generate.py writes look-alike notes from 30 words. A real tree is mostly the background
worker's output: one session analysis per working session (sllm_session.py, in the worker's
exact layout), a second copy of some of them that `subconscious merge` wrote under
`<stem>_<session_id>.md` because finalize had already put the first there, runbooks the merge
drafted or corrected (sllm_runbooks.py), sessions still waiting in the subconscious staging
folder, project updates waiting for review, and, around that, what the assistant writes by hand
from the format's templates (sllm_handwritten.py), with index files that hold a few entries no
file backs any more.

`write_tree(root, count, seed, today)` writes `count` memories (short-term about 70% session
analyses, copies included) and returns what it planted, for tests to check against;
`add_demo_sessions` adds worker sessions to an existing tree and its short-term index (how the
bundled demo got its session analyses). Same arguments, same bytes.

    python -m bench.samantha_llm_like ROOT COUNT [SEED]
"""

from __future__ import annotations

import datetime as dt
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import sllm_handwritten as hand
from . import sllm_runbooks as runbooks
from . import sllm_session as sessions
from . import sllm_words as words
from .sllm_session import Session
from .sllm_words import Project

SHORT = ".ai/short-term-memory/.ai"
LONG = ".ai/long-term-memory/.ai"
TASKS = ".ai/current-tasks/.ai"
WORK = ".ai/work-experience/.ai"
PROCEDURAL = ".ai/procedural-memory/.ai"
SUBCONSCIOUS = ".ai/subconscious/.ai"
SESSION_SHARE = 0.70
"""Of short-term memory: worker session analyses, merge copies included."""
COPY_SHARE = 0.15
"""Of the session analyses: the second copy a recent merge made (older ones were cleaned up)."""
_SUFFIXES = ("next", "cleanup", "migration", "spike", "followup", "hardening", "rewrite", "pilot")
_QUALIFIERS = ("eu", "ios", "android", "internal", "partner", "batch", "edge", "legacy", "web")
"""Further variants are qualified by a word: a workspace named `x-cleanup-3` would read as a
setting with a value (`cleanup 3` against `cleanup 2`), which no real workspace name gives."""


@dataclass
class Planted:
    """What write_tree put in the tree on purpose, relative to the root."""

    sessions: list[str] = field(default_factory=list)
    """Every worker session analysis (not the copies)."""
    merge_copies: list[str] = field(default_factory=list)
    awaiting_merge: list[str] = field(default_factory=list)
    """Session ids staged as `complete`: their memories are in short-term already."""
    index_only: set[tuple[str, str]] = field(default_factory=set)
    """(index file, file it names) for entries whose file is gone."""
    yaml_quirks: list[str] = field(default_factory=list)
    """Runbooks a merge correction left unparsable as YAML (`action: "..." []`)."""
    pending_updates: list[str] = field(default_factory=list)


class _Writer:
    """Writes files under root, making each folder once."""

    def __init__(self, root: Path) -> None:
        self.root, self.made = root, set[Path]()

    def put(self, rel: str, text: str) -> None:
        path = self.root / rel
        if path.parent not in self.made:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.made.add(path.parent)
        path.write_bytes(text.encode("utf-8"))

    def touch(self, rel: str) -> None:
        self.put(rel, "")


def projects_for(count: int) -> list[Project]:
    """`count` workspaces: the known projects first, then numbered variants of them."""
    found = list(words.ALL_PROJECTS[:count])
    n = 0
    while len(found) < count:
        base = words.ALL_PROJECTS[n % len(words.ALL_PROJECTS)]
        round_ = n // len(words.ALL_PROJECTS)
        suffix = _SUFFIXES[round_ % len(_SUFFIXES)]
        deeper = round_ // len(_SUFFIXES)
        extra = ""
        while deeper:
            deeper -= 1
            extra += f"-{_QUALIFIERS[deeper % len(_QUALIFIERS)]}"
            deeper //= len(_QUALIFIERS)
        found.append(base._replace(name=f"{base.name}-{suffix}{extra}"))
        n += 1
    return found


def _shares(count: int) -> dict[str, int]:
    tasks = max(1, round(count * 0.02))
    work = round(count * 0.03)
    procedural = max(1, round(count * 0.03))
    long = max(1, round(count * 0.15))
    return {
        "tasks": tasks,
        "work": work,
        "procedural": procedural,
        "long": long,
        "short": count - tasks - work - procedural - long,
    }


def draw_sessions(
    rng: random.Random,
    n: int,
    pool: list[Project],
    who: str,
    home: str,
    first: dt.date,
    last: dt.date,
    taken: set[str],
) -> list[Session]:
    """n sessions between first and last, in time order, none clashing with `taken` names.

    Two sessions of a day with the same first topic would share a file name, and finalize would
    let the second overwrite the first; the tree here has one file per session instead.
    """
    span = (last - first).days
    starts = sorted(
        dt.datetime.combine(first + dt.timedelta(days=rng.randint(0, span)), dt.time())
        + dt.timedelta(seconds=rng.randint(8 * 3600, 22 * 3600))
        for _ in range(n)
    )
    ids: set[str] = set()
    made = []
    for start in starts:
        while f"{start:%Y%m%d_%H%M%S}" in ids:
            start += dt.timedelta(seconds=1)
        sid = f"{start:%Y%m%d_%H%M%S}"
        ids.add(sid)
        project = rng.choice(pool)
        seconds = rng.randint(6, 240) * 60 + rng.randint(0, 59)
        for _ in range(50):
            analysis = sessions.draw_analysis(rng, project, who, seconds)
            session = Session(sid, start, seconds, f"{home}/{project.name}", project, analysis)
            if sessions.file_name(session) not in taken:
                break
        taken.add(sessions.file_name(session))
        made.append(session)
    return made


def _empty_short_index() -> dict[str, Any]:
    return {
        "last_updated": "",
        "total_memories": 0,
        "critical": [],
        "high_priority": [],
        "recent": {"high_importance": [], "medium_importance": []},
        "stats": {
            "by_importance": {"high": 0, "medium": 0, "low": 0},
            "by_type": {},
            "by_project": {},
        },
    }


def _hand_into(index: dict[str, Any], memory: hand.Written, when: dt.date) -> None:
    """What the assistant does to the short-term index when it writes a memory by hand."""
    entry = memory.entry
    if memory.critical:
        index["critical"].insert(0, entry)
    if memory.references >= 5:
        index["high_priority"].insert(0, entry)
    section = "high_importance" if entry["importance"] == "high" else "medium_importance"
    index["recent"][section].insert(0, entry)
    stats = index["stats"]
    for key, value in (("by_importance", entry["importance"]), ("by_type", entry["type"])):
        stats[key][value] = stats[key].get(value, 0) + 1
    if "project" in entry:
        stats["by_project"][entry["project"]] = stats["by_project"].get(entry["project"], 0) + 1
    index["total_memories"] += 1
    index["last_updated"] = when.isoformat()


def _index_md(title: str, day: dt.date, groups: dict[str, list[dict[str, Any]]]) -> str:
    total = len({e["file"] for entries in groups.values() for e in entries})
    lines = [f"# {title}", "", f"**Last Updated**: {day}", f"**Total Memories**: {total}", ""]
    for heading, entries in groups.items():
        lines += [f"## {heading}", ""]
        lines += [
            f"- `{e['file']}` - {e['summary']} [topics: {', '.join(e['topics'])}]"
            f" [importance: {e['importance']}]"
            for e in entries
        ] or ["None"]
        lines.append("")
    return "\n".join(lines)


def write_tree(root: Path, count: int, seed: int = 7, today: dt.date | None = None) -> Planted:
    """Write a tree of `count` memories under root (made if missing); what was planted."""
    today = today or dt.date.today()
    rng = random.Random(seed)
    out, planted = _Writer(Path(root)), Planted()
    who = rng.choice(words.PEOPLE)
    home = f"/home/{who.lower()}/src"
    share = _shares(count)
    projects = projects_for(max(len(words.ALL_PROJECTS), share["tasks"] + share["work"] + 4))
    active, done = (
        projects[: share["tasks"]],
        projects[share["tasks"] : share["tasks"] + share["work"]],
    )

    session_files = round(share["short"] * SESSION_SHARE)
    copies = round(session_files * COPY_SHARE) if session_files >= 6 else min(1, session_files - 1)
    n_sessions = session_files - max(0, copies)
    n_hand = share["short"] - session_files
    span = max(60, min(540, n_sessions // 6))
    first = today - dt.timedelta(days=span)
    yesterday = today - dt.timedelta(days=1)
    pool = active * 3 + projects
    taken: set[str] = set()
    drawn = draw_sessions(rng, n_sessions, pool, who, home, first, yesterday, taken)

    # The last few sessions wait in staging; the ones just before went through recent merges.
    awaiting = drawn[-max(1, min(5, n_sessions // 40)) :] if n_sessions >= 2 else []
    merged = drawn[len(drawn) - len(awaiting) - max(0, copies) : len(drawn) - len(awaiting)]
    index = _empty_short_index()
    events: list[tuple[dt.datetime, int, Any]] = [(s.finished, 0, s) for s in drawn]
    for session in drawn:
        rel = f"{SHORT}/{sessions.file_name(session)}"
        out.put(rel, sessions.render(session))
        planted.sessions.append(rel)
    for session in merged:
        stem = sessions.file_name(session)[:-3]
        rel = f"{SHORT}/{stem}_{session.session_id}.md"
        out.put(rel, sessions.render(session))
        planted.merge_copies.append(rel)

    n_critical = min(8, max(1, n_hand // 40)) if n_hand else 0
    gone = max(1, min(6, n_hand // 50))
    for number in range(n_hand + gone):
        project = rng.choice(pool)
        date = first + dt.timedelta(days=rng.randint(0, span - 1))
        memory = hand.short_term(rng, project, who, date, today, number < n_critical)
        while memory.name in taken:
            memory = memory._replace(name=memory.name[:-3] + "_2.md")
            memory.entry["file"] = memory.name
        taken.add(memory.name)
        if number >= n_hand:  # deleted by hand later; its index entry stayed
            planted.index_only.add((f"{SHORT}/index.json", memory.name))
        else:
            out.put(f"{SHORT}/{memory.name}", memory.text)
        noon = dt.datetime.combine(date, dt.time(12))
        events.append((noon, 1, memory))
    for when, _, item in sorted(events, key=lambda e: (e[0], e[1])):
        if isinstance(item, Session):
            sessions.finalize_into(index, item)
        else:
            _hand_into(index, item, when.date())
    out.put(f"{SHORT}/index.json", sessions.dump(index))
    # index.md: kept by hand, so only the hand entries, as of the last time the assistant did it.
    hand_entries = [e for e in index["recent"]["high_importance"] + index["recent"][
        "medium_importance"
    ] if "importance" in e]  # fmt: skip
    md_day = today - dt.timedelta(days=rng.randint(5, 25))
    recent = [e for e in hand_entries if (md_day - dt.date.fromisoformat(e["date"])).days <= 30]
    older = [e for e in hand_entries if e not in recent]
    groups = {
        "\u26a0\ufe0f CRITICAL - Read Every Session": index["critical"],
        "High Priority (Frequent References)": index["high_priority"],
        "Recent (Last 30 Days)": recent,
        "Older (30-90 Days)": older,
    }
    text = _index_md("Short-Term Memory Index", md_day, groups)
    out.put(f"{SHORT}/index.md", text + "## By Topic\n\n- see index.json\n")

    _long_term(out, rng, planted, share["long"], pool, who, first, today)
    _procedural(out, rng, planted, share["procedural"], projects, who, first, today)
    _tasks(out, rng, planted, active, done, who, first, today, drawn)
    _subconscious(out, rng, planted, drawn, awaiting, merged, who, home)
    return planted


def _long_term(
    out: _Writer,
    rng: random.Random,
    planted: Planted,
    n: int,
    pool: list[Project],
    who: str,
    first: dt.date,
    today: dt.date,
) -> None:
    entries, names = [], set()
    for number in range(n + 1):
        date = first - dt.timedelta(days=rng.randint(0, 300))
        memory = hand.long_term(rng, rng.choice(pool), who, date)
        name = memory.name
        while name in names:
            name = name[:-3] + "_2.md"
        names.add(name)
        memory.entry["file"] = name
        entries.append(memory.entry)
        if number == n:  # promoted somewhere else by hand, its entry kept
            planted.index_only.add((f"{LONG}/index.json", name))
        else:
            out.put(f"{LONG}/{name}", memory.text)
    by_topic: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        by_topic.setdefault(entry["topics"][0], []).append(entry)
    high = [e for e in entries if e["importance"] == "high"]
    index = {
        "last_updated": (today - dt.timedelta(days=rng.randint(3, 40))).isoformat(),
        "total_memories": len(entries),
        "critical": [],
        "high_importance": high,
        "by_topic": by_topic,
    }
    out.put(f"{LONG}/index.json", sessions.dump(index))
    out.put(
        f"{LONG}/index.md",
        _index_md("Long-Term Memory Index", today, {"High Importance": high}),
    )


def _procedural(
    out: _Writer,
    rng: random.Random,
    planted: Planted,
    n: int,
    projects: list[Project],
    who: str,
    first: dt.date,
    today: dt.date,
) -> None:
    entries = []
    for number in range(n):
        project = projects[number % len(projects)]
        round_ = number // len(projects)
        day = first + dt.timedelta(days=rng.randint(0, max(1, (today - first).days - 1)))
        if number % 5 < 3:
            domain = project.name + ("" if round_ == 0 else f"-ops-{round_}")
            book = runbooks.hand(rng, project, who, domain, day)
        else:
            domain = f"{project.name}-{hand.slug(rng.choice(project.things), 2).replace('_', '-')}"
            domain += f"-{round_}" if round_ else ""
            book = runbooks.draft(rng, project, who, domain, day)
        text = book.text
        roll = rng.random()
        later = min(today - dt.timedelta(days=1), day + dt.timedelta(days=rng.randint(1, 60)))
        if roll < 0.15:  # a later merge applied a correction to the file
            if "corrections: []" in text:
                planted.yaml_quirks.append(f"{PROCEDURAL}/{book.name}")
            text = runbooks.corrected(book, rng, project, who, later)
        elif roll < 0.4:  # a later merge saw more signals: they went to the index only
            runbooks.observe(book.entry, rng, project)
        out.put(f"{PROCEDURAL}/{book.name}", text)
        entries.append(book.entry)
    gone = runbooks.draft(rng, projects[0], who, f"{projects[0].name}-retired", first)
    entries.append(gone.entry)
    planted.index_only.add((f"{PROCEDURAL}/index.json", gone.name))
    index = {
        "last_updated": (today - dt.timedelta(days=rng.randint(1, 20))).isoformat(),
        "total_runbooks": len(entries),
        "runbooks": entries,
        "loading_strategy": {"minimum_positive_categories": 2, "negative_signals_are_veto": True},
    }
    out.put(f"{PROCEDURAL}/index.json", sessions.dump(index))


def _tasks(
    out: _Writer,
    rng: random.Random,
    planted: Planted,
    active: list[Project],
    done: list[Project],
    who: str,
    first: dt.date,
    today: dt.date,
    drawn: list[Session],
) -> None:
    entries: list[dict[str, Any]] = []
    completed: list[dict[str, Any]] = []
    for number, project in enumerate(active):
        started = first + dt.timedelta(days=rng.randint(0, 30))
        updated = today - dt.timedelta(days=rng.randint(1, 20))
        phase = rng.randint(1, 4)
        folder = project.name
        out.put(
            f"{TASKS}/{folder}/status.md",
            hand.task_status(rng, project, who, started, updated, phase),
        )
        files = [f"{folder}/status.md"]
        if rng.random() < 0.5:
            out.put(f"{TASKS}/{folder}/notes.md", hand.notes(rng, project, who, updated))
            files.append(f"{folder}/notes.md")
        # One project the assistant indexed under a display name, not its folder's.
        name = folder.replace("-", " ").title() if number == 1 else folder
        entries.append(
            {
                "name": name,
                "status": f"Phase {phase} - {rng.choice(project.things)} in progress",
                "started": started.isoformat(),
                "summary": sessions.fill(
                    "Ship {thing} without breaking {service}.", rng, project, who
                ),
                "files": files,
                "topics": list(project.tags[:3]),
                "recent_progress": sessions.fill(
                    "{Verb} {thing}; {thing2} is next.", rng, project, who
                ),
            }
        )
    for project in done:
        started = first - dt.timedelta(days=rng.randint(30, 200))
        finished = first + dt.timedelta(days=rng.randint(0, 60))
        out.put(
            f"{WORK}/{project.name}/status.md",
            hand.experience_status(rng, project, who, started, finished),
        )
        completed.append(
            {
                "name": project.name,
                "status": "Completed",
                "started": started.isoformat(),
                "completed": finished.isoformat(),
                "summary": sessions.fill("Delivered {thing} for {service}.", rng, project, who),
                "files": [f"{project.name}/status.md"],
                "topics": list(project.tags[:3]),
                "recent_progress": "Moved to work-experience.",
            }
        )
    # A project the assistant tracks in the index only: no folder at all.
    entries.append(
        {
            "name": "ops-notes",
            "status": "Ongoing - notes only",
            "started": first.isoformat(),
            "summary": "Running notes on accounts and access, kept in the index for every session.",
            "files": [],
            "topics": ["ops"],
            "recent_progress": "Nothing new this week.",
        }
    )
    index = {
        "last_updated": (today - dt.timedelta(days=rng.randint(1, 15))).isoformat(),
        "active_count": len(entries),
        "active": entries,
        "blocked": [],
        "recently_completed": completed[-5:],
    }
    out.put(f"{TASKS}/index.json", sessions.dump(index))
    md = ["# Current Tasks Index", "", f"**Last Updated**: {index['last_updated']}"]
    md += [f"**Active Projects**: {len(entries)}", "", "## Active Projects", ""]
    for entry in entries:
        md += [f"### {entry['name']}", f"**Status**: {entry['status']}"]
        md += [f"**Started**: {entry['started']}", f"**Summary**: {entry['summary']}"]
        md += [f"**Files**: {', '.join(f'`{f}`' for f in entry['files']) or 'none'}", ""]
    md += ["## Blocked Projects", "None", "", "## Recently Completed (Move to work-experience)"]
    md += [f"- {entry['name']}" for entry in completed[-5:]] or ["None"]
    out.put(f"{TASKS}/index.md", "\n".join(md) + "\n")
    # The worker proposes an update for every session in a workspace named like an index
    # entry (so never for the display-named one); the last few are still waiting for review.
    status: dict[str, str] = {entry["name"]: entry["status"] for entry in entries}
    for session in [s for s in drawn if s.project.name in status][-4:]:
        text = sessions.pending_update(session, status[session.project.name], rng)
        if text:
            rel = f"{TASKS}/pending-updates/{session.session_id}_{session.project.name}.json"
            out.put(rel, text)
            planted.pending_updates.append(rel)


def _subconscious(
    out: _Writer,
    rng: random.Random,
    planted: Planted,
    drawn: list[Session],
    awaiting: list[Session],
    merged: list[Session],
    who: str,
    home: str,
) -> None:
    base = f"{SUBCONSCIOUS}/sessions"
    for session in awaiting:
        folder = f"{base}/{session.session_id}"
        out.put(f"{folder}/status.json", sessions.status_complete(session))
        out.put(f"{folder}/guidance.md", sessions.guidance(session))
        out.put(f"{folder}/memories/{sessions.file_name(session)}", sessions.render(session))
        planted.awaiting_merge.append(session.session_id)
    if drawn:
        # One session still being analysed and one that failed: neither has a memory yet.
        last = drawn[-1]
        project = last.project
        for offset, state in ((3, "processing"), (2, "failed")):
            start = last.start + dt.timedelta(hours=offset, minutes=rng.randint(0, 50))
            analysis = sessions.draw_analysis(rng, project, who, 1800)
            other = Session(
                f"{start:%Y%m%d_%H%M%S}", start, 1800, last.workspace, project, analysis
            )
            folder = f"{base}/{other.session_id}"
            for sub in ("analyses", "parsed", "memories", "procedural"):
                out.put(f"{folder}/{sub}/.keep", "")
            if state == "processing":
                out.put(f"{folder}/status.json", sessions.status_processing(other))
                out.touch(f"{folder}/.processing.lock")
            else:
                error = "Command '['claude', '--print']' timed out after 300 seconds"
                out.put(f"{folder}/status.json", sessions.status_failed(other, error))
    # Merges every week or so moved sessions to processed/ and added their guidance lines.
    main = "---\nlast_updated: {0}\n---\n\n# Subconscious Guidance\n\n"
    main += "Orientation from recent sessions; see the session folders for detail.\n\n"
    main += "## Recent Sessions\n\n"
    text = main.format(merged[0].finished.isoformat() if merged else "")
    batch: list[Session] = []
    for number, session in enumerate(merged):
        folder = f"{SUBCONSCIOUS}/processed/{session.session_id}"
        # Only its status: the rest of a processed folder is never read, and files cost time.
        out.put(f"{folder}/status.json", sessions.status_complete(session))
        batch.append(session)
        if number == len(merged) - 1 or len(batch) >= rng.randint(3, 12):
            lines = text.split("\n")
            at = lines.index("## Recent Sessions") + 1
            lines[at:at] = [""] + [sessions.guidance_line(s) for s in batch]
            when = (batch[-1].finished + dt.timedelta(hours=rng.randint(1, 30))).isoformat()
            text = "\n".join(lines).replace("last_updated: ", f"last_updated: {when} # ")
            batch = []
    if merged:
        out.put(f"{SUBCONSCIOUS}/guidance.md", text)


def add_demo_sessions(
    root: Path, count: int, seed: int, first: dt.date, last: dt.date, who: str = "Dana"
) -> list[str]:
    """Add `count` worker sessions in the demo's projects to the tree at root, and append each
    to its short-term index.json as finalize does (in time order); the new files' paths."""
    rng = random.Random(seed)
    short = Path(root) / SHORT
    taken = {path.name for path in short.glob("*.md")}
    pool = list(words.DEMO_PROJECTS)
    home = f"/home/{who.lower()}/src"
    # mobile-sync was completed on 2026-03-12 (see the demo's work experience): no sessions after.
    mobile_done = min(max(first, dt.date(2026, 3, 12)), last)
    before = round(count * (mobile_done - first).days / max(1, (last - first).days))
    drawn = []
    for n, (since, until, projects) in enumerate(
        (
            (first, mobile_done, pool),
            (
                mobile_done + dt.timedelta(days=1),
                last,
                [p for p in pool if p.name != "mobile-sync"],
            ),
        )
    ):
        weighted = [projects[0]] * 4 + [projects[1]] * 2 + projects[2:]
        n_here = before if n == 0 else count - before
        drawn += draw_sessions(rng, n_here, weighted, who, home, since, until, taken)
    index = json.loads((short / "index.json").read_text(encoding="utf-8"))
    written = []
    for session in drawn:
        (short / sessions.file_name(session)).write_bytes(sessions.render(session).encode())
        sessions.finalize_into(index, session)
        written.append(sessions.file_name(session))
    (short / "index.json").write_bytes(sessions.dump(index).encode())
    return written


if __name__ == "__main__":
    target, size = Path(sys.argv[1]), int(sys.argv[2])
    result = write_tree(target, size, int(sys.argv[3]) if len(sys.argv) > 3 else 7)
    print(f"{size} memories in {target}: {len(result.sessions)} session analyses")
