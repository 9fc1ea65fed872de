"""Curation rules of the samantha-llm format as reviewable proposals: prune, promote, escalate,
dedupe, complete a task, apply a pending project update.

Each rule returns a Proposal: candidates, each with its reason and the operations it would take. The
person picks candidates; `Proposal.plan(picked)` turns them into one Plan for the store to apply,
carrying the rule's name.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz

from ..basics import progress
from ..basics.model import TASKS_INDEX, Kind, Memory, PendingUpdate, Tree
from ..basics.plans import Operation, Plan
from ..reading import subconscious

PRUNE_LOW_AFTER_DAYS = 30
REVIEW_AFTER_DAYS = 90
PROMOTE_REFS = 5
PROMOTE_DEFINITE_REFS = 10
ESCALATE_HIGH_REFS = 3
ESCALATE_CRITICAL_REFS = 10
PROMOTE_TYPES = ("quick-reference", "decision", "foundational-knowledge")
# Near-identical means one note written twice. On the demo tree, different notes of one kind score
# at most 48 (median 39; rapidfuzz ratio over whitespace-folded, lower-cased bodies) and a merge
# copy whose wording was reworked scores 78; 90 keeps to notes that differ by a sentence or so.
# Reworded merge copies are still found, by their `<stem>_<stamp>` name.
SIMILAR_BODIES = 90
_MERGE_STAMP = re.compile(r"_(\d{8}_\d{6})$")
_LEADING_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}_")

# The rules' names: each proposal's, and the rule of the plans made from it.
PRUNE = "prune"
PROMOTE = "promote"
ESCALATE = "escalate"
DEDUPE = "dedupe"
COMPLETE = "complete"
APPLY_UPDATES = "apply updates"


@dataclass(frozen=True)
class Candidate:
    """One thing a rule proposes, with why and what it would do."""

    path: str
    title: str
    reason: str
    operations: tuple[Operation, ...]


@dataclass(frozen=True)
class Proposal:
    """Everything one rule proposes for a tree."""

    name: str
    """The rule's name (PRUNE, PROMOTE, ...)."""
    candidates: tuple[Candidate, ...] = ()

    def plan(self, picked: Iterable[str] | None = None) -> Plan:
        """A plan of the picked candidates (by path), or of all of them; its rule is this one."""
        chosen = None if picked is None else set(picked)
        operations = tuple(
            op
            for candidate in self.candidates
            if chosen is None or candidate.path in chosen
            for op in candidate.operations
        )
        return Plan(self.name, operations, rule=self.name)


def _readable(memories: Iterable[Memory]) -> list[Memory]:
    """Rules judge dates and fields: files whose frontmatter cannot be read are left alone."""
    return [m for m in memories if m.date is not None and not m.has_errors]


def promotion_reason(memory: Memory) -> str | None:
    """Why a short-term memory belongs in long-term memory, or None."""
    refs, age = memory.reference_count, memory.age_days or 0
    if refs >= PROMOTE_DEFINITE_REFS:
        return f"referenced {refs} times (10+: definite)"
    if refs >= PROMOTE_REFS:
        return f"referenced {refs} times"
    if memory.importance == "high" and memory.type in PROMOTE_TYPES:
        return f"high importance {memory.type}"
    if age > REVIEW_AFTER_DAYS and memory.importance in ("high", "medium"):
        return f"{memory.importance} importance, {age} days old and still kept"
    return None


def prune_reason(memory: Memory) -> str | None:
    """Why a readable short-term memory goes to the trash, or None; never a critical one."""
    age = memory.age_days or 0
    if memory.critical:
        return None
    if memory.importance == "low" and age > PRUNE_LOW_AFTER_DAYS:
        return f"low importance, {age} days old"
    if age > REVIEW_AFTER_DAYS and promotion_reason(memory) is None:
        return f"{age} days old and not a promotion candidate"
    return None


def prune(tree: Tree) -> Proposal:
    """Short-term memories to move to the trash; never a critical one."""
    candidates = []
    for memory in _readable(tree.of_kind(Kind.SHORT_TERM)):
        reason = prune_reason(memory)
        if reason is None:
            continue
        operation = Operation("trash", memory.path, reason, seen=memory.digest, recheck=PRUNE)
        candidates.append(Candidate(memory.path, memory.title, reason, (operation,)))
    return Proposal(PRUNE, _merge_warned(tree, candidates))


def promoted_name(memory: Memory, today: dt.date, taken: set[str]) -> str:
    """`<long-term>/<today>_<topic>.md`; the topic is the short-term name minus date and stamp."""
    stem = memory.name.removesuffix(".md")
    topic = _LEADING_DATE.sub("", _MERGE_STAMP.sub("", stem)) or stem
    base = f"{Kind.LONG_TERM.folder}/{today.isoformat()}_{topic}"
    candidate, n = f"{base}.md", 1
    while candidate in taken:
        n += 1
        candidate = f"{base}_{n}.md"
    return candidate


def promote(tree: Tree, today: dt.date) -> Proposal:
    """Short-term memories to copy into long-term memory (dated today) and then trash."""
    taken = {m.path for m in tree.memories}
    candidates = []
    for memory in _readable(tree.of_kind(Kind.SHORT_TERM)):
        reason = promotion_reason(memory)
        if reason is None:
            continue
        target = promoted_name(memory, today, taken)
        taken.add(target)
        operations = (
            Operation(
                "copy",
                memory.path,
                reason,
                target=target,
                values={"date": today},
                seen=memory.digest,
                recheck=PROMOTE,
            ),
            Operation("trash", memory.path, f"promoted to {target}", seen=memory.digest),
        )
        candidates.append(Candidate(memory.path, memory.title, reason, operations))
    return Proposal(PROMOTE, _merge_warned(tree, candidates))


def escalate(tree: Tree) -> Proposal:
    """Raise importance of memories referenced 3+ times; mark 10+ critical."""
    candidates = []
    memories = tree.of_kind(Kind.SHORT_TERM) + tree.of_kind(Kind.LONG_TERM)
    for memory in _readable(memories):
        refs = memory.reference_count
        values: dict[str, object] = {}
        if refs >= ESCALATE_HIGH_REFS and memory.importance != "high":
            values["importance"] = "high"
        if refs >= ESCALATE_CRITICAL_REFS and not memory.critical:
            values["critical"] = True
        if not values:
            continue
        wants = " and ".join(
            "mark critical" if key == "critical" else "raise to high" for key in values
        )
        reason = f"referenced {refs} times: {wants}"
        operation = Operation("edit", memory.path, reason, values=values, seen=memory.digest)
        candidates.append(Candidate(memory.path, memory.title, reason, (operation,)))
    return Proposal(ESCALATE, tuple(candidates))


def richness(memory: Memory) -> tuple[bool, int, int, int, int]:
    """Which of two duplicates to keep: a critical one first (it is read every session)."""
    is_original = 0 if _MERGE_STAMP.search(memory.name.removesuffix(".md")) else 1
    return (
        memory.critical,
        memory.reference_count,
        len(memory.topics),
        len(memory.body),
        is_original,
    )


def _fold(body: str) -> str:
    return " ".join(body.lower().split())


_RATIOS: dict[tuple[float, str, str], float] = {}
"""rapidfuzz's ratio of two memories' folded bodies, by their bodies and its cutoff: the report
after every change judges again the pairs it judged before, and their ratios were most of the
duplicate rule's time (0.5 s at 10,000). Keyed by the bodies the tree holds anyway (a string
keeps its hash), not by the folded copies, which are let go after each pass."""
RATIOS_KEPT = 100_000


def _ratio(keep: Memory, drop: Memory, kept: str, dropped: str, cutoff: float) -> float:
    key = (cutoff, keep.body, drop.body)
    found = _RATIOS.get(key)
    if found is None:
        found = fuzz.ratio(kept, dropped, score_cutoff=cutoff)
        if len(_RATIOS) >= RATIOS_KEPT:
            _RATIOS.clear()
        _RATIOS[key] = found
    return found


def duplicate_pairs(tree: Tree) -> list[tuple[Memory, Memory, str]]:
    """(keep, drop, reason) for merge copies and near-identical memories of the same kind.

    Comparing every pair would cost n²; candidates are memories that share a folder and stem
    (merge copies), a title, or the opening of their body, which is how duplicates arise. A pair
    is judged once, in the first of its shared groups in key order: worked out from the keys
    themselves, as a set of every pair seen held a gigabyte on 100,000 session analyses (their
    titles repeat by date)."""
    pairs: list[tuple[Memory, Memory, str]] = []
    by_key: dict[tuple[Kind, str], list[Memory]] = {}
    keys: dict[str, tuple[str, str, str]] = {}
    folded: dict[str, str] = {}
    for memory in _readable(tree.memories):
        if memory.kind.is_project_kind:
            continue
        folded[memory.path] = _fold(memory.body)
        own = (
            merge_stem(memory),
            f"title:{memory.title.lower()}",
            f"open:{folded[memory.path][:160]}",
        )
        keys[memory.path] = own
        for key in own:
            by_key.setdefault((memory.kind, key), []).append(memory)
    for (_, key), group in sorted(by_key.items(), key=lambda item: item[0][1]):
        for i, first in enumerate(group):
            first_keys = keys[first.path]
            for second in group[i + 1 :]:
                shared = [k for k, o in zip(first_keys, keys[second.path], strict=True) if k == o]
                if min(shared) != key:
                    continue  # judged in an earlier group
                keep, drop = sorted((first, second), key=richness, reverse=True)
                if drop.critical:
                    continue  # both critical: a person decides, no rule trashes one
                reason = _reason(keep, drop, folded[keep.path], folded[drop.path])
                if reason is not None:
                    pairs.append((keep, drop, reason))
    return sorted(pairs, key=lambda p: p[1].path)


def duplicate_reason(keep: Memory, drop: Memory) -> str | None:
    """Why `drop` duplicates `keep` (a merge copy of it, or near-identical), or None."""
    return _reason(keep, drop, _fold(keep.body), _fold(drop.body))


def _reason(keep: Memory, drop: Memory, kept: str, dropped: str) -> str | None:
    if merge_stem(keep) == merge_stem(drop):
        similarity = _ratio(keep, drop, kept, dropped, 0.0)
        return f"merge copy of {keep.name} ({similarity:.0f}% alike)"
    # Below the bar rapidfuzz stops early and gives 0: most candidates are far below it.
    similarity = _ratio(keep, drop, kept, dropped, SIMILAR_BODIES)
    if similarity >= SIMILAR_BODIES:
        return f"near-identical to {keep.name} ({similarity:.0f}% alike)"
    return None


def merge_stem(memory: Memory) -> str:
    """The path without `.md` and a merge copy's `_<date>_<time>` stamp."""
    return _MERGE_STAMP.sub("", memory.path.removesuffix(".md"))


def chosen_pairs(tree: Tree) -> list[tuple[Memory, Memory, str]]:
    """The duplicate pairs dedupe proposes: a memory is dropped once, and never one kept."""
    chosen = []
    dropped: set[str] = set()
    for keep, drop, reason in duplicate_pairs(tree):
        if drop.path in dropped or keep.path in dropped:
            continue
        dropped.add(drop.path)
        chosen.append((keep, drop, reason))
    return chosen


def dedupe(tree: Tree) -> Proposal:
    """Trash the poorer of each duplicate pair (fewer references, topics and words)."""
    candidates = []
    for keep, drop, reason in chosen_pairs(tree):
        # The kept one as target: the rule is judged again on both files when the step runs.
        operation = Operation(
            "trash", drop.path, reason, target=keep.path, seen=drop.digest, recheck=DEDUPE
        )
        candidates.append(Candidate(drop.path, drop.title, reason, (operation,)))
    return Proposal(DEDUPE, _merge_warned(tree, candidates))


def _merge_warned(tree: Tree, candidates: list[Candidate]) -> tuple[Candidate, ...]:
    """Candidates whose trashed memory a waiting session's merge writes again say so."""
    back = subconscious.comes_back_alone(
        tree, (op.path for c in candidates for op in c.operations if op.action == "trash")
    )
    if not back:
        return tuple(candidates)
    warned = []
    for candidate in candidates:
        sessions = [back[op.path].session for op in candidate.operations if op.path in back]
        if sessions:
            note = f"; comes back on merge of session {sessions[0]}"
            candidate = dataclasses.replace(candidate, reason=candidate.reason + note)
        warned.append(candidate)
    return tuple(warned)


def _project_folder(memory: Memory) -> str:
    return memory.path.rsplit("/", 1)[0]


def complete(tree: Tree, today: dt.date, projects: Iterable[str] | None = None) -> Proposal:
    """Move finished tasks to work experience: those whose status says completed, or the named."""
    named = None if projects is None else set(projects)
    candidates = []
    for memory in tree.of_kind(Kind.CURRENT_TASKS):
        folder = _project_folder(memory)
        project = folder.rsplit("/", 1)[-1]
        if named is not None:
            if project not in named:
                continue
            reason = "picked to complete"
        elif memory.status == "completed":
            reason = "status.md says completed"
        else:
            continue
        target = f"{Kind.WORK_EXPERIENCE.folder}/{project}"
        operations = (
            Operation(
                "edit",
                memory.path,
                reason,
                values={"status": "completed", "completed": today},
                seen=memory.digest,
                # Chosen by its status: the file must still say so. Named: the person chose.
                recheck=COMPLETE if named is None else "",
            ),
            # No check of its own: the edit before it checks status.md, and a skipped edit
            # leaves the folder where it is.
            Operation("move", folder, reason, target=target),
        )
        candidates.append(Candidate(folder, memory.title, reason, operations))
    return Proposal(COMPLETE, tuple(candidates))


def update_changes(update: PendingUpdate) -> tuple[dict[str, object], dict[str, object]]:
    """(keys applying the update sets, keys it leaves as they are), as samantha-llm's `projects
    review` decides: every proposed key whose value is not empty (null, "", [], {}, 0, false)."""
    changes = {key: value for key, value in update.proposed_changes.items() if value}
    left = {key: value for key, value in update.proposed_changes.items() if not value}
    return changes, left


def _short(value: object, limit: int = 60) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def pending_updates(tree: Tree) -> Proposal:
    """Apply each pending project update to the current-tasks index, then trash its file."""
    candidates = []
    for update in tree.pending_updates:
        changes, left = update_changes(update)
        said = [f"{key}: {_short(value)}" for key, value in changes.items()]
        said += [f"{key} left as it is ({json.dumps(value)})" for key, value in left.items()]
        confidence = update.confidence_text
        source = f" ({confidence} confidence)" if confidence else ""
        reason = f"proposed for {update.project}{source}: {', '.join(said) or 'no changes'}"
        operations = (
            Operation("project-fields", TASKS_INDEX, reason, target=update.project, values=changes),
            Operation("trash", update.path, "applied"),
        )
        candidates.append(Candidate(update.path, update.project, reason, operations))
    return Proposal(APPLY_UPDATES, tuple(candidates))


REVIEWING = "Applying the review's rules: {count}"


def review(tree: Tree, today: dt.date) -> list[Proposal]:
    """Every rule's proposal, in the order a person would work through them; each rule is
    reported as it starts (at 10,000 memories they take seconds together)."""
    rules: list[Callable[[], Proposal]] = [
        lambda: prune(tree),
        lambda: promote(tree, today),
        lambda: escalate(tree),
        lambda: dedupe(tree),
        lambda: complete(tree, today),
        lambda: pending_updates(tree),
    ]
    proposals = []
    for done, rule in enumerate(rules):
        progress.report(done, len(rules), REVIEWING)
        proposals.append(rule())
    progress.report(len(rules), len(rules), REVIEWING)
    return proposals
