"""The review screen (`p`): every curation rule's candidates, picked into one batch, applied as one
change after a confirmation that says in words what will happen."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import ContentSwitcher, Static, Tabs
from textual.worker import get_current_worker

from ...core.basics.model import Kind, Memory, Tree, short_path
from ...core.reading import subconscious
from ...core.reading.subconscious import MERGE_COMMAND, SessionMerge
from ...core.views import lifecycle, meaning_review, merging
from ...core.views.dismissals import dismissal
from ...core.views.health import HealthReport
from ...core.views.lifecycle import Candidate, Proposal
from ...core.views.meaning import (
    CONFLICT,
    DUPLICATE,
    RELATED,
    SUPERSESSION,
    SimilarPair,
    Unavailable,
)
from ...core.views.merging import MERGE
from ...core.views.naming import Names, names_of
from ...core.writing import dismissed_pairs, impact
from ...core.writing.impact import FieldChange
from ..diff_view import ONE_OR_TWO, side_by_side
from ..health import meaning_pairs, report_of
from ..rows import marker
from ..tabs import TAB_PADDING
from ..visible_text import shown, visible_renderable, visible_text
from ..widgets.counted_tabs import CountedTab, CountedTabs
from ..widgets.fitted_footer import FittedFooter
from ..widgets.memory_table import Column, LazyRows, MemoryTable, TableRow
from ..widgets.preview import Preview, format_value
from ..workers import background
from ..wrapping import Wrapped
from . import review_health
from .batch_confirm import BatchConfirmScreen
from .confirm import ConfirmScreen
from .live_screen import LiveScreen

if TYPE_CHECKING:
    from ..host import Host

SESSIONS = "sessions"
"""A read-only section: not a rule of the core, the subconscious sessions awaiting merge."""
HEALTH = "health"
"""A read-only section: the health report's findings, each with the way to its fix."""
CONFLICTS = review_health.CONFLICTS
"""A section without marks: the pairs a person settles (possible conflicts, supersessions,
related pairs), each on its own (1, 2, e, E, d)."""
READ_ONLY = frozenset({SESSIONS, HEALTH, CONFLICTS})
DIFF_SECTIONS = frozenset({"dedupe", MERGE, CONFLICTS})
"""The sections that compare two memories: the list goes above and the two copies below it, over
the whole width, so each side of the diff has about half the screen."""
HINTS = {
    CONFLICTS: "Nothing here joins the batch: < or > keeps one of the pair, d dismisses it.",
    HEALTH: "f goes to the fix of the finding; nothing here joins the batch.",
}
"""The line under a section's table while nothing is marked, where it is not the usual one."""
HEALTH_TABLE = f"review-table-{HEALTH}"
WIDE = 110
"""From this terminal width the reasons get more room."""
EMPTY_TAB_CLASS = "-empty"
"""A section with nothing in it, while the tabs carry no counts (dimmed)."""
COUNTED = {
    HEALTH: ("finding", "findings"),
    CONFLICTS: ("pair", "pairs"),
    SESSIONS: ("file", "files"),
}
"""What a section's rows are, said with their count; candidates elsewhere."""


@dataclass(frozen=True)
class Section:
    rule: str
    """The core proposal's name (or SESSIONS)."""
    key: str
    label: str
    short: str
    about: str
    empty: str
    narrow: str = ""
    """The label when the tabs have no room for counts (the short one when empty)."""
    tiny: str = ""
    """The label when even the narrow ones do not fit (the narrow one when empty)."""

    def names(self) -> tuple[str, str, str, str]:
        """Its labels, longest first: full, short (both with a count), narrow, tiny."""
        narrow = self.narrow or self.short
        return (self.label, self.short, narrow, self.tiny or narrow)

    @property
    def tab_id(self) -> str:
        return f"review-tab-{self.key}"

    @property
    def table_id(self) -> str:
        return f"review-table-{self.key}"


SECTIONS = (
    Section(
        "prune",
        "prune",
        "Prune",
        "Prune",
        "Stale short-term memories; they go to the trash.",
        "Nothing to prune: no low-importance note is past 30 days, none past 90 is idle.",
    ),
    Section(
        "promote",
        "promote",
        "Promote",
        "Promote",
        "Lasting short-term memories; copied to long-term, dated today.",
        "Nothing to promote: no short-term memory is referenced 5+ times or foundational.",
        tiny="Promo",
    ),
    Section(
        "escalate",
        "escalate",
        "Escalate",
        "Escalate",
        "Often referenced: raised to high; 10+ references marked critical.",
        "Nothing to escalate: no memory referenced 3+ times is below high importance.",
        narrow="Raise",
    ),
    Section(
        "dedupe",
        "dedupe",
        "Duplicates",
        "Dupes",
        "Merge copies and near-identical notes; the poorer goes to the trash.",
        "No duplicates: no merge copies and no near-identical notes.",
    ),
    Section(
        MERGE,
        "alike",
        "Same meaning",
        "Alike",
        "Alike in meaning, in other words: the richer is kept with both's topics and references.",
        "Nothing says the same as another memory in other words.",
    ),
    Section(
        CONFLICTS,
        "conflicts",
        "Possible conflicts",
        "Conflicts",
        "Alike in meaning and not the same: ≠ opposed, » the newer may supersede, ≈ related, to "
        "read side by side. < keeps 1, > keeps 2, d dismisses the pair.",
        "No possible conflicts: no two alike memories say opposite or different things.",
        tiny="Pairs",
    ),
    Section(
        "complete",
        "complete",
        "Complete tasks",
        "Tasks",
        "Tasks whose status.md says completed; the folder moves to work experience.",
        "No task to complete: no current task's status.md says completed.",
    ),
    Section(
        "apply updates",
        "updates",
        "Pending updates",
        "Updates",
        "Proposed project status; written to the current-tasks index.",
        "No pending project updates.",
        tiny="Upd",
    ),
    Section(
        SESSIONS,
        "sessions",
        "Awaiting merge",
        "Merge",
        f"Read-only: `{MERGE_COMMAND}` brings these in.",
        "No sessions awaiting merge.",
    ),
    Section(
        HEALTH,
        "health",
        "Health",
        "Health",
        "What is wrong with the tree as a whole; f goes to the fix.",
        "Nothing found: the tree is healthy.",
    ),
)


SECTION_KEYS = "1234567890"
"""The key of each section, in order, as the main list numbers its tabs."""


def columns_for(width: int) -> tuple[Column, ...]:
    """The candidate columns; the reason gets more room on a wide terminal."""
    return (Column("", 1), Column("Title"), Column("Why", 34 if width >= WIDE else 22))


def fit_section_labels(
    width: int, counts: Mapping[str, tuple[int, int]]
) -> tuple[dict[str, str], bool]:
    """Each section's tab label in the longest words with which all ten fit in `width` cells,
    and whether they carry their counts (`counts`: marked and all, by tab id): full or short
    names with both counts, short names with all only, then narrow names without counts, then
    tiny ones."""
    # (which name, which counts: 2 marked and all, 1 all, 0 none), longest first.
    tiers = ((0, 2), (1, 2), (1, 1), (2, 0), (3, 0))
    for name, said in tiers:
        labels = {}
        for section in SECTIONS:
            label = section.names()[name]
            marked, total = counts.get(section.tab_id, (0, 0))
            if said:
                label += f" {marked}/{total}" if said == 2 and marked else f" {total}"
            labels[section.tab_id] = label
        if sum(cell_len(label) + TAB_PADDING for label in labels.values()) <= width:
            break
    return labels, said > 0


@dataclass(frozen=True)
class Review:
    """What the screen shows, computed off the UI thread from one tree."""

    tree: Tree
    proposals: Mapping[str, Proposal]
    kept: Mapping[str, Memory]
    """Duplicates: the path of the memory that would go -> the one kept."""
    index_values: Mapping[str, tuple[FieldChange, ...]]
    """Pending updates: the update file -> the index fields it changes."""
    merges: Mapping[str, SessionMerge]
    """Sessions awaiting merge, by folder: what `samantha-llm subconscious merge` writes."""
    health: HealthReport
    conflicts: tuple[SimilarPair, ...]
    """Pairs still to settle: possible conflicts, supersessions, related pairs."""
    alike_kept: Mapping[str, Memory]
    """Same meaning: the path of the memory that would go -> the one kept."""
    semantic: str
    """Why the semantic sections are empty when the checks are off ("" when on)."""

    def candidate(self, rule: str, path: str) -> Candidate | None:
        proposal = self.proposals.get(rule)
        if proposal is None:
            return None
        return next((c for c in proposal.candidates if c.path == path), None)


class Reviewed(Message):
    """The proposals for the newest tree are ready."""

    def __init__(self, review: Review) -> None:
        super().__init__()
        self.review = review


class ReviewTable(MemoryTable):
    """One section's candidates; a read-only section takes no marks."""

    def __init__(self, *, read_only: bool, id: str) -> None:
        super().__init__(columns_for(0), id=id)
        self.read_only = read_only

    def toggle_all(self) -> None:
        """Mark every row, or none when every row is marked already."""
        if not self.read_only:
            self.toggle_all_marks()

    def action_toggle_mark(self) -> None:
        if self.read_only:
            said = (
                "Findings are fixed where they are: f goes there"
                if self.id == HEALTH_TABLE
                else f"Sessions are only shown here: `{MERGE_COMMAND}` brings them in"
            )
            self.notify(said, severity="warning", timeout=4)
            return
        super().action_toggle_mark()


class ReviewScreen(LiveScreen):
    """One tab per curation rule; marked candidates of every tab make one batch."""

    HELP_TITLE = "Review"
    HELP_PURPOSE = (
        "Curation candidates by rule (prune, promote, escalate, duplicates, tasks, pending "
        "updates). Mark the ones to act on in any section; Enter shows the whole batch as a plan "
        "before anything is written, and u on the list undoes it."
    )
    HELP_KEYS = {
        "review.all": "Mark every candidate of this section",
        "review.apply": "Show the plan for every marked candidate, then apply it",
        "review.next": "Next section",
        "review.previous": "Previous section",
        "review.fix": "Health: go to the fix of the finding (its section, form or screen)",
        "review.first_stands": "Conflicts: keep 1 (the left); 2 goes to the trash",
        "review.second_stands": "Conflicts: keep 2 (the right); 1 goes to the trash",
        **{
            f"review.tab.{section.key}": f"Go to the {section.label} section"
            for section in SECTIONS
        },
        "review.dismiss": "Alike or conflicts: not so; dismiss the pair (remembered)",
        "review.edit_first": "Conflicts: edit the fields of 1 (the left)",
        "review.edit_second": "Conflicts: edit the fields of 2 (the right)",
    }

    BINDINGS = [
        Binding("escape", "close", "Close", id="review.close"),
        Binding("a", "select_all", "All in section", id="review.all"),
        Binding("enter,A", "apply", "Apply", key_display="Enter", id="review.apply"),
        Binding("right,l", "next_section", "Next section", show=False, id="review.next"),
        Binding("left,h", "previous_section", "Previous section", show=False, id="review.previous"),
        Binding("f", "fix", "Go to the fix", id="review.fix"),
        Binding("less_than_sign", "stands(0)", "Keep left", id="review.first_stands"),
        Binding("greater_than_sign", "stands(1)", "Keep right", id="review.second_stands"),
        Binding("e", "edit_side(0)", "Edit 1", show=False, id="review.edit_first"),
        Binding("E", "edit_side(1)", "Edit 2", show=False, id="review.edit_second"),
        Binding("d", "dismiss_pair", "Dismiss", id="review.dismiss"),
        # The sections by number, as the main list's tabs: 1 to 9, then 0 for the tenth.
        *(
            Binding(
                SECTION_KEYS[number],
                f"show_section_number({number})",
                section.label,
                show=False,
                id=f"review.tab.{section.key}",
            )
            for number, section in enumerate(SECTIONS)
        ),
    ]

    def __init__(self, section: str | None = None) -> None:
        """`section`: the rule of the section to open on (the first without)."""
        super().__init__()
        self.review: Review | None = None
        self.section = next((s for s in SECTIONS if s.rule == section), SECTIONS[0])
        self._counted = True
        """Whether the tabs carry the counts (else the line above the list says the section's)."""

    @property
    def _app(self) -> Host:
        return self.app

    def compose(self) -> ComposeResult:
        tabs = (CountedTab(s.label, id=s.tab_id) for s in SECTIONS)
        yield CountedTabs(*tabs, active=self.section.tab_id, id="review-tabs")
        with Horizontal(id="review-panes"):
            with Vertical(id="review-list-pane"):
                yield Static(id="review-about")
                with ContentSwitcher(initial=self.section.table_id, id="review-switcher"):
                    for section in SECTIONS:
                        read_only = section.rule in READ_ONLY
                        yield ReviewTable(read_only=read_only, id=section.table_id)
                yield Static(id="review-batch")
            with VerticalScroll(id="review-side"):
                yield Static(id="review-note")
                yield Static(id="review-diff")
                yield Preview(id="review-preview")
        yield FittedFooter()

    def on_mount(self) -> None:
        for section in SECTIONS:
            self.table(section).empty_message = "Reviewing the tree…"
        self.query_one("#review-diff").display = False
        self.query_one("#review-preview").display = False
        self.set_class(self.section.rule in DIFF_SECTIONS, "-diff")
        self._show_about()
        self._show_batch()
        self.table().focus()
        self.recompute()

    def on_resize(self) -> None:
        columns = columns_for(self.size.width)
        for section in SECTIONS:
            self.table(section).columns = columns
            self.table(section).refresh()
        self._label_tabs()

    def table(self, section: Section | None = None) -> ReviewTable:
        return self.query_one(f"#{(section or self.section).table_id}", ReviewTable)

    # --- data ------------------------------------------------------------------------------------

    def tree_changed(self, changed: tuple[str, ...]) -> None:
        self.recompute()

    @background(thread=True, exclusive=True, group="review")
    def recompute(self) -> None:
        """Run every rule over the newest tree (about half a second at 10,000 memories, and
        the meaning pass and the health report: seconds more, their counts shown meanwhile)."""
        with self._app.work_progress(stoppable=True):
            self._recompute()

    def _recompute(self) -> None:
        curator = self._app.curator
        tree, today = curator.tree, curator.store.today()
        proposals = {p.name: p for p in lifecycle.review(tree, today)}
        kept = {drop.path: keep for keep, drop, _ in lifecycle.chosen_pairs(tree)}
        index_values = {
            c.path: impact.index_changes(curator.store, op)
            for c in proposals["apply updates"].candidates
            for op in c.operations
            if op.action == "project-fields"
        }
        merges = {m.session.path: m for m in subconscious.merge_plan(tree)}
        pairs = meaning_pairs(curator, self._app.settings)
        report = report_of(curator, self._app.settings, self._app.index_report, pairs)
        found = () if isinstance(pairs, Unavailable) else pairs
        dismissed = dismissed_pairs.load_for(curator.store.root).dismissed
        proposals[MERGE] = meaning_review.merge_proposal(tree, found, dismissed)
        by_path = {m.path: m for m in tree.memories}
        alike_kept = {
            c.path: by_path[op.path]
            for c in proposals[MERGE].candidates
            for op in c.operations
            if op.action == "edit" and op.path in by_path
        }
        conflicts = meaning_review.open_conflicts(tree, found, dismissed)
        semantic = pairs.reason if isinstance(pairs, Unavailable) else ""
        if not get_current_worker().is_cancelled:
            review = Review(
                tree,
                proposals,
                kept,
                index_values,
                merges,
                report,
                conflicts,
                alike_kept,
                semantic,
            )
            self.post_message(Reviewed(review))

    @on(Reviewed)
    async def _reviewed(self, message: Reviewed) -> None:
        self.review = message.review
        columns = columns_for(self.size.width)
        for section in SECTIONS:
            # Marks of candidates that are gone drop out here (set_rows keeps only known keys).
            empty = section.empty
            if section.rule in (MERGE, CONFLICTS) and self.review.semantic:
                empty = f"Semantic checks are off: {self.review.semantic}."
            self.table(section).set_rows(self._rows(section), columns, empty_message=empty)
        self._label_tabs()
        self._show_about()
        self._show_batch()
        await self._show_side()

    def _rows(self, section: Section) -> LazyRows:
        assert self.review is not None
        if section.rule == HEALTH:
            return review_health.rows(self.review.health)
        if section.rule == CONFLICTS:
            conflicts = self.review.conflicts
            return LazyRows(
                [meaning_review.pair_key(p) for p in conflicts],
                lambda i: self._conflict_row(conflicts[i]),
            )
        if section.rule == SESSIONS:
            files = [
                (path, session.path)
                for session in self.review.tree.awaiting_merge
                for path in session.memory_files or (session.path,)
            ]
            return LazyRows([path for path, _ in files], lambda i: _session_row(*files[i]))
        candidates = self.review.proposals[section.rule].candidates
        return LazyRows(
            [c.path for c in candidates], lambda i: self._candidate_row(section, candidates[i])
        )

    def _candidate_row(self, section: Section, candidate: Candidate) -> TableRow:
        memory = self._memory_of(section, candidate)
        mark = marker(memory) if memory is not None else Text("")
        cells = (mark, shown(self._named(candidate, memory)), shown(candidate.reason, style="dim"))
        return TableRow(candidate.path, cells)

    def _named(self, candidate: Candidate, memory: Memory | None) -> str:
        """A candidate as named where it is listed: a memory's by the name it is shown by (a
        session's by its distinguishing line); a project's, an update's, by their own word."""
        if memory is None or memory.title != candidate.title:
            return candidate.title
        return names_of(self._app.curator.tree).shown(memory)

    def _conflict_row(self, pair: SimilarPair) -> TableRow:
        curator = self._app.curator
        names = names_of(curator.tree)
        first, second = (
            names.shown(memory) if memory is not None else short_path(path)
            for path, memory in ((p, curator.get(p)) for p in (pair.first, pair.second))
        )
        mark, between = PAIR_MARKS.get(pair.verdict, PAIR_MARKS[CONFLICT])
        if pair.verdict == SUPERSESSION and pair.newer == pair.first:
            between = "«"  # the arrow points at the newer, the left one kept as 1
        cells = (
            mark,
            shown(f"{first}  {between}  {second}"),
            shown(", ".join(pair.cues) or WORDED_APART, style="dim"),
        )
        return TableRow(meaning_review.pair_key(pair), cells)

    def _memory_of(self, section: Section, candidate: Candidate) -> Memory | None:
        """The memory a candidate is about: the file, a task's status.md, an update's project."""
        curator = self._app.curator
        if section.rule == "complete":
            return curator.get(f"{candidate.path}/status.md")
        if section.rule == "apply updates":
            return curator.get(f"{Kind.CURRENT_TASKS.folder}/{candidate.title}/status.md")
        return curator.get(candidate.path)

    def picked(self) -> dict[str, list[str]]:
        """The marked candidates, by rule."""
        marked = {s.rule: self.table(s).marked_keys for s in SECTIONS if s.rule not in READ_ONLY}
        return {rule: keys for rule, keys in marked.items() if keys}

    # --- showing ---------------------------------------------------------------------------------

    def _label_tabs(self) -> None:
        """Each tab's label with its count (marked/all while marks are made), in the longest
        words with which all ten fit; where even the short ones with counts do not (80
        columns), the counts move to the line above the list and the empty sections are
        dimmed."""
        counts = {}
        for section in SECTIONS:
            table = self.table(section)
            counts[section.tab_id] = (len(table.marked_keys), len(table.rows))
        labels, counted = fit_section_labels(self.size.width, counts)
        tabs = self.query_one("#review-tabs", CountedTabs)
        tabs.set_labels(labels)
        for section in SECTIONS:
            empty = not counted and self.review is not None and not len(self.table(section).rows)
            tabs.query_one(f"#{section.tab_id}").set_class(empty, EMPTY_TAB_CLASS)
        if counted != self._counted:
            self._counted = counted
            self._show_about()

    def _show_about(self) -> None:
        about = Text(self.section.about)
        if self.section.rule == HEALTH:
            about = review_health.summary(self.review.health if self.review else None)
        elif not self._counted and self.review is not None:
            # The tabs have no room for counts: the section's is said here.
            table = self.table()
            one, many = COUNTED.get(self.section.rule, ("candidate", "candidates"))
            n = len(table.rows)
            said = f"{n} {one if n == 1 else many}"
            if table.marked_keys:
                said += f", {len(table.marked_keys)} marked"
            about = Text.assemble((said, "bold"), " · ", about)
        self.query_one("#review-about", Static).update(about)

    def _show_batch(self) -> None:
        picked = self.picked()
        total = sum(map(len, picked.values()))
        if not total:
            hint = HINTS.get(
                self.section.rule, "Space marks, a marks the whole section, Enter applies."
            )
            self.query_one("#review-batch", Static).update(Text(hint, style="dim"))
            return
        parts = ", ".join(
            f"{s.short.lower()} {len(picked[s.rule])}" for s in SECTIONS if s.rule in picked
        )
        text = Text.assemble(("Batch: ", "bold"), parts, ("  ·  Enter applies", "dim"))
        self.query_one("#review-batch", Static).update(visible_text(text))

    async def _show_side(self) -> None:
        note = self.query_one("#review-note", Static)
        diff = self.query_one("#review-diff", Static)
        preview = self.query_one("#review-preview", Preview)
        key = self.table().selected_key
        diff.display = False
        if self.review is None or key is None:
            preview.display = False
            empty = self.section.empty if self.review is not None else "Reviewing the tree…"
            note.update(Text(empty, style="italic"))
            return
        if self.section.rule == SESSIONS:
            preview.display = False
            note.update(visible_text(self._session_note(key), multi_line=True))
            return
        if self.section.rule == HEALTH:
            preview.display = False
            finding = review_health.finding_at(self.review.health, key)
            if finding is not None:
                note.update(visible_text(review_health.note(finding), multi_line=True))
            return
        if self.section.rule == CONFLICTS:
            preview.display = False
            shown_pair = self._conflict(key)
            if shown_pair is not None:
                pair, first, second = shown_pair
                names = names_of(self._app.curator.tree)
                note.update(
                    visible_text(_conflict_note(pair, first, second, names), multi_line=True)
                )
                diff.update(side_by_side(first, second, ONE_OR_TWO))
                diff.display = True
            return
        candidate = self.review.candidate(self.section.rule, key)
        if candidate is None:
            return
        note.update(visible_renderable(self._note(candidate)))
        kept = self.review.kept.get(key)
        if self.section.rule == MERGE:
            kept = self.review.alike_kept.get(key)
        memory = self._memory_of(self.section, candidate)
        if self.section.rule in ("dedupe", MERGE) and kept is not None and memory is not None:
            preview.display = False
            diff.update(side_by_side(kept, memory))
            diff.display = True
            return
        preview.display = memory is not None
        if memory is not None:
            await preview.show_memory(memory)

    def _note(self, candidate: Candidate) -> RenderableType:
        assert self.review is not None
        rule = self.section.rule
        parts: list[RenderableType] = []
        if rule in ("dedupe", MERGE, "apply updates"):
            # The preview below names the others; these show a diff or a project's status instead.
            named = self._named(candidate, self._memory_of(self.section, candidate))
            # The path breaks after a `/` (or inside the name at a `_`), never mid-word.
            where = Wrapped(visible_text(Text(short_path(candidate.path), style="dim")))
            parts.append(Group(Text(named, style="bold"), where))
        if rule != "apply updates":  # its reason only sums up the changes shown below
            parts.append(Text.assemble(("Why: ", "bold"), candidate.reason))
        for op in candidate.operations:
            if rule == "prune" or (rule in ("dedupe", MERGE) and op.action == "trash"):
                parts.append(Text("Goes to .ai/.trash/; u brings it back."))
            elif rule == "promote" and op.action == "copy":
                date = format_value(op.values.get("date"))
                line = Text.assemble(("New file: ", "bold"), short_path(op.target or ""))
                line.append_text(Text.assemble(("\nDated: ", "bold"), date))
                line.append("\nThe short-term file goes to the trash.")
                parts.append(line)
            elif rule == "escalate":
                parts.append(Text.assemble(("Sets ", "bold"), _fields(op.values)))
            elif rule == "complete" and op.action == "move":
                line = Text.assemble(("Folder moves to ", "bold"), short_path(op.target or ""))
                parts.append(line)
            elif rule == "complete" and op.action == "edit":
                parts.append(Text.assemble(("status.md gets ", "bold"), _fields(op.values)))
        kept = self.review.kept.get(candidate.path)
        if rule == MERGE:
            kept = self.review.alike_kept.get(candidate.path)
            edit = next((op for op in candidate.operations if op.action == "edit"), None)
            if edit is not None and edit.values:
                parts.append(
                    Text.assemble(
                        (f"{kept.name if kept else 'Kept'} gets ", "bold"), _fields(edit.values)
                    )
                )
        if rule in ("dedupe", MERGE) and kept is not None:
            refs = f"{kept.reference_count} references, {len(kept.topics)} topics"
            parts.append(Text.assemble(("Keeps ", "bold"), kept.name, (f" ({refs})", "dim")))
        if rule == "apply updates":
            parts.extend(self._update_note(candidate))
        return Group(*_spaced(parts))

    def _update_note(self, candidate: Candidate) -> list[RenderableType]:
        assert self.review is not None
        update = next(u for u in self.review.tree.pending_updates if u.path == candidate.path)
        lines = Text()
        for change in self.review.index_values.get(candidate.path, ()):
            lines.append(f"{change.key}\n", style="bold")
            now = "(not in the index)" if change.current is None else format_value(change.current)
            lines.append("  now       ", style="dim")
            lines.append(f"{now}\n")
            lines.append("  proposed  ", style="dim")
            same = change.current == change.proposed
            lines.append(format_value(change.proposed), style="" if same else "bold green")
            lines.append("  (unchanged)\n\n" if same else "\n\n", style="dim")
        for key, value in lifecycle.update_changes(update)[1].items():
            lines.append(f"{key}\n", style="bold")
            lines.append(
                f"  left as it is: the update proposes {json.dumps(value)}\n\n", style="dim"
            )
        lines.rstrip()
        about = Text(style="dim")
        if update.session_date:
            about.append(f"From the session of {update.session_date}")
        if update.confidence_text is not None:
            about.append(", " if update.session_date else "")
            about.append(f"confidence {update.confidence_text}")
        about.append(f"\n{update.reasoning}" if update.reasoning else "")
        return [lines, about]

    def _session_note(self, key: str) -> Text:
        assert self.review is not None
        session = next(
            s for s in self.review.tree.awaiting_merge if key == s.path or key in s.memory_files
        )
        text = Text(f"Session {session.path.rsplit('/', 1)[-1]}", style="bold")
        text.append(f"\n{session.path}", style="dim")
        count = len(session.memory_files)
        text.append(f"\n\nstatus: {session.status} · {count} memory file{'s' * (count != 1)}\n")
        for path in session.memory_files:
            text.append(f"\n  {path.rsplit('/', 1)[-1]}", style="bold" if path == key else "")
        text.append("\n\nWhat ")
        text.append(MERGE_COMMAND, style="bold")
        text.append(" will do (this screen only shows it):\n")
        merge = self.review.merges.get(session.path)
        for line in subconscious.explain(merge) if merge is not None else ():
            text.append(f"\n• {line}")
        return text

    # --- events and actions ----------------------------------------------------------------------

    @on(Tabs.TabActivated, "#review-tabs")
    async def _tab_activated(self, message: Tabs.TabActivated) -> None:
        if message.tab is None:
            return
        self._enter(next(s for s in SECTIONS if s.tab_id == message.tab.id))
        await self._show_side()

    def _enter(self, section: Section) -> None:
        """Show `section`'s table and focus it now, not once the tab's message comes back: a key
        typed right after `right` finds its binding through the focus of the moment, and `right a`
        or `right space` would otherwise mark the section being left."""
        self.section = section
        self.set_class(section.rule in DIFF_SECTIONS, "-diff")
        self.query_one("#review-switcher", ContentSwitcher).current = section.table_id
        self.set_focus(self.table())
        self._show_about()
        self._show_batch()
        self.refresh_bindings()  # `f` works in the Health section only

    @on(MemoryTable.Highlighted)
    async def _highlighted(self, message: MemoryTable.Highlighted) -> None:
        if message.table is self.table():
            await self._show_side()

    @on(MemoryTable.MarksChanged)
    def _marks_changed(self) -> None:
        self._label_tabs()
        self._show_about()
        self._show_batch()

    def action_close(self) -> None:
        self.dismiss()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "fix":
            return self.section.rule == HEALTH
        if action in ("stands", "edit_side"):
            return self.section.rule == CONFLICTS
        if action == "dismiss_pair":
            return self.section.rule in (CONFLICTS, MERGE)
        return True

    def _conflict(self, key: str | None) -> tuple[SimilarPair, Memory, Memory] | None:
        """The conflict of row `key` and its two memories as they are now."""
        if self.review is None or key is None:
            return None
        pair = next((p for p in self.review.conflicts if meaning_review.pair_key(p) == key), None)
        curator = self._app.curator
        first = curator.get(pair.first) if pair else None
        second = curator.get(pair.second) if pair else None
        if pair is None or first is None or second is None:
            return None
        return pair, first, second

    def action_stands(self, side: int) -> None:
        """Conflicts: the memory on `side` (0 left, 1 right) stands; the other goes to the
        trash, after a confirmation that names both (u on the list brings it back)."""
        found = self._conflict(self.table().selected_key)
        if found is None:
            return
        pair, first, second = found
        stands, other = (second, first) if side else (first, second)
        names = names_of(self._app.curator.tree)
        lines = [
            f"Keeps {names.shown(stands)} ({short_path(stands.path)}).",
            f"Moves {names.shown(other)} ({short_path(other.path)}) to the trash;"
            " u brings it back.",
        ]
        if pair.verdict == SUPERSESSION and pair.newer == stands.path:
            # The newer supersedes: what the older knew of its place (topics, references)
            # joins it, as a merge does.
            plan = merging.merge_plan(stands, other)
            lines.insert(1, "The older's topics and references join it.")
        else:
            plan = merging.stands_plan(stands, other)

        def confirmed(yes: bool | None) -> None:
            if yes:
                self._app.change(lambda: plan)

        title = f"Keep {side + 1}?"
        self.app.push_screen(ConfirmScreen(title, lines, "Keep", danger=True), confirmed)

    def action_edit_side(self, side: int) -> None:
        """Conflicts: the fields of one of the pair, in the form over the review."""
        found = self._conflict(self.table().selected_key)
        if found is not None:
            memory = found[2] if side else found[1]
            self._app.open_form(memory.kind, memory)

    def action_dismiss_pair(self) -> None:
        """Alike or conflicts: the pair is not what it seems; it stays out of the review and the
        health report until one of the two files changes."""
        if self.review is None:
            return
        key = self.table().selected_key
        curator = self._app.curator
        if self.section.rule == CONFLICTS:
            found = self._conflict(key)
            if found is None:
                return
            pair, first, second = found
            verdict = pair.verdict
        else:
            going = curator.get(key) if key else None
            kept = self.review.alike_kept.get(key or "")
            if kept is None or going is None:
                return
            first, second, verdict = kept, going, DUPLICATE
        day = curator.store.today().isoformat()
        gone = dismissal(first.path, first.digest, second.path, second.digest, verdict, day)
        changed = dismissed_pairs.dismiss(curator.store.root, gone)
        for message in changed.messages:
            self.notify(message, severity="warning", timeout=8, markup=False)
        self.notify("Dismissed: the pair stays out until one of them changes", timeout=4)
        self.recompute()
        if self._app.index_report is not None:
            self._app.health_soon(self._app.index_report)  # the status line's score too

    def action_fix(self) -> None:
        """Health: the selected finding's fix. Within the review: its section, with the row of
        the file it names selected; outside: the review closes first."""
        key = self.table().selected_key
        if self.review is None or key is None:
            return
        finding = review_health.finding_at(self.review.health, key)
        if finding is None:
            return
        target = review_health.section_of(finding, self.review.proposals)
        if target is not None:
            rule, path = target
            self.show_section(rule)
            if path is not None:
                self.table().select_key(path)
            return
        app = self._app
        self.dismiss()
        if not review_health.fix_outside(app, finding):
            app.notify("This finding has no fix to go to", timeout=4)

    def action_select_all(self) -> None:
        if self.section.rule in READ_ONLY:
            self.table().action_toggle_mark()  # says why nothing can be marked here
            return
        self.table().toggle_all()

    def action_show_section_number(self, number: int) -> None:
        """The section of key `number` + 1 (0 for the tenth), as the main list's tabs."""
        self.show_section(SECTIONS[number].rule)

    def action_next_section(self) -> None:
        self._step_section(1)

    def action_previous_section(self) -> None:
        self._step_section(-1)

    def show_section(self, rule: str) -> None:
        """Go to the section of `rule` (`H` from the review goes to Health)."""
        section = next(s for s in SECTIONS if s.rule == rule)
        self._enter(section)
        self.query_one("#review-tabs", Tabs).active = section.tab_id

    def _step_section(self, step: int) -> None:
        """Round the sections, as the tabs do; the tab follows (its message redraws the side)."""
        self.show_section(SECTIONS[(SECTIONS.index(self.section) + step) % len(SECTIONS)].rule)

    def action_apply(self) -> None:
        picked = self.picked()
        if self.review is None or not picked:
            self.notify(
                "Nothing selected: Space marks a candidate, a marks a whole section",
                severity="warning",
                timeout=4,
            )
            return
        proposals = self.review.proposals.values()
        plan = impact.combine(proposals, picked)
        folded = impact.folded(proposals, picked)
        lines = impact.describe(plan, self.review.tree, folded)
        lines += ["", "Their index entries are patched afterwards; u undoes the whole batch."]
        # What the batch does, not how many rows were marked: a memory marked to prune and to
        # promote is promoted, once.
        total = sum(impact.counts(plan.parts).values())
        title = f"Apply {total} reviewed change{'s' * (total != 1)}?"
        danger = any(op.action == "trash" for op in plan.operations)

        def confirmed(yes: bool | None) -> None:
            if yes:
                self._app.change(lambda: plan)

        curator = self._app.curator
        confirm = BatchConfirmScreen(
            title,
            lines,
            plan,
            self.review.tree,
            curator.store.today(),
            self.app.settings.bootstrap_budget,
            danger=danger,
        )
        self.app.push_screen(confirm, confirmed)


def _session_row(path: str, session: str) -> TableRow:
    name = path.rsplit("/", 1)[-1] if path != session else "(no memory files)"
    cells = (Text(""), shown(name), shown(f"session {session.rsplit('/', 1)[-1]}", style="dim"))
    return TableRow(path, cells)


def _fields(values: Mapping[str, Any]) -> str:
    return ", ".join(f"{key}: {format_value(value)}" for key, value in values.items())


def _spaced(parts: list[RenderableType]) -> list[RenderableType]:
    """A blank line between the parts of a note."""
    spaced: list[RenderableType] = []
    for part in parts:
        if spaced:
            spaced.append(Text(""))
        spaced.append(part)
    return spaced


PAIR_MARKS = {
    CONFLICT: (Text("≠", style="bold red"), "≠"),
    SUPERSESSION: (Text("»", style="bold yellow"), "»"),
    RELATED: (Text("≈", style="bold cyan"), "≈"),
}
"""Each verdict's mark in the row and between the two titles (a supersession's points at the
newer)."""
WORDED_APART = "alike in meaning, worded apart"
"""The Why of a related pair with nothing found to differ: it is not a copy in words."""
PAIR_HEADINGS = {
    CONFLICT: ("Possible conflict", "bold red"),
    SUPERSESSION: ("The newer may supersede the older", "bold yellow"),
    RELATED: ("Related: read side by side", "bold cyan"),
}


def _conflict_note(pair: SimilarPair, first: Memory, second: Memory, names: Names) -> Text:
    text = Text()
    heading, style = PAIR_HEADINGS.get(pair.verdict, PAIR_HEADINGS[CONFLICT])
    text.append(heading, style=style)
    text.append(f"  ({pair.meaning:.0%} alike in meaning)\n", style="dim")
    for number, memory in (("1", first), ("2", second)):
        text.append(f"\n{number}  ", style="bold")
        text.append_text(shown(names.shown(memory), style="bold"))
        text.append("\n   ")
        text.append_text(shown(short_path(memory.path), style="dim"))
        if memory.path == pair.newer:
            text.append("  (newer)", style="yellow")
    if pair.cues:
        label = "What opposes them: " if pair.verdict == CONFLICT else "What differs: "
        text.append("\n\n" + label, style="bold")
        text.append_text(shown("; ".join(pair.cues)))
    text.append(
        "\n\n< keeps 1, > keeps 2 (the other goes to the trash), e or E edits one, ", style="dim"
    )
    if pair.verdict == SUPERSESSION:
        text.append(
            "d dismisses the pair to keep both. Keeping the newer adds the older's topics and "
            "references to it.",
            style="dim",
        )
    else:
        text.append("d dismisses the pair. Nothing is merged for you.", style="dim")
    return text
