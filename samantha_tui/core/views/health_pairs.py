"""The health report's pairs: what the meaning engine found (conflicts, supersessions,
duplicates, related pairs), and the merge copies and near-identical bodies dedupe finds, each
pair once, less the pairs a person dismissed.

A related pair is said only with a difference named or near in meaning (RELATED_SAID).
One pair, one finding: the verdict that says most of what differs wins (a conflict over a
supersession over a duplicate: merging would drop one side of it unread), and a duplicate found
both ways says both reasons. A dismissal hides only the verdict
it dismissed, and only while both files hold the contents judged (see dismissals.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..basics.model import Memory, Severity, Tree
from . import health_findings as h
from . import lifecycle
from .dismissals import Dismissed
from .meaning import CONFLICT, DUPLICATE, RELATED, SUPERSESSION, VERDICTS, SimilarPair
from .merging import which_to_keep

RELATED_SAID = 0.92
"""Cosine from which a related pair with no difference named is a finding. Memories of one
project written by one worker are alike (on the samantha-llm-like tree of 10,000, 3,200 pairs
between 0.855 and 0.92, each two accounts of one subject): read side by side they hold nothing
to act on, and the review lists them all. Closer than this, one may be all that is needed."""


@dataclass(frozen=True)
class PairFindings:
    findings: tuple[h.Finding, ...]
    dismissed: int
    """Pairs left out because a person dismissed them."""


def pair_findings(tree: Tree, meaning: Iterable[SimilarPair], dismissed: Dismissed) -> PairFindings:
    by_path = {m.path: m for m in tree.memories}
    left_out = 0
    # frozenset of the two paths -> (verdict, the finding)
    chosen: dict[frozenset[str], tuple[str, h.Finding]] = {}

    def offer(a: Memory, b: Memory, verdict: str, finding: h.Finding) -> None:
        nonlocal left_out
        if dismissed.holds(a.path, a.digest, b.path, b.digest, verdict):
            left_out += 1
            return
        key = frozenset((a.path, b.path))
        if key in chosen and VERDICTS.index(chosen[key][0]) <= VERDICTS.index(verdict):
            return
        chosen[key] = (verdict, finding)

    alike: dict[frozenset[str], str] = {}
    for pair in sorted(meaning, key=lambda p: (p.first, p.second)):
        a, b = by_path.get(pair.first), by_path.get(pair.second)
        if a is None or b is None or a.path == b.path:
            continue  # compared before the tree changed: nothing left to act on
        if pair.verdict == CONFLICT:
            offer(a, b, CONFLICT, _conflict(a, b, pair))
        elif pair.verdict == SUPERSESSION:
            offer(a, b, SUPERSESSION, _supersession(a, b, pair))
        elif pair.verdict == RELATED and (pair.cues or pair.meaning >= RELATED_SAID):
            offer(a, b, RELATED, _related(a, b, pair))
        elif pair.verdict == DUPLICATE:
            alike[pair.key] = _alike(pair)
            offer(a, b, DUPLICATE, _duplicate(a, b, alike[pair.key]))
    for keep, drop, reason in lifecycle.duplicate_pairs(tree):
        key = frozenset((keep.path, drop.path))
        if key in chosen and chosen[key][0] == DUPLICATE:
            # Found both ways (and not dismissed, or it would not be chosen): both reasons.
            chosen[key] = (DUPLICATE, _duplicate(keep, drop, f"{reason}; {alike[key]}"))
            continue
        offer(keep, drop, DUPLICATE, _duplicate(keep, drop, reason))
    findings = sorted((f for _, f in chosen.values()), key=lambda f: (f.check, f.paths))
    return PairFindings(tuple(findings), left_out)


def _alike(pair: SimilarPair) -> str:
    return f"alike in meaning ({pair.meaning:.0%}), wording {pair.wording:.0f}% alike"


def _duplicate(a: Memory, b: Memory, reason: str) -> h.Finding:
    keep, drop = which_to_keep(a, b)
    return h.Finding(
        h.DUPLICATE,
        Severity.WARNING,
        (keep.path, drop.path),
        f"{drop.name} says what {keep.name} says: {reason}",
        h.Fix(
            h.MERGE,
            f"merge {drop.name} into {keep.name} (its topics and references join, it goes to "
            "the trash), or dismiss the pair as not duplicates",
        ),
    )


def _conflict(a: Memory, b: Memory, pair: SimilarPair) -> h.Finding:
    cues = f": {'; '.join(pair.cues)}" if pair.cues else ""
    return h.Finding(
        h.CONFLICT,
        Severity.ERROR,
        (a.path, b.path),
        f"{a.name} and {b.name} are about the same thing ({pair.meaning:.0%} alike in meaning) "
        f"and seem to say opposite things{cues}",
        h.Fix(
            h.RESOLVE_CONFLICT,
            "pick the one that stands (the other goes to the trash), edit one, or dismiss the "
            "pair as not conflicting",
        ),
    )


def _supersession(a: Memory, b: Memory, pair: SimilarPair) -> h.Finding:
    newer, older = (a, b) if pair.newer == a.path else (b, a)
    cues = f" ({'; '.join(pair.cues)})" if pair.cues else ""
    return h.Finding(
        h.SUPERSESSION,
        Severity.WARNING,
        (newer.path, older.path),
        f"{newer.name} may supersede {older.name}: both give a value for the same thing, "
        f"differently{cues}, and {newer.name} was written later",
        h.Fix(
            h.RESOLVE_CONFLICT,
            f"keep the newer (the older goes to the trash, its topics and references join "
            f"{newer.name}), keep both by dismissing the pair, or edit one",
        ),
    )


def _related(a: Memory, b: Memory, pair: SimilarPair) -> h.Finding:
    said = (
        f"but do not say quite the same ({'; '.join(pair.cues)})"
        if pair.cues
        else "in other words, and may say the same"
    )
    return h.Finding(
        h.RELATED,
        Severity.WARNING,
        (a.path, b.path),
        f"{a.name} and {b.name} are about the same thing ({pair.meaning:.0%} alike in meaning) "
        f"{said}: read them side by side",
        h.Fix(
            h.RESOLVE_CONFLICT,
            "keep one (the other goes to the trash), edit one, or dismiss the pair to keep both",
        ),
    )
