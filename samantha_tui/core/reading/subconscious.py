"""What `samantha-llm subconscious merge` will do with the sessions awaiting it, and which trashed
short-term memories it brings back.

The background worker's finalize step copies a session's `memories/*.md` into short-term memory
under the same names, then marks the session `complete`. The merge, later, takes every `complete`
session and copies each of those files into the short-term folder again: under its own name when
that name is free, else as `<stem>_<session id>.md` (over a file of that name, if there is one).
It decides by the name alone, never by content, then moves the session to `processed/`. So a
short-term memory is tied to a staged copy by its file name: trash it while the session still waits,
and the merge writes the staged copy back under that name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..basics.model import Kind, StagedSession, Tree

MERGE_COMMAND = "samantha-llm subconscious merge"
# Files the merge would find taken in the short-term folder that are not memories.
_NOT_MEMORIES = frozenset({"index.json", "index.md"})


def session_id(session: StagedSession) -> str:
    """The session's id: its folder's name (`YYYYMMDD_HHMMSS`)."""
    return session.path.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class MergeCopy:
    """One file the merge writes into short-term memory."""

    session: str
    """The session id."""
    staged: str
    """The staged file, relative to the root."""
    target: str
    """The short-term file it writes, relative to the root."""
    renamed: bool
    """Its own name was taken, so it is written as `<stem>_<session id>.md`."""
    replaces: bool
    """A file is at the target already (the merge copies over it)."""

    @property
    def name(self) -> str:
        return self.staged.rsplit("/", 1)[-1]

    @property
    def target_name(self) -> str:
        return self.target.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class SessionMerge:
    """A session awaiting merge and the copies its merge writes."""

    session: StagedSession
    copies: tuple[MergeCopy, ...]

    @property
    def id(self) -> str:
        return session_id(self.session)


def _short_term_names(tree: Tree) -> set[str]:
    """Names taken in the short-term folder itself: the merge writes there, never in subfolders."""
    prefix = Kind.SHORT_TERM.folder + "/"
    names = {
        m.path.removeprefix(prefix)
        for m in tree.of_kind(Kind.SHORT_TERM)
        if m.path.startswith(prefix)
    }
    return {name for name in names if "/" not in name} | _NOT_MEMORIES


def _simulate(tree: Tree, taken: set[str]) -> list[SessionMerge]:
    """The merge's copies, given the names taken before it starts (changed as it goes).

    samantha-llm takes the sessions in the order the file system lists them; here they go by
    id, which matters only when two sessions stage the same name.
    """
    taken = set(taken)
    folder = Kind.SHORT_TERM.folder
    merges = []
    for session in sorted(tree.awaiting_merge, key=session_id):
        sid = session_id(session)
        copies = []
        for staged in session.memory_files:
            name = staged.rsplit("/", 1)[-1]
            renamed = name in taken
            target = f"{name.removesuffix('.md')}_{sid}.md" if renamed else name
            copies.append(
                MergeCopy(sid, staged, f"{folder}/{target}", renamed, replaces=target in taken)
            )
            taken.add(target)
        merges.append(SessionMerge(session, tuple(copies)))
    return merges


def merge_plan(tree: Tree) -> list[SessionMerge]:
    """What `samantha-llm subconscious merge` would write for each session awaiting it, now."""
    return _simulate(tree, _short_term_names(tree))


@dataclass(frozen=True)
class ComesBack:
    """A memory about to be trashed that a session's merge writes again."""

    path: str
    session: str

    def sentence(self) -> str:
        """The warning a confirmation shows."""
        name = self.path.rsplit("/", 1)[-1]
        return (
            f"{name} will come back: session {self.session} is complete and not merged yet; "
            "its merge copies it again"
        )


def _returning(tree: Tree, taken: set[str], paths: Iterable[str]) -> list[ComesBack]:
    folder = Kind.SHORT_TERM.folder + "/"
    gone = {p.removeprefix(folder) for p in paths if p.startswith(folder)}
    writes = {
        copy.target: copy.session
        for merge in _simulate(tree, taken - gone)
        for copy in merge.copies
    }
    return [
        ComesBack(folder + name, writes[folder + name])
        for name in sorted(gone)
        if folder + name in writes
    ]


def comes_back(tree: Tree, paths: Iterable[str]) -> list[ComesBack]:
    """Which of these paths, all trashed together, a merge of the waiting sessions writes again."""
    if not tree.awaiting_merge:
        return []
    return _returning(tree, _short_term_names(tree), paths)


def comes_back_alone(tree: Tree, paths: Iterable[str]) -> dict[str, ComesBack]:
    """For each path trashed on its own (a candidate of a rule), whether a merge writes it again."""
    if not tree.awaiting_merge:
        return {}
    # Only a staged name, or the `_<session id>` name a merge gives it, can be written again.
    names = {
        name
        for session in tree.awaiting_merge
        for staged in session.memory_files
        for name in (
            staged.rsplit("/", 1)[-1],
            f"{staged.rsplit('/', 1)[-1].removesuffix('.md')}_{session_id(session)}.md",
        )
    }
    folder = Kind.SHORT_TERM.folder + "/"
    taken = _short_term_names(tree)
    found: dict[str, ComesBack] = {}
    for path in paths:
        if path.removeprefix(folder) in names and path.startswith(folder):
            found.update((back.path, back) for back in _returning(tree, taken, (path,)))
    return found


def warnings(tree: Tree, paths: Iterable[str], shown: int = 5) -> list[str]:
    """The confirmation's lines for the paths about to be trashed that a merge brings back."""
    found = comes_back(tree, paths)
    lines = [back.sentence() + "." for back in found[:shown]]
    if len(found) > shown:
        lines.append(f"… and {len(found) - shown} more come back the same way.")
    if found:
        lines.append(
            f"To be rid of them, run `{MERGE_COMMAND}` first, then trash them and the "
            "`_<session id>` copies it adds."
        )
    return lines


def explain(merge: SessionMerge) -> list[str]:
    """What the merge does with one session, in sentences, file by file."""
    lines = []
    for copy in merge.copies:
        if copy.renamed:
            over = f", over the {copy.target_name} there" if copy.replaces else ""
            lines.append(
                f"{copy.name} is in short-term memory already (the worker's finalize copied it): "
                f"the merge adds a second copy, {copy.target_name}{over}."
            )
        else:
            lines.append(
                f"{copy.name} is not in short-term memory (trashed since, or never finalized): "
                f"the merge copies it in as {copy.target_name}."
            )
    if not merge.copies:
        lines.append("It stages no memory files: the merge copies none.")
    lines.append(
        f"Then the session moves to .ai/subconscious/.ai/processed/{merge.id}; its guidance and "
        "procedural observations go into guidance.md and the runbooks."
    )
    return lines
