"""Search a tree's memories: keys precomputed once, queries answered from token postings.

`Answering` is the query path itself, over hooks that hand it the keys; `SearchIndex` keeps them
in memory, core/views/search_store.py in SQLite tables, and both answer through the same code.

Every field is casefolded and cut into alphanumeric tokens; a posting maps a token to the memories
holding it. A query word is looked up in the sorted vocabulary (exact word, then word prefix), then
inside longer words, then, for typos, with rapidfuzz over the alphabetic vocabulary (one edit,
a swap of two neighbouring letters counting as one, in words of TYPO_MIN letters or more). No
memory's text is scanned for a word: the cost of a query is the vocabulary plus the memories it
matches, and ranking works on groups of equal score (few, since scores come from a handful of match
qualities) so that a query matching everything still does little per memory.

The body counts for less and only by whole words and word prefixes of its first BODY_CHARS
characters (kept casefolded, for phrases): enough to find what a memory is about while bounding
the index to about that much text per memory.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from abc import ABC, abstractmethod
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from itertools import chain, compress, islice
from operator import methodcaller
from typing import Any, Literal, cast

from rapidfuzz import process
from rapidfuzz.distance import OSA, Indel

from ..basics.model import Kind, Memory
from .query import Query, QueryError, Term, Value, check_held, parse

BODY_CHARS = 1000
"""How much of a body is searched: a memory states its point first."""

WEIGHTS = {"title": 1.0, "name": 0.8, "topics": 0.6, "project": 0.6, "body": 0.3}
FIELDS = tuple(WEIGHTS)
"""The searched fields, heaviest first; each has its postings and a column of texts."""
HEAD_FIELDS = ("title", "name", "topics", "project")
"""Fields matched inside words and with typos; the body only by words and prefixes."""

# Match quality of a word in a field, before the field's weight.
EXACT = 1.0  # a whole word
PREFIX = 0.9  # the start of a word
INSIDE = 0.7  # inside a word
FUZZY = 0.6  # with a typo: below every literal match

INSIDE_MIN = 3
"""Shorter words match only at word starts: "ci" must not find every "decision"."""
TYPO_MIN = 4
"""Shorter words get no typo tolerance: one edit in three letters ("ci"/"cli", "log"/"lag") is
nearly always another word. From four letters one edit is forgiven ("rety" finds "retry")."""
TYPO_EDITS = 1
"""Edits forgiven (insert, delete, substitute, or swap two neighbouring letters): two would find
"test" in "rust"."""

EXACT_TITLE_SCORE = 100.0
MATCH_SCALE = 85.0
TITLE_STARTS_BONUS = 10.0
TITLE_CONTAINS_BONUS = 5.0
"""Scores run 0-100: the mean match quality of the words fills 85, the whole query found in the
title adds 10 at its start or 5 elsewhere, and only an exact title reaches 100."""

HEAD_QUALITY = max(WEIGHTS[field] for field in HEAD_FIELDS) * EXACT
BODY_QUALITY = WEIGHTS["body"] * EXACT
"""The best weighted quality of a term matched outside the body, and of one only in it."""

IMPORTANCE_RANK = {"high": 0, "medium": 1, "low": 2}
SORT_DIRECTLY = 512
"""A score group this small is sorted into tie order; a larger one is read off the kept order."""
_TOKEN = re.compile(r"[^\W_]+")
_SPAN_WORD = re.compile(r"(?:[^\W_]|[\u0300-\u036f])+")
"""A word as a highlight sees it: letters with their combining marks ("i̇" of a folded "İ")."""


@dataclass(frozen=True)
class Hit:
    """One matching memory; `title_spans` are (start, end) offsets into `memory.title`."""

    path: str
    score: float
    title_spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class SearchResult:
    """The best hits, how many matched before the limit, or why the query could not be read."""

    hits: tuple[Hit, ...] = ()
    total: int = 0
    error: str | None = None


@dataclass(frozen=True)
class SplitResult:
    """One search over every memory, split by scope: how many match in each, the best hits of the
    scopes asked for (each its own SearchResult), and which of the paths asked about match."""

    totals: dict[Scope, int]
    ranked: dict[Scope, SearchResult]
    matching: frozenset[str] = frozenset()
    error: str | None = None


@dataclass(frozen=True)
class Entry:
    path: str
    title_cf: str
    """The casefolded title, character for character as long as `title_owner` says."""
    title_owner: tuple[int, ...] | None
    """Index into the original title of each casefolded character; None when they are 1:1."""
    tie_key: tuple[int, int, int, str]
    memory: Memory | None = None
    """The record itself, where the keeper holds it (the in-memory index does)."""


Posting = int | Sequence[int]
"""The slots holding a token or a filter value: a bitset (bit i for slot i) where many do, the
slots themselves where few do (a bitset costs a bit for every memory, held or not)."""

SPARSE = 64
"""Postings of up to this many slots are kept as slots, larger ones as bitsets."""


class _Match:
    """Where one query term matched: per weighted match quality the memories it holds (bitsets),
    the memories whose title holds the term literally (they may earn the title bonus), and those
    it matched in a field other than the body."""

    def __init__(
        self,
        weighted: dict[float, int],
        in_title: int,
        in_head: int,
        title_word_starts: int | None = None,
    ) -> None:
        self.weighted = weighted
        self.in_title = in_title
        self.in_head = in_head
        self.title_word_starts = title_word_starts
        """For a plain word, the titles with a word starting with it (None for a phrase)."""
        self._slots: int | None = None

    @property
    def slots(self) -> int:
        """Every memory the term matched."""
        if self._slots is None:
            self._slots = _or(self.weighted.values())
        return self._slots

    def classes(self, among: int) -> list[tuple[float, int]]:
        """Those of among the term matched, split by their best weighted quality, best first."""
        classes: list[tuple[float, int]] = []
        left = among
        for value in sorted(self.weighted, reverse=True):
            held = left & self.weighted[value]
            if held:
                classes.append((value, held))
                left ^= held
        return classes


Scope = Kind | Literal["all", "critical"]
"""A part of the tree a split search counts and ranks: one kind, every memory, or the critical."""
SCOPES: tuple[Scope, ...] = (*Kind, "all", "critical")


def forgives_typo(word: str) -> bool:
    """Whether a query word gets typo tolerance: TYPO_MIN letters or more, letters only.

    Words with digits get none: 1243 is not a typo of 1234."""
    return len(word) >= TYPO_MIN and word.isalpha()


def is_typo(word: str, token: str) -> bool:
    """Whether token is word with one edit: a letter inserted, deleted or changed, or two
    neighbouring letters swapped (the optimal string alignment distance, in C)."""
    return word != token and OSA.distance(word, token, score_cutoff=TYPO_EDITS) <= TYPO_EDITS


class Answering(ABC):
    """The query path over postings, whatever keeps them: matching, filters, ranking, spans.

    A subclass supplies the keys through the hooks below (the in-memory SearchIndex from its
    lists and dicts, the SQLite search store from its tables, read as a query needs them), so both
    answer every query with the same code and so the same hits, scores and order.

    Sets of memories are bitsets (Python ints, bit i for slot i): unions, intersections and counts
    over a whole tree are a few C loops over machine words, and slots are read out of a bitset only
    for the few memories a ranking shows or a test must look at.
    """

    _postings: Mapping[str, Mapping[str, Posting]]
    """Per field, token -> the slots holding it."""

    def __init__(self, today: dt.date) -> None:
        self._today = today
        self._lock = threading.Lock()
        self._version = 0
        """Bumped by every change, so a kept answer is never one of an older index."""
        self._last_matched: tuple[Query, int, int, list[_Match]] | None = None
        """The last query's matches: the tabs' rankings of one query look its words up once."""

    # Hooks: what a keeper of search keys supplies

    def _reading(self) -> AbstractContextManager[object]:
        """Held while a query reads the keys: no change may land halfway through one."""
        return self._lock

    @abstractmethod
    def _head_prefixed(self, prefix: str) -> Iterable[str]:
        """Head-field tokens starting with prefix."""

    @abstractmethod
    def _body_prefixed(self, prefix: str) -> Iterable[str]:
        """Body tokens starting with prefix."""

    @abstractmethod
    def _head_lines(self) -> str:
        """The head vocabulary one token a line, a newline before the first and after the last."""

    @abstractmethod
    def _typo_words(self, length: int) -> list[str]:
        """The alphabetic head tokens of that length."""

    @abstractmethod
    def _facet(self, field: str) -> Mapping[Value, Posting]:
        """A filter's values, each with the slots holding it."""

    @abstractmethod
    def _all_slots(self) -> int:
        """Every indexed memory's slot, as a bitset."""

    @abstractmethod
    def _slot_bound(self) -> int:
        """A number above every slot."""

    @abstractmethod
    def _texts_holding(self, position: int, slots: Iterable[int], text: str) -> dict[int, str]:
        """Of those slots, the ones whose casefolded FIELDS[position] holds text, with that."""

    @abstractmethod
    def _title_keys_of(self, slots: Iterable[int]) -> Mapping[int, str] | list[str]:
        """The `words_key` of the title of at least those slots, by slot."""

    @abstractmethod
    def _tie_order(self) -> Sequence[int]:
        """Every slot in tie order."""

    @abstractmethod
    def _entry(self, slot: int) -> Entry: ...

    @abstractmethod
    def _slot_of_path(self, path: str) -> int:
        """The slot of the memory at path; -1 when it is not indexed."""

    def _prefetch_entries(self, slots: Iterable[int]) -> None:
        """A hint that the entries of these slots are about to be read (kept in memory: none)."""
        return

    def _prefetch_postings(self, tokens: Iterable[str]) -> None:
        """A hint that the head-field postings of these tokens are about to be read."""
        return

    # Queries

    def search(self, query: str | Query, limit: int | None = None) -> SearchResult:
        """The memories matching query, best first; a malformed query gives `error`, no hits."""
        if isinstance(query, str):
            try:
                query = parse(query)
            except QueryError as error:
                return SearchResult(error=str(error))
        with self._reading():
            try:
                check_held(query, self._facet)
            except QueryError as error:
                return SearchResult(error=str(error))
            matched, matches = self._matched(query)
            return self._ranked(matched, matches, query, limit)

    def search_split(
        self,
        query: str | Query,
        rank: Iterable[Scope] = (),
        limit: int | None = None,
        among: Iterable[str] = (),
    ) -> SplitResult:
        """One search over every memory, split: the count of every scope, the best `limit` hits of
        each scope in `rank` (ranked as `search` ranks them), and the paths of `among` that match.

        The words are looked up once; a count costs one bitset intersection, so every tab can show
        its count while only the tabs asked for are ranked.
        """
        if isinstance(query, str):
            try:
                query = parse(query)
            except QueryError as error:
                return SplitResult({scope: 0 for scope in SCOPES}, {}, error=str(error))
        with self._reading():
            try:
                check_held(query, self._facet)
            except QueryError as error:
                return SplitResult({scope: 0 for scope in SCOPES}, {}, error=str(error))
            matched, matches = self._matched(query)
            kinds = self._facet("kind")
            subsets: dict[Scope, int] = {
                kind: matched & bitset(kinds.get(kind, 0)) for kind in Kind
            }
            subsets["all"] = matched
            subsets["critical"] = matched & bitset(self._facet("critical").get(True, 0))
            slot_of = self._slot_of_path
            return SplitResult(
                {scope: slots.bit_count() for scope, slots in subsets.items()},
                {scope: self._ranked(subsets[scope], matches, query, limit) for scope in rank},
                frozenset(path for path in among if _holds(matched, slot_of(path))),
            )

    # Answering

    def _matched(self, query: Query) -> tuple[int, list[_Match]]:
        """The memories matching every wanted term and filter and no excluded term, and where
        each wanted term matched (none for a query of filters only)."""
        last = self._last_matched
        if last is not None and last[0] == query and last[1] == self._version:
            return last[2], last[3]
        matched, matches = self._match_query(query)
        self._last_matched = (query, self._version, matched, matches)
        return matched, matches

    def _match_query(self, query: Query) -> tuple[int, list[_Match]]:
        allowed = self._filtered(query)
        excluded = _or(self._match(term, typos=False).slots for term in query.excluded)
        matches = [self._match(term, typos=True) for term in query.wanted]
        if matches:
            matched = matches[0].slots
            for match in matches[1:]:
                matched &= match.slots
            if allowed is not None:
                matched &= allowed
        else:
            matched = self._all_slots() if allowed is None else allowed
        return matched & ~excluded, matches

    def _ranked(
        self, matched: int, matches: list[_Match], query: Query, limit: int | None
    ) -> SearchResult:
        """The best `limit` of the matched memories, best first."""
        wanted = query.wanted
        total = matched.bit_count()
        if not matches:
            # Nothing to score: the tie order, read until the limit is reached.
            slots = self._in_tie_order(matched, limit) if limit != 0 else []
            self._prefetch_entries(slots)
            return SearchResult(tuple(Hit(self._entry(s).path, 0.0) for s in slots), total)
        text = words_key(query.text)
        groups = None
        if limit is not None and len(matches) > 1:
            # Most of a large result is usually memories matched only in their bodies, which score
            # below the head matches. Rank first the memories matched in the head by the most
            # terms; when enough of them outscore anything the others could reach, the others
            # need no score. (One term needs no per-memory sums, so there this would cost more
            # than it saves.)
            for tier, ceiling in self._head_tiers(matched, matches):
                size = tier.bit_count()
                if size < limit:
                    continue
                if size == total:
                    break
                groups = self._groups(tier, matches, text, limit)
                above = sum(slots.bit_count() for score, slots in groups.items() if score > ceiling)
                if above >= limit:
                    break
                groups = None
        if groups is None:
            groups = self._groups(matched, matches, text, limit)
        hits: list[Hit] = []
        for score in sorted(groups, reverse=True):
            need = None if limit is None else limit - len(hits)
            if need is not None and need <= 0:
                break
            ordered = self._in_tie_order(groups[score], need)
            self._prefetch_entries(ordered)
            hits.extend(
                Hit(self._entry(slot).path, score, title_spans(self._entry(slot), wanted))
                for slot in ordered
            )
        return SearchResult(tuple(hits), total)

    def _head_tiers(self, matched: int, matches: list[_Match]) -> Iterator[tuple[int, float]]:
        """For k from every term down to one: the matched memories that k terms or more matched
        outside the body, and the best score any other memory can have.

        A memory fewer than k terms matched in the head has at least the others in its body
        alone (worth BODY_QUALITY at best) and earns no title bonus (that needs every term in
        the title), so it cannot beat the ceiling.
        """
        count = len(matches)
        at_least = [matched, *(0 for _ in matches)]
        for match in matches:
            head = matched & match.in_head
            for k in range(count, 0, -1):
                at_least[k] |= at_least[k - 1] & head
        for k in range(count, 0, -1):
            best = ((k - 1) * HEAD_QUALITY + (count - k + 1) * BODY_QUALITY) / count
            # The nudge keeps float rounding from putting the ceiling below a reachable score.
            yield at_least[k], round(MATCH_SCALE * min(1.0, best + 1e-9), 1)

    def _groups(
        self, matched: int, matches: list[_Match], text: str, limit: int | None
    ) -> dict[float, int]:
        """The matched memories that can make the first `limit` hits, grouped by score.

        Scores take few distinct values: the memories are split by the best quality each term
        found in them (one intersection per combination that holds any), each combination is
        counted, titles earning a bonus counted apart, and only the scores the limit reaches
        are kept.
        """
        combos: list[tuple[tuple[float, ...], int]] = [((), matched)]
        for match in matches:
            split = []
            for qualities, slots in combos:
                for value, held in match.classes(slots):
                    split.append(((*qualities, value), held))
            combos = split
        count = len(matches)
        by_total: dict[float, int] = {}
        for qualities, slots in combos:
            total = sum(qualities)
            by_total[total] = by_total.get(total, 0) | slots
        scores = {total: round(MATCH_SCALE * min(1.0, total / count), 1) for total in by_total}
        sizes: Counter[float] = Counter()
        boosted: list[tuple[float, int]] = []
        titled = matched
        for match in matches:
            titled &= match.in_title
        plain = dict(by_total)
        if len(matches) == 1 and matches[0].title_word_starts is not None:
            # One word: the titles holding it from a word start are known from the postings.
            contains: int | None = titled & matches[0].title_word_starts
        else:
            contains = None
        for bonus, given in self._title_bonus(titled, text, contains):
            if not given:
                continue
            for total, held in by_total.items():
                part = held & given
                if part:
                    score = EXACT_TITLE_SCORE if bonus is None else round(scores[total] + bonus, 1)
                    sizes[score] += part.bit_count()
                    boosted.append((score, part))
                    plain[total] &= ~given
        for total, slots in plain.items():
            sizes[scores[total]] += slots.bit_count()
        floor = -1.0
        if limit is not None:
            shown = 0
            for score in sorted(sizes, reverse=True):
                shown += sizes[score]
                if shown >= limit:
                    floor = score
                    break
        groups: dict[float, int] = {}
        for score, slots in chain(boosted, ((scores[t], s) for t, s in plain.items())):
            if slots and score >= floor:
                groups[score] = groups.get(score, 0) | slots
        return groups

    def _title_bonus(
        self, slots: int, text: str, contains: int | None
    ) -> list[tuple[float | None, int]]:
        """Titles holding the query's words in order from a word start, by bonus: None for an
        exact title (the same words, whatever the case and punctuation), then starts, contains.
        `contains`, when given, is those of slots already known to hold them.
        Every test runs in C over the whole list (map and compress), not once per memory."""
        if not slots:
            return []
        if contains is None:
            listed = slots_of(slots)
            keys = self._title_keys_of(listed)
            holding = _where(listed, keys, methodcaller("__contains__", text))
            contains = bitset(holding)
        else:
            holding = slots_of(contains)
            keys = self._title_keys_of(holding)
        starts = _where(holding, keys, methodcaller("startswith", text))
        exact = bitset(_where(starts, keys, text.__eq__))
        started = bitset(starts)
        return [
            (None, exact),
            (TITLE_STARTS_BONUS, started & ~exact),
            (TITLE_CONTAINS_BONUS, contains & ~started),
        ]

    def _in_tie_order(self, slots: int, need: int | None) -> list[int]:
        """Up to `need` of slots, critical first, then by importance, recency and path."""
        if need is None or slots.bit_count() <= SORT_DIRECTLY:
            listed = slots_of(slots)
            self._prefetch_entries(listed)
            ordered = sorted(listed, key=lambda slot: self._entry(slot).tie_key)
            return ordered[:need]
        # Many: walk the kept order, each slot tested in C against the bitset's flags.
        order = self._tie_order()
        flags = flags_of(slots, self._slot_bound())
        return list(islice(compress(order, map(flags.__getitem__, order)), need))

    def _filtered(self, query: Query) -> int | None:
        """The memories every filter lets through; None when there are no filters."""
        allowed: int | None = None
        for item in query.filters:
            # Decide per distinct value (a few importances, some hundred dates), not per memory.
            facet = self._facet(item.field)
            passing = union_of(facet[value] for value in facet if item.accepts(value))
            if item.negated:
                allowed = (self._all_slots() if allowed is None else allowed) & ~passing
            else:
                allowed = passing if allowed is None else allowed & passing
        return allowed

    def _match(self, term: Term, typos: bool) -> _Match:
        """Where the term matches; a word with punctuation in it matches as written, a phrase."""
        if term.phrase or not _TOKEN.fullmatch(term.text):
            return self._phrase_match(term.text)
        return self._word_match(term.text, typos)

    def _head_tokens(self, word: str, inside_min: int) -> dict[str, float]:
        """Head-field tokens holding the word literally, with the quality of each."""
        found = {t: EXACT if t == word else PREFIX for t in self._head_prefixed(word)}
        if len(word) >= inside_min:
            lines = self._head_lines()
            at = lines.find(word)
            while at >= 0:
                start = lines.rfind("\n", 0, at) + 1
                end = lines.find("\n", at)
                found.setdefault(lines[start:end], INSIDE)
                at = lines.find(word, end)
        return found

    def _word_match(self, word: str, typos: bool) -> _Match:
        found = self._head_tokens(word, INSIDE_MIN)
        self._prefetch_postings(found)
        titles = self._postings["title"]
        in_title = union_of(titles[t] for t in found if t in titles)
        word_starts = union_of(titles[t] for t, q in found.items() if q != INSIDE and t in titles)
        if typos and forgives_typo(word):
            # One C pass over the words one letter shorter, as long, or one letter longer.
            near = [self._typo_words(len(word) + step) for step in (-1, 0, 1)]
            for token, _distance, _ in process.extract(
                word, list(chain(*near)), scorer=OSA.distance, score_cutoff=TYPO_EDITS, limit=None
            ):
                found.setdefault(token, FUZZY)
        self._prefetch_postings(found)
        weighted = _by_value(
            (WEIGHTS[field] * quality, self._postings[field][token])
            for field in HEAD_FIELDS
            for token, quality in found.items()
            if token in self._postings[field]
        )
        in_head = _or(weighted.values())
        body = self._postings["body"]
        for value, slots in _by_value(
            (WEIGHTS["body"] * (EXACT if t == word else PREFIX), body[t])
            for t in self._body_prefixed(word)
        ).items():
            weighted[value] = weighted.get(value, 0) | slots
        return _Match(weighted, in_title, in_head, word_starts)

    def _phrase_match(self, phrase: str) -> _Match:
        """Memories holding the phrase contiguous; per field, only where all its words are."""
        words = _TOKEN.findall(phrase)
        head = [self._head_tokens(word, inside_min=1) for word in words]
        self._prefetch_postings({token for tokens in head for token in tokens})
        weighted: dict[float, int] = {}
        in_title = in_head = 0
        for position, field in enumerate(FIELDS):
            postings = self._postings[field]
            if not words:
                candidates = self._all_slots()
            else:
                if field == "body":
                    sets = [_union(postings, self._body_prefixed(w)) for w in words]
                else:
                    sets = [_union(postings, tokens) for tokens in head]
                candidates = sets[0]
                for slots in sets[1:]:
                    candidates &= slots
            if not candidates:
                continue
            texts = self._texts_holding(position, slots_of(candidates), phrase)
            graded: dict[float, list[int]] = {}
            for slot, found in texts.items():
                graded.setdefault(occurrence(found, phrase)[0], []).append(slot)
            # As for words, the body counts only where the phrase starts a word.
            if field == "body":
                graded.pop(INSIDE, None)
            else:
                in_head |= bitset(texts)
            if field == "title":
                in_title |= bitset(texts)
            for quality, graded_slots in graded.items():
                value = WEIGHTS[field] * quality
                weighted[value] = weighted.get(value, 0) | bitset(graded_slots)
        return _Match(weighted, in_title, in_head)


class SearchIndex(Answering):
    """The search keys of every memory of a tree, built once.

    `updated` and `removed` change the index in place and touch only that memory's keys. A lock
    makes every method safe to call from any thread (a search never sees half an update).
    """

    def __init__(self, today: dt.date) -> None:
        super().__init__(today)
        self._entries: list[Entry | None] = []
        self._free: list[int] = []
        self._slot_of: dict[str, int] = {}
        self._live = 0
        """Every indexed slot, as a bitset."""
        self._texts: tuple[list[str], ...] = tuple([] for _ in FIELDS)
        """Per field, by slot: the casefolded text (flat lists, cheap to walk for phrases)."""
        self._title_keys: list[str] = []
        """By slot: the title's words as `words_key` gives them."""
        self._postings: dict[str, dict[str, Posting]] = {field: {} for field in WEIGHTS}
        self._head_vocab: list[str] = []
        self._head_text: str | None = None
        """The head vocabulary one token a line, to find words inside tokens in one C scan."""
        self._typo_vocab: dict[int, list[str]] = {}
        """The alphabetic head vocabulary by length, sorted: one edit changes a length by at most
        one, so a typo is looked for among three lengths only."""
        self._body_vocab: list[str] = []
        self._facets: dict[str, dict[Value, Posting]] = {}
        self._tie_keys: list[tuple[int, int, int, str]] = []
        self._order: list[int] = []
        """Every slot in tie order, with its key at the same index of `_tie_keys` (a flat list of
        ints, so walking it stays cheap)."""

    @classmethod
    def build(cls, memories: Iterable[Memory], today: dt.date) -> SearchIndex:
        """Index every memory; `today` is the day `age:` filters count from."""
        index = cls(today)
        # While building, postings grow as lists; each becomes slots or a bitset once at the end.
        for memory in memories:
            index._add(memory, building=True)
        tables: list[dict[Any, Posting]] = [*index._postings.values(), *index._facets.values()]
        for table in tables:
            for key, slots in table.items():
                table[key] = _settled(cast("list[int]", slots))  # a list until it is settled
        index._live = bitset(index._slot_of.values())
        index._tie_keys.sort()
        index._order = [index._slot_of[key[-1]] for key in index._tie_keys]
        heads = set().union(*(index._postings[field] for field in HEAD_FIELDS))
        index._head_vocab = sorted(heads)
        for token in sorted(t for t in heads if t.isalpha()):
            index._typo_vocab.setdefault(len(token), []).append(token)
        index._body_vocab = sorted(index._postings["body"])
        return index

    def __len__(self) -> int:
        return len(self._slot_of)

    def updated(self, memory: Memory) -> None:
        """Add a memory, or replace the one at the same path (in place)."""
        with self._lock:
            if memory.path in self._slot_of:
                self._remove(self._slot_of[memory.path])
            self._add(memory, building=False)

    def removed(self, path: str) -> None:
        """Forget the memory at path (in place); nothing happens if it is not indexed."""
        with self._lock:
            if path in self._slot_of:
                self._remove(self._slot_of[path])

    # The hooks of Answering, from the lists and dicts above

    def _head_prefixed(self, prefix: str) -> Iterable[str]:
        return _with_prefix(self._head_vocab, prefix)

    def _body_prefixed(self, prefix: str) -> Iterable[str]:
        return _with_prefix(self._body_vocab, prefix)

    def _head_lines(self) -> str:
        if self._head_text is None:
            self._head_text = "\n" + "\n".join(self._head_vocab) + "\n"
        return self._head_text

    def _typo_words(self, length: int) -> list[str]:
        return self._typo_vocab.get(length, [])

    def _facet(self, field: str) -> Mapping[Value, Posting]:
        return self._facets.get(field, {})

    def _all_slots(self) -> int:
        return self._live

    def _slot_bound(self) -> int:
        return len(self._entries)

    def _texts_holding(self, position: int, slots: Iterable[int], text: str) -> dict[int, str]:
        texts = self._texts[position]
        return {slot: texts[slot] for slot in slots if text in texts[slot]}

    def _title_keys_of(self, slots: Iterable[int]) -> list[str]:
        return self._title_keys

    def _tie_order(self) -> Sequence[int]:
        return self._order

    def _entry(self, slot: int) -> Entry:
        entry = self._entries[slot]
        assert entry is not None
        return entry

    def _slot_of_path(self, path: str) -> int:
        return self._slot_of.get(path, -1)

    # Maintenance

    def _add(self, memory: Memory, building: bool) -> None:
        self._version += 1
        slot = self._free.pop() if self._free else len(self._entries)
        if slot == len(self._entries):
            self._entries.append(None)
            self._title_keys.append("")
            for column in self._texts:
                column.append("")
        title_cf, owner = casefold_with_owners(memory.title)
        texts = (title_cf, *texts_after_title(memory))
        entry = Entry(memory.path, title_cf, owner, tie_key(memory), memory)
        self._entries[slot] = entry
        self._title_keys[slot] = words_key(title_cf)
        for column, text in zip(self._texts, texts, strict=True):
            column[slot] = text
        self._slot_of[memory.path] = slot
        for field, text in zip(FIELDS, texts, strict=True):
            postings = self._postings[field]
            for token in set(_TOKEN.findall(text)):
                held = postings.get(token)
                if building:
                    if held is None:
                        postings[token] = [slot]
                    else:
                        held.append(slot)  # type: ignore[union-attr]  # a list while building
                    continue
                postings[token] = _with_slot(held, slot)
                if held is None:
                    self._vocab_gained(field, token)
        for facet, values in facet_values(memory, self._today).items():
            table = self._facets.setdefault(facet, {})
            for value in values:
                held = table.get(value)
                if building:
                    # While building, every posting is still a list.
                    table.setdefault(value, []).append(slot)  # type: ignore[union-attr]
                else:
                    table[value] = _with_slot(held, slot)
        if building:
            self._tie_keys.append(entry.tie_key)
            return
        self._live |= 1 << slot
        position = bisect_left(self._tie_keys, entry.tie_key)
        self._tie_keys.insert(position, entry.tie_key)
        self._order.insert(position, slot)

    def _remove(self, slot: int) -> None:
        self._version += 1
        entry = self._entry(slot)
        for field, column in zip(FIELDS, self._texts, strict=True):
            text, column[slot] = column[slot], ""
            postings = self._postings[field]
            for token in set(_TOKEN.findall(text)):
                postings[token] = _without_slot(postings[token], slot)
                if not postings[token]:
                    del postings[token]
                    self._vocab_lost(field, token)
        assert entry.memory is not None
        for facet, values in facet_values(entry.memory, self._today).items():
            table = self._facets[facet]
            for value in values:
                table[value] = _without_slot(table[value], slot)
        position = bisect_left(self._tie_keys, entry.tie_key)
        del self._tie_keys[position]
        del self._order[position]
        del self._slot_of[entry.path]
        self._live &= ~(1 << slot)
        self._entries[slot] = None
        self._title_keys[slot] = ""
        self._free.append(slot)

    def _vocab_gained(self, field: str, token: str) -> None:
        if field == "body":
            _sorted_add(self._body_vocab, token)
            return
        _sorted_add(self._head_vocab, token)
        self._head_text = None
        if token.isalpha():
            _sorted_add(self._typo_vocab.setdefault(len(token), []), token)

    def _vocab_lost(self, field: str, token: str) -> None:
        if field == "body":
            _sorted_discard(self._body_vocab, token)
        elif not any(token in self._postings[f] for f in HEAD_FIELDS):
            _sorted_discard(self._head_vocab, token)
            self._head_text = None
            _sorted_discard(self._typo_vocab.get(len(token), []), token)


def bitset(slots: Posting | Iterable[int]) -> int:
    """The bitset of slots (bit i set for slot i); a bitset is given back as it is."""
    if isinstance(slots, int):
        return slots
    # A byte per eight slots, set in one pass, read as one little-endian int.
    listed = slots if isinstance(slots, Sequence) else list(slots)
    if not listed:
        return 0
    flags = bytearray((max(listed) >> 3) + 1)
    for slot in listed:
        flags[slot >> 3] |= 1 << (slot & 7)
    return int.from_bytes(flags, "little")


def union_of(postings: Iterable[Posting]) -> int:
    """The bitset of every slot any of the postings holds."""
    bits = 0
    loose: list[int] = []
    for posting in postings:
        if isinstance(posting, int):
            bits |= posting
        else:
            loose.extend(posting)  # gathered, to be turned into bits once
    return bits | bitset(loose) if loose else bits


def slots_of(bits: int) -> list[int]:
    """The slots of a bitset, ascending."""
    if not bits:
        return []
    digits = bin(bits)[:1:-1]
    if bits.bit_count() * 8 > len(digits):
        return list(compress(range(len(digits)), digits.translate(_FLAG).encode("latin-1")))
    found = []
    at = digits.find("1")
    while at >= 0:
        found.append(at)
        at = digits.find("1", at + 1)
    return found


def flags_of(bits: int, size: int) -> bytes:
    """size bytes, byte i being 1 where slot i is in the bitset and 0 elsewhere."""
    digits = bin(bits)[:1:-1] if bits else ""
    return digits.translate(_FLAG).encode("latin-1").ljust(size, b"\0")


_FLAG = str.maketrans("01", "\0\1")


def _holds(bits: int, slot: int) -> bool:
    return slot >= 0 and bool(bits >> slot & 1)


def _or(bitsets: Iterable[int]) -> int:
    bits = 0
    for each in bitsets:
        bits |= each
    return bits


def _by_value(pairs: Iterable[tuple[float, Posting]]) -> dict[float, int]:
    """The postings of each value, united into one bitset per value."""
    grouped: dict[float, list[Posting]] = {}
    for value, posting in pairs:
        grouped.setdefault(value, []).append(posting)
    return {value: union_of(postings) for value, postings in grouped.items()}


def _settled(slots: list[int]) -> Posting:
    return bitset(slots) if len(slots) > SPARSE else tuple(slots)


def _with_slot(posting: Posting | None, slot: int) -> Posting:
    if posting is None:
        return (slot,)
    if isinstance(posting, int):
        return posting | 1 << slot
    return _settled([*posting, slot])


def _without_slot(posting: Posting, slot: int) -> Posting:
    if isinstance(posting, int):
        return posting & ~(1 << slot)
    return tuple(held for held in posting if held != slot)


def _where(
    slots: list[int], keys: Sequence[str] | Mapping[int, str], test: Callable[[str], object]
) -> list[int]:
    return list(compress(slots, map(test, map(keys.__getitem__, slots))))


def _union(postings: Mapping[str, Posting], tokens: Iterable[str]) -> int:
    return union_of(postings[t] for t in tokens if t in postings)


def _with_prefix(vocab: list[str], prefix: str) -> Iterator[str]:
    index = bisect_left(vocab, prefix)
    while index < len(vocab) and vocab[index].startswith(prefix):
        yield vocab[index]
        index += 1


def _sorted_add(vocab: list[str], token: str) -> None:
    index = bisect_left(vocab, token)
    if index == len(vocab) or vocab[index] != token:
        vocab.insert(index, token)


def _sorted_discard(vocab: list[str], token: str) -> None:
    index = bisect_left(vocab, token)
    if index < len(vocab) and vocab[index] == token:
        del vocab[index]


def tie_key(memory: Memory) -> tuple[int, int, int, str]:
    """Critical first, then high > medium > low > none, then newest, then path for stability."""
    return (
        0 if memory.critical else 1,
        IMPORTANCE_RANK.get(str(memory.importance).lower(), len(IMPORTANCE_RANK)),
        -memory.date.toordinal() if memory.date else 0,
        memory.path,
    )


def texts_after_title(memory: Memory) -> tuple[str, str, str, str]:
    """Name, topics, project and body, casefolded; the name is the path inside the kind folder."""
    name = memory.path.removeprefix(memory.kind.folder + "/").removesuffix(".md")
    return (
        name.casefold(),
        " ".join(str(t) for t in memory.topics).casefold(),
        str(memory.project or "").casefold(),
        memory.body[:BODY_CHARS].casefold(),
    )


def facet_values(memory: Memory, today: dt.date) -> dict[str, tuple[Value, ...]]:
    """The values filters test, shaped as query.Filter.accepts expects them."""

    def folded(value: object) -> str | None:
        return str(value).casefold() if value not in (None, "") else None

    date = memory.date
    return {
        # A value the format refuses (`urgent`) as written: `importance:urgent` finds it.
        "importance": (folded(memory.importance or memory.written_importance),),
        "type": (folded(memory.type),),
        "topic": tuple(sorted({str(t).casefold() for t in memory.topics})) or (None,),
        "project": (folded(memory.project),),
        "kind": (memory.kind,),
        "critical": (memory.critical,),
        "refs": (memory.reference_count,),
        "age": ((today - date).days if date else None,),
        "date": (date.isoformat() if date else None,),
    }


def words_key(text: str) -> str:
    """The casefolded words of text, each after a space: " decision use x" for "Decision: Use X".

    Comparing keys compares words in order; `" " + key` starting with a query key means the title
    starts with those words, containing it means they appear from a word start."""
    return "".join(" " + word for word in _TOKEN.findall(text.casefold()))


def casefold_with_owners(text: str) -> tuple[str, tuple[int, ...] | None]:
    """text.casefold(), and for each of its characters the index of the one it came from.

    Casefolding can lengthen text ("ß" -> "ss"); offsets found in the folded copy must be mapped
    back before they can highlight the original. None means the two line up one to one.
    """
    folded = text.casefold()
    if len(folded) == len(text):
        return folded, None
    parts: list[str] = []
    owner: list[int] = []
    for index, char in enumerate(text):
        part = char.casefold()
        parts.append(part)
        owner.extend([index] * len(part))
    return "".join(parts), tuple(owner)


def _is_word_char(char: str) -> bool:
    return char.isalnum()


def occurrence(text: str, needle: str) -> tuple[float, int]:
    """(quality, start) of the best place needle occurs in text; (0.0, -1) when it does not."""
    best, best_start = 0.0, -1
    start = text.find(needle)
    while start >= 0:
        end = start + len(needle)
        at_start = start == 0 or not _is_word_char(text[start - 1])
        at_end = end == len(text) or not _is_word_char(text[end])
        quality = EXACT if at_start and at_end else PREFIX if at_start else INSIDE
        if quality > best:
            best, best_start = quality, start
            if best == EXACT:
                break
        start = text.find(needle, start + 1)
    return best, best_start


def title_spans(entry: Entry, terms: Iterable[Term]) -> tuple[tuple[int, int], ...]:
    """Sorted, merged (start, end) offsets into the original title of what the terms matched."""
    spans: list[tuple[int, int]] = []
    for term in terms:
        spans.extend(_term_spans(entry.title_cf, term))
    if entry.title_owner is not None:
        owner = entry.title_owner
        spans = [(owner[start], owner[end - 1] + 1) for start, end in spans]
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return tuple(merged)


def spans_in(text: str, terms: Iterable[Term]) -> tuple[tuple[int, int], ...]:
    """What `title_spans` would mark of these terms in any other text: the name a memory is
    shown by (views/naming.py) when it is not its title."""
    folded, owner = casefold_with_owners(text)
    return title_spans(Entry("", folded, owner, (0, 0, 0, "")), terms)


def _term_spans(title: str, term: Term) -> list[tuple[int, int]]:
    text = term.text
    quality, start = occurrence(title, text)
    is_word = not term.phrase and _TOKEN.fullmatch(text)
    if quality >= PREFIX or (quality and (not is_word or len(text) >= INSIDE_MIN)):
        return [(start, start + len(text))]
    if not is_word or not forgives_typo(text):
        return []
    for run in _SPAN_WORD.finditer(title):
        if any(is_typo(text, token) for token in _TOKEN.findall(run.group())):
            # The letters the typed word shares with the title's word, not the whole word.
            return [
                (run.start() + op.dest_start, run.start() + op.dest_end)
                for op in Indel.opcodes(text, run.group())
                if op.tag == "equal"
            ]
    return []


def tokens(text: str) -> set[str]:
    """The distinct tokens of casefolded text, as the postings key them."""
    return set(_TOKEN.findall(text))
