"""Pairs of memories close in meaning: copies, possible conflicts, supersessions, related pairs.

Every memory is compared with every other by the cosine of their vectors, a block of rows at a
time (BLOCK rows against the rest: never an n×n matrix, 400 MB at 10,000), keeping what passes
CANDIDATE_MEANING, at most PER_MEMORY per memory (its closest): a tree of many copies of one
memory still gives a list a person can read; a pair that does not stand out from the memories
near each of its two is set aside (STANDOUT). Each candidate then gets its wording (rapidfuzz),
its conflict cues (polarity.py) and what the sameness gate reads of it (sameness.py), and
verdict_of says what it is: a CONFLICT, a SUPERSESSION, a DUPLICATE (a copy in words in which
nothing said differs) or RELATED. A pair with one of the worker's accounts of a session in it
(an account tells what happened, it lays down no rule), and one of two memories tied to
different projects, has a verdict only when as alike as a duplicate: most pairs of a large tree
are such pairs, set aside before any text is made.

The thresholds depend on length. Two long memories on one subject share most of their words
and score cosines short ones never do: distinct memories of 50 words and more score up to 0.85,
where short unrelated ones stay under 0.65. So a pair of short texts (SHORT_WORDS or fewer, the
shorter of the two) is judged by DUPLICATE_MEANING, DUPLICATE_WITH_WORDS and CONFLICT_MEANING;
a pair of long ones (LONG_WORDS or more) by LONG; between, by a straight line from one to the
other. They were chosen on both labelled sets (tests/unit/meaning_labelled.py, short;
meaning_labelled_long.py, long) and the demo tree; their precision and recall are in
bench/README.md ("Meaning").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from rapidfuzz import fuzz, process

from ...basics import progress
from ...basics.model import Memory
from ...basics.schema import SESSION_ANALYSIS
from . import CONFLICT, DUPLICATE, RELATED, SUPERSESSION, SimilarPair
from .polarity import Claims, claims_of, opposition
from .sameness import Said, differences, said
from .text import texts_of
from .vectors import Vectors, words_of

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

T = TypeVar("T")

DUPLICATE_MEANING = 0.75
"""Cosine at which two memories say the same thing whatever their wording."""
DUPLICATE_WITH_WORDS = (0.60, 60.0)
"""Or: a cosine at least this, with wording (rapidfuzz token set ratio) at least this."""
CONFLICT_MEANING = 0.70
"""Cosine from which opposed cues make two memories a possible conflict."""
SHORT_WORDS = 30
"""Words of the shorter text up to which the short thresholds hold (the short set: 8-21)."""
LONG_WORDS = 50
"""Words of the shorter text from which LONG holds (the long set: 37-143; the demo's: 60-150)."""
LONG = (0.855, 0.80, 0.855)
"""For long texts: (duplicate, conflict, duplicate with words). A duplicate above the distinct
memories on one subject (long set 0.78-0.85, demo up to 0.84) and under the paraphrases and
copies (long set 0.86-0.99, demo 0.96-0.98); wording gives no more than meaning does, as long
distinct memories share it too. A conflict above the demo's closest distinct pair with an
opposing marker (0.735) and under all contradictions of the long set but one (0.84-0.999; the
one at 0.665 rewrites half its words)."""
CANDIDATE_MEANING = min(CONFLICT_MEANING, DUPLICATE_WITH_WORDS[0], DUPLICATE_MEANING)
BLOCK = 128
"""Rows per matrix product: BLOCK × n float32, 5 MB at 10,000 memories. A block's candidates
take several times its size; 512 rows were as fast and held 40 MB more at the peak."""
PER_MEMORY = 5
"""At most this many candidates per memory, its closest."""
WORDING_CHARS = 300
"""Characters of each text the wording compares: their openings, where a copy shows."""
NOT_COMPARED = frozenset({"index.md", "index.json"})


def comparable(memories: Sequence[Memory]) -> list[Memory]:
    """The memories to compare: not a project's status files (tasks and work experience say
    where a project stands, and two projects alike in words are two projects), not an index,
    and one record per path."""
    chosen: dict[str, Memory] = {}
    for memory in memories:
        if memory.kind.is_project_kind or memory.name in NOT_COMPARED:
            continue
        chosen.setdefault(memory.path, memory)
    return [chosen[path] for path in sorted(chosen)]


def similar_pairs(memories: Sequence[Memory], vectors: Vectors) -> tuple[SimilarPair, ...]:
    """Every pair given a verdict (verdict_of), best first (most alike, then by path);
    never a memory with itself. Memories without a row in `vectors` are left out. Pure; safe in
    a worker thread."""
    import numpy as np

    chosen = [m for m in comparable(memories) if m.path in vectors.row_of]
    if len(chosen) < 2:
        return ()
    at = np.fromiter((vectors.row_of[m.path] for m in chosen), dtype=np.intp, count=len(chosen))
    if len(at) == len(vectors.paths) and bool((at == np.arange(len(at))).all()):
        matrix, words = vectors.matrix, vectors.words  # the tree's own rows: no copy
    else:
        matrix, words = vectors.matrix[at], vectors.words[at]
    sessions, projects = _apart_codes(chosen)
    # Each block's candidates as arrays (a pair may come from both its rows' blocks).
    found_firsts: list[np.ndarray] = []
    found_seconds: list[np.ndarray] = []
    found_meanings: list[np.ndarray] = []
    count = len(chosen)
    keep = min(PER_MEMORY, count - 1)
    background = np.full(count, -1.0, dtype=np.float64)
    for start in range(0, count, BLOCK):
        progress.report(start, count, COMPARING)
        block = matrix[start : start + BLOCK] @ matrix.T  # (rows, count)
        rows = np.arange(block.shape[0])
        block[rows, rows + start] = -1.0  # never a memory with itself
        if count >= STANDOUT_FROM:
            background[start : start + BLOCK] = _background(block)
        found_rows, found_columns = _closest(block, keep)
        meanings = block[found_rows, found_columns]
        found_rows = found_rows + start
        # What no verdict could keep, by the pair's length, is set aside here, before any text
        # is made: on a tree of one subject most candidates are long memories under LONG.
        shorter = np.minimum(words[found_rows], words[found_columns])
        # A pair with an account of a session in it, or of two projects, has a verdict only
        # when as alike as a duplicate (verdict_of): the most of a large tree is such a pair.
        apart = _apart(sessions, projects, found_rows, found_columns)
        lowest = np.where(apart, alike_thresholds(shorter), lowest_thresholds(shorter))
        worth = np.flatnonzero(meanings >= lowest - SLACK)
        found_firsts.append(np.minimum(found_rows[worth], found_columns[worth]))
        found_seconds.append(np.maximum(found_rows[worth], found_columns[worth]))
        found_meanings.append(meanings[worth])
    ordered = _distinct_pairs(found_firsts, found_seconds, found_meanings, count)
    texts: dict[int, tuple[str, str]] = {}
    claims: dict[int, Claims] = {}
    saids: dict[int, Said] = {}

    def text(i: int) -> str:
        if i not in texts:
            texts[i] = texts_of(chosen[i])
        return texts[i][0]

    def claimed(i: int) -> Claims:
        if i not in claims:
            text(i)
            claims[i] = claims_of(texts[i][1])
        return claims[i]

    def read(i: int) -> Said:
        if i not in saids:
            text(i)
            saids[i] = said(texts[i][1])
        return saids[i]

    if not ordered:
        return ()
    # Every pair's wording in one call, in rapidfuzz's own loop rather than one call a pair.
    wordings = process.cpdist(
        [text(i)[:WORDING_CHARS] for (i, _), _ in ordered],
        [text(j)[:WORDING_CHARS] for (_, j), _ in ordered],
        scorer=fuzz.token_set_ratio,
        dtype=np.float64,  # as the scorer gives it: float32 would round it
    ).tolist()
    progress.report(count, count, COMPARING)
    pairs = []
    for number, (((i, j), meaning), wording) in enumerate(zip(ordered, wordings, strict=True)):
        if number % REPORT_EVERY == 0:
            progress.report(number, len(ordered), JUDGING)
        if meaning < max(background[i], background[j]) + STANDOUT and wording < COPY_WORDING:
            continue  # as alike as memories near them are: the cosine says nothing of the pair
        # A merge copy's text is its original's: what is read of one is the other's too.
        other = i if text(i) == text(j) else j
        pair = judge(
            chosen[i],
            chosen[j],
            text(i),
            text(j),
            meaning,
            partial(_both, claimed, i, other),
            float(wording),
            partial(_both, read, i, other),
        )
        if pair is not None:
            pairs.append(pair)
    progress.report(len(ordered), len(ordered), JUDGING)
    pairs.sort(key=lambda p: (-round(p.meaning, 6), p.first, p.second))
    return tuple(pairs)


STANDOUT = 0.03
STANDOUT_FROM = 12
BACKGROUND_SHARE = 0.02
BACKGROUND_SAMPLE = 500
"""A pair says something only when it stands out from the memories near each of its two: its
cosine at least STANDOUT above each one's background, the cosine of its k-th closest memory
(k: 3, or BACKGROUND_SHARE of the tree, estimated from a sample of BACKGROUND_SAMPLE columns).
Texts drawn from one small stock of words (boilerplate, lorem ipsum, generated filler) all
embed alike, and a pair among them stands out from nothing. In a tree of fewer than
STANDOUT_FROM memories there is no background to stand out from and the rule is off."""
COPY_WORDING = 97.0
"""Wording (token set ratio) of a copy: the same words, give or take a few; a copy is a pair
however crowded (merge copies of one memory collect by the dozen)."""
SLACK = 1e-6
COMPARING = "Comparing {count} memories by meaning"
JUDGING = "Reading {count} close pairs"
REPORT_EVERY = 500
"""Pairs judged between two progress reports."""
"""A pair seen from its two rows has cosines that differ in float32's last bits: what is set
aside is under its threshold by more than that, so the verdict is always judge()'s."""
SPARSE = 0.125
"""Share of a block's cells past CANDIDATE_MEANING over which each row's bar is raised to its
`keep`-th best before the cells are sorted."""
SAMPLE = 500
"""Columns of a crowded block (about) from which each row's bar is raised."""


def _distinct_pairs(
    firsts: list[np.ndarray], seconds: list[np.ndarray], meanings: list[np.ndarray], count: int
) -> list[tuple[tuple[int, int], float]]:
    """Each pair once, in (first, second) order, with the meaning of its last sighting."""
    import numpy as np

    if not firsts:
        return []
    first, second = np.concatenate(firsts), np.concatenate(seconds)
    meaning = np.concatenate(meanings)
    key = first.astype(np.int64) * count + second
    # np.unique keeps each key's first place: of the reversed arrays, its last sighting.
    _, last = np.unique(key[::-1], return_index=True)
    chosen = len(key) - 1 - last  # in key order: by first, then second
    return list(
        zip(
            zip(first[chosen].tolist(), second[chosen].tolist(), strict=True),
            meaning[chosen].tolist(),
            strict=True,
        )
    )


def _closest(block: npt.NDArray[np.float32], keep: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows, columns) of each row's closest `keep` cells at CANDIDATE_MEANING or more, in row
    order (a row with at most `keep` such cells keeps them all). The best are chosen among the
    passing cells alone. When most cells pass (a tree of one subject written again and again),
    each row's bar is first raised to its `keep`-th best of a sample of its cells, so a few
    cells a row are left to sort, not all."""
    import numpy as np

    passing = block >= CANDIDATE_MEANING
    if np.count_nonzero(passing) > SPARSE * block.size:
        # A row's `keep`-th best among some of its cells is at most its `keep`-th best of all:
        # a bar that keeps all its best and few others, found from a sample of the columns.
        step = max(1, block.shape[1] // SAMPLE)
        kth = np.partition(block[:, ::step], -keep, axis=1)[:, -keep]
        passing = block >= np.maximum(kth, CANDIDATE_MEANING)[:, None]
    # Flat indices of the cells, by row then column (a third of a 2-D nonzero's time).
    cells = np.flatnonzero(passing)
    rows = cells // block.shape[1]
    # By row, then best first (ties by column: the sort is stable); the first `keep` of each.
    # One key of both, as a sort of one float64 key is several times a lexsort's speed: a
    # cosine is within [-1, 1], so 4 × row keeps the rows apart.
    order = np.argsort(rows * 4.0 - block.ravel()[cells], kind="stable")
    cells, rows = cells[order], rows[order]
    counts = np.bincount(rows, minlength=block.shape[0])
    rank = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts, counts)
    best = rank < keep
    return rows[best], cells[best] % block.shape[1]


def _background(block: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Each row's background (see STANDOUT): its k-th best cosine among a sample of columns."""
    import numpy as np

    step = max(1, block.shape[1] // BACKGROUND_SAMPLE)
    sample = block[:, ::step]
    k = min(sample.shape[1], max(3, round(BACKGROUND_SHARE * sample.shape[1])))
    return np.partition(sample, -k, axis=1)[:, -k]


def lowest_thresholds(words: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """For pairs whose shorter text has `words` words, the lowest cosine any verdict of
    verdict_of takes (thresholds(), for an array)."""
    import numpy as np

    share = np.clip((words - SHORT_WORDS) / (LONG_WORDS - SHORT_WORDS), 0.0, 1.0)
    short = np.array((DUPLICATE_MEANING, CONFLICT_MEANING, DUPLICATE_WITH_WORDS[0]))
    long = np.array(LONG)
    return (short + share[:, None] * (long - short)).min(axis=1)


def alike_thresholds(words: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """For pairs whose shorter text has `words` words, the lowest cosine at which verdict_of
    calls them alike (a duplicate's, with or without words): all a pair that can only be
    related may take."""
    import numpy as np

    share = np.clip((words - SHORT_WORDS) / (LONG_WORDS - SHORT_WORDS), 0.0, 1.0)
    short = np.array((DUPLICATE_MEANING, DUPLICATE_WITH_WORDS[0]))
    long = np.array((LONG[0], LONG[2]))
    return (short + share[:, None] * (long - short)).min(axis=1)


def _apart_codes(chosen: Sequence[Memory]) -> tuple[np.ndarray, np.ndarray]:
    """Per memory, a code of its session (0: not a session analysis; -1: one without an id)
    and of its project (0: none), for _apart to compare a block's pairs at once."""
    import numpy as np

    codes: dict[str, int] = {}
    sessions = np.zeros(len(chosen), dtype=np.int64)
    projects = np.zeros(len(chosen), dtype=np.int64)
    for number, memory in enumerate(chosen):
        if memory.type == SESSION_ANALYSIS:
            session = memory.frontmatter.get("session_id")
            sessions[number] = (
                -1 if session is None else codes.setdefault(f"s{session}", len(codes) + 1)
            )
        if memory.project:
            projects[number] = codes.setdefault(f"p{memory.project}", len(codes) + 1)
    return sessions, projects


def _apart(
    sessions: np.ndarray, projects: np.ndarray, rows: np.ndarray, columns: np.ndarray
) -> np.ndarray:
    """For each pair (rows[i], columns[i]): _an_account or _two_projects, as an array."""
    one, other = sessions[rows], sessions[columns]
    account = ((one != 0) | (other != 0)) & ~((one == other) & (one > 0))
    one, other = projects[rows], projects[columns]
    return account | ((one != 0) & (other != 0) & (one != other))


def _both(read: Callable[[int], T], i: int, j: int) -> tuple[T, T]:
    return read(i), read(j)


def judge(
    first: Memory,
    second: Memory,
    first_text: str,
    second_text: str,
    meaning: float,
    claims: Callable[[], tuple[Claims, Claims]] | None = None,
    wording: float | None = None,
    said_of: Callable[[], tuple[Said, Said]] | None = None,
) -> SimilarPair | None:
    """The verdict on two memories `meaning` alike (first's path before second's), or None;
    `claims`, when given, gives those of the two texts (read once per memory by the caller,
    and only for a pair close enough to be a conflict), `said_of` what the sameness gate reads
    of them likewise; `wording`, when given, is their wording (worked out here otherwise)."""
    meaning = max(0.0, min(1.0, meaning))
    if meaning < CANDIDATE_MEANING:
        return None
    if wording is None:
        wording = wording_of(first_text, second_text)

    def both() -> tuple[Claims, Claims]:
        if claims is not None:
            return claims()
        return claims_of(texts_of(first)[1]), claims_of(texts_of(second)[1])

    def both_said() -> tuple[Said, Said]:
        if said_of is not None:
            return said_of()
        return said(texts_of(first)[1]), said(texts_of(second)[1])

    words = min(words_of(first_text), words_of(second_text))
    newer = _newer(first, second)
    verdict = verdict_of(
        meaning,
        wording,
        both,
        words,
        both_said,
        ordered=newer is not None,
        accounts=_an_account(first, second),
        projects=_two_projects(first, second),
    )
    if verdict is None:
        return None
    kind, cues = verdict
    return SimilarPair(
        first=first.path,
        second=second.path,
        meaning=meaning,
        wording=wording,
        verdict=kind,
        cues=cues,
        first_digest=first.digest,
        second_digest=second.digest,
        newer=newer.path if kind == SUPERSESSION and newer is not None else "",
    )


def _an_account(first: Memory, second: Memory) -> bool:
    """One of the two is the worker's account of a session, and not the other's copy: both of
    one session are one account (a merge copy beside its original)."""
    one, other = first.type == SESSION_ANALYSIS, second.type == SESSION_ANALYSIS
    if not (one or other):
        return False
    if not (one and other):
        return True
    ids = (first.frontmatter.get("session_id"), second.frontmatter.get("session_id"))
    return ids[0] is None or ids[1] is None or str(ids[0]) != str(ids[1])


def _two_projects(first: Memory, second: Memory) -> bool:
    """Each is tied to a project, and not the same one."""
    return bool(first.project and second.project and first.project != second.project)


def _newer(first: Memory, second: Memory) -> Memory | None:
    """The later written of the two by their dates; None when a date is missing or they agree."""
    if first.date is None or second.date is None or first.date == second.date:
        return None
    return first if first.date > second.date else second


def wording_of(first_text: str, second_text: str) -> float:
    """How alike two texts are in words, 0-100: rapidfuzz's token set ratio of their openings."""
    return float(fuzz.token_set_ratio(first_text[:WORDING_CHARS], second_text[:WORDING_CHARS]))


def verdict_of(
    meaning: float,
    wording: float,
    claims: Callable[[], tuple[Claims, Claims]],
    words: int = 0,
    said_of: Callable[[], tuple[Said, Said]] | None = None,
    ordered: bool = False,
    accounts: bool = False,
    projects: bool = False,
) -> tuple[str, tuple[str, ...]] | None:
    """The verdict and its cues for two texts of this meaning and wording, the shorter of
    `words` words (0: short), `ordered` when their dates say which is newer; None for no pair.
    `claims` gives what each says (polarity.py), `said_of` what the sameness gate reads
    (sameness.py); each is asked only when the meaning makes it matter. `accounts`: one of the
    two (or each, of its own session) is the worker's account of a session, which tells what
    happened rather than lays down a rule: opposed words make a conflict only when the two are
    as alike as a duplicate, and the numbers an account gives (tests added, minutes, requests)
    never make a supersession. `projects`:
    each is tied to its own project, where a rule and its opposite, or two values of a setting,
    hold apart: the two are at most related.

    - Opposed in polarity: a CONFLICT. Only in a setting's values: a SUPERSESSION when dated
      apart, else a CONFLICT.
    - Alike enough for a merge and nothing said differs (sameness.py): a DUPLICATE.
    - Alike enough, but a value differs or one says a change ("switched to", "raised"): a
      SUPERSESSION when dated apart; only a value, in two undated texts worded nearly alike: a
      CONFLICT; anything else that differs: RELATED, to read side by side. The
      markers the gate reads are words, not claims: they may only make a verdict say less.
    """
    duplicate, conflict, with_words = thresholds(words)
    alike = meaning >= duplicate or (meaning >= with_words and wording >= DUPLICATE_WITH_WORDS[1])
    if meaning >= conflict and not projects:
        polarity, values = opposition(*claims()) if alike or not accounts else ((), ())
        if polarity:
            return CONFLICT, tuple(sorted(polarity + values))
        # A setting given two values says two memories disagree only when they are about the
        # same thing, as alike as a duplicate: "retries: 3" in two runbooks of one subject is
        # two settings.
        if values and alike and not accounts:
            return (SUPERSESSION if ordered else CONFLICT), tuple(sorted(values))
    if not alike:
        return None
    if said_of is None:
        return DUPLICATE, ()
    long = words >= LONG_WORDS
    if long and wording < MERGE_WORDING:
        # Related whatever the gate reads (below), and its markers alone are no cue worth
        # reading both texts again for: most pairs of a large tree end here.
        return RELATED, ()
    apart = differences(*said_of())
    if not apart:
        return (DUPLICATE, ()) if wording >= MERGE_WORDING else (RELATED, ())
    if long:
        # A long memory gives many numbers and tells of changes in passing: unnamed, they are
        # details each tells (tests added, requests served), not one thing given two values,
        # and only its markers are worth a cue.
        return RELATED, apart.markers
    if accounts or projects:
        return RELATED, apart.cues  # numbers in accounts of two sessions are not settings
    # In a short memory a number or a change is its claim.
    if ordered and (apart.values or apart.changed):
        return SUPERSESSION, apart.cues
    if apart.values and not apart.markers and wording >= NEAR_IDENTICAL:
        return CONFLICT, apart.cues
    return RELATED, apart.cues


MERGE_WORDING = 97.0
"""Wording (token set ratio) from which a pair the gate passes is offered for a merge. The model
averages word vectors: it hears "returns 404" and "does not return 404", or "tag, then bump" and
"bump, then tag", alike, and the gate reads only the words it knows. On the held-out set
(bench/README.md, "Meaning") a merge offered on meaning alone was wrong two times in three; one
offered on meaning and close wording is the same memory edited or copied. Pairs alike in
meaning but worded apart are shown as related, to read side by side."""
NEAR_IDENTICAL = 85.0
"""Wording (token set ratio) from which two undated texts differing in a value say the same
sentence with another number: a conflict, where texts worded apart are only related."""


def thresholds(words: int) -> tuple[float, float, float]:
    """(duplicate, conflict, duplicate with words) cosines for texts of `words` words: the short
    ones up to SHORT_WORDS, the LONG ones from LONG_WORDS, in a straight line between."""
    if words <= SHORT_WORDS:
        return DUPLICATE_MEANING, CONFLICT_MEANING, DUPLICATE_WITH_WORDS[0]
    if words >= LONG_WORDS:
        return LONG
    share = (words - SHORT_WORDS) / (LONG_WORDS - SHORT_WORDS)
    short = (DUPLICATE_MEANING, CONFLICT_MEANING, DUPLICATE_WITH_WORDS[0])
    one, two, three = (low + share * (high - low) for low, high in zip(short, LONG, strict=True))
    return one, two, three
