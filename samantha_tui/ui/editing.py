"""Editing, as part of the app: every change a person makes, undo, and write conflicts.

A change is a plan built from the newest record inside a worker thread (so two quick presses of
`c` toggle twice rather than both deciding from the same stale record), applied by the curator,
which keeps the undo history and the indexes. The UI thread only asks and shows.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.app import SuspendNotSupported

from ..core.basics.model import Kind, Memory, Problem, short_path
from ..core.writing.atomic import ConflictError, StoreError
from ..core.writing.curator import UndoConflict
from . import keys
from .focus_keys import app_action_allowed, typed_actions
from .imported import class_if_imported
from .messages import Changed, ChangeRefused, Conflicted, while_shown
from .ordered import in_order
from .screens.live_screen import LiveScreen

# The edits, the fixes and every form and dialog load when a change is first asked for: the
# first frame draws none of them.
if TYPE_CHECKING:
    from ..core.basics.plans import Plan
    from ..core.writing.curator import Outcome
    from .host import Host
    from .screens.bulk_form import BulkForm
    from .screens.memory_form import FormResult, MemoryForm
else:
    Host = object  # the app's typed surface, for the type checker only (see host.py)

PlanMaker = Callable[[], "Plan"]
FORM_MODULE = f"{__package__}.screens.memory_form"
BULK_FORM_MODULE = f"{__package__}.screens.bulk_form"
SHOWN_IN_CONFIRM = 12


@dataclass(frozen=True)
class Reopen:
    """A form to bring back, with the person's input, after a write that did not land."""

    kind: Kind
    path: str | None
    draft: dict[str, str]


def editor_command(environ: os._Environ[str] | dict[str, str]) -> list[str] | None:
    """$VISUAL, else $EDITOR, split as a shell would (`code --wait` works); None if neither."""
    for name in ("VISUAL", "EDITOR"):
        words = shlex.split(environ.get(name, ""))
        if words:
            return words
    return None


class Editing(Host):
    """Mixed into SamanthaApp; uses its curator, table, tabs and notices (listed in host.py)."""

    # --- running changes -------------------------------------------------------------------------

    def change(
        self, make_plan: PlanMaker, select: str | None = None, reopen: Reopen | None = None
    ) -> None:
        self._run_change(make_plan, select, reopen, False)

    @in_order
    def _run_change(
        self, make_plan: PlanMaker, select: str | None, reopen: Reopen | None, overwrite: bool
    ) -> None:
        plan: Plan | None = None
        try:
            # Before anything else: a batch's journal must not bring a vanished tree folder back.
            self.store.check_root()
            plan = make_plan()
            if overwrite:
                outcome = self.curator.overwrite(plan)
            else:
                # The list shows the change once its files are written; on a tree samantha-llm
                # keeps, its index patch is most of the time, and finishes after.
                outcome = self.curator.apply(plan, landed=self._show_landed(select))
        except ConflictError as error:
            assert plan is not None
            self.post_message(Conflicted(plan, error.path, reopen))
            return
        except StoreError as error:
            self.post_message(ChangeRefused(str(error)))
            if plan is not None:
                self._recheck(plan)
            if reopen is not None:
                # The write did not land (a full disk, say): the person's input is not lost.
                self.call_from_thread(self._reopen_form, reopen)
            return
        self.post_message(Changed(outcome, select=select))

    def _show_landed(self, select: str | None) -> Callable[[Outcome], None]:
        def landed(outcome: Outcome) -> None:
            self.post_message(Changed(outcome, select=select, landed_only=True))

        return landed

    def _recheck(self, plan: Plan) -> None:
        """After a refused change, take in its files as they are now: another program may have
        changed or deleted one. Not when the tree's folder has gone: a reload shows that."""
        if not self.store.root.is_dir():
            return
        outcome = self.curator.absorb(op.path for op in plan.operations)
        if outcome.changed or self.list_is_behind():
            # Behind: the curator took the files in before it refused (keep mine, then a lock).
            self.post_message(Changed(outcome, notice=False))

    def _current(self, path: str) -> Memory:
        """The newest record at path, or a clear refusal when it has gone."""
        memory = self.curator.get(path)
        if memory is None:
            raise StoreError(f"{path} is no longer in the tree")
        return memory

    def _target(self) -> Memory | None:
        memory = self.selected_memory()
        if memory is None:
            self.notify("Select a memory first", severity="warning", timeout=3)
        return memory

    # --- one-key edits ---------------------------------------------------------------------------

    def action_toggle_critical(self) -> None:
        if self.act_on_marks("critical"):
            return
        if (memory := self._target()) is not None:
            self.toggle_critical_of(memory.path)

    def action_step_importance(self, step: int) -> None:
        if self.act_on_marks("importance", step):
            return
        if (memory := self._target()) is not None:
            self.step_importance_of(memory.path, step)

    def toggle_critical_of(self, path: str) -> None:
        """`c` on any memory, from any screen."""
        from ..core.writing import edits

        self.change(lambda: edits.toggle_critical(self._current(path)))

    def step_importance_of(self, path: str, step: int) -> None:
        """`+` / `-` on any memory, from any screen."""
        from ..core.writing import edits

        self.change(lambda: edits.step_importance(self._current(path), step))

    @in_order
    def action_undo(self) -> None:
        # Asked here, in order: a change queued just before this undo counts.
        if not self.curator.can_undo:
            self.call_from_thread(self.notify, "Nothing to undo in this session", timeout=3)
            return
        try:
            self.store.check_root()
            outcome = self.curator.undo()
        except UndoConflict as error:
            self.post_message(Conflicted(error.plan, error.path, undo=True))
            return
        except StoreError as error:
            self.post_message(ChangeRefused(f"cannot undo: {error}"))
            return
        self.post_message(Changed(outcome))

    @in_order
    def _undo_over_theirs(self, undo: Plan) -> None:
        try:
            self.store.check_root()
            outcome = self.curator.undo_over_theirs(undo)
        except StoreError as error:
            self.post_message(ChangeRefused(f"cannot undo: {error}"))
            self._recheck(undo)
            return
        self.post_message(Changed(outcome))

    @in_order
    def action_redo(self) -> None:
        # Asked here, in order, as undo is: an undo queued just before this redo counts.
        if not self.curator.can_redo:
            self.call_from_thread(self.notify, "Nothing to redo: no change was undone", timeout=3)
            return
        try:
            self.store.check_root()
            outcome = self.curator.redo()
        except StoreError as error:
            self.post_message(ChangeRefused(f"cannot redo: {error}"))
            return
        self.post_message(Changed(outcome))

    # --- fixing a problem ------------------------------------------------------------------------

    def selected_problem(self) -> Problem | None:
        """The problem under the cursor of the Problems tab (its row key is `<path>#<index>`)."""
        key = self.table.selected_key
        if self.current_tab != "problems" or not key or self.memory_tree is None:
            return None
        path, _, number = key.rpartition("#")
        found = self.memory_tree.all_problems
        if not number.isdigit() or int(number) >= len(found) or found[int(number)].path != path:
            return None
        return found[int(number)]

    def action_fix_problem(self) -> None:
        if self.current_tab != "problems":
            self.notify("f fixes a problem: select one in the Problems tab (7)", timeout=4)
            return
        problem = self.selected_problem()
        if problem is None:
            self.notify("Select a problem first", severity="warning", timeout=3)
            return
        memory = self.curator.get(problem.path)
        if memory is None:
            # A file the tree does not list (unreadable, hidden): nothing the form can open.
            self.notify(
                f"{problem.path}: no automatic fix; fix it in the file itself",
                timeout=6,
                markup=False,
            )
            return
        from ..core.writing import edits, fixes
        from .screens.confirm import ConfirmScreen

        try:
            found = fixes.fix_for(memory, problem, self.curator.read_bytes(memory.path))
        except StoreError as error:
            self.notify(str(error), title="No fix", severity="error", timeout=8, markup=False)
            return
        if isinstance(found, fixes.NoFix):
            self.notify(found.reason, title=edits.name_of(memory.path), timeout=6, markup=False)
            if found.field is not None and self._form_can_save(memory):
                self.open_form(memory.kind, memory, focus=found.field)
            return
        fix = found

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.change(fix.plan)

        self.push_screen(ConfirmScreen("Write this fix?", fix.lines(), "Write the fix"), confirmed)

    # --- delete ----------------------------------------------------------------------------------

    def action_delete(self) -> None:
        marked = self.marked_memories()
        targets = marked or ([m] if (m := self._target()) is not None else [])
        if not targets:
            return
        from ..core.reading import subconscious
        from ..core.writing import edits
        from .screens.confirm import ConfirmScreen

        names = [short_path(m.path) for m in targets]
        lines = names[:SHOWN_IN_CONFIRM]
        if len(names) > SHOWN_IN_CONFIRM:
            lines.append(f"… and {len(names) - SHOWN_IN_CONFIRM} more")
        if any(m.kind.is_project_kind for m in targets):
            # Imported here: it brings the curation rules, which a start does not need (6 ms).
            from ..core.writing.impact import also_goes_lines

            lines.append("A project goes with its whole folder.")
            lines.extend(also_goes_lines(edits.delete(targets), self.curator.tree))
        lines.append("They go to .ai/.trash/; u brings them back.")
        lines += subconscious.warnings(self.curator.tree, [m.path for m in targets])
        count = f"{len(targets)} memories" if len(targets) > 1 else "this memory"
        paths = [m.path for m in targets]

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.table.clear_marks()
                self.change(lambda: edits.delete([self._current(p) for p in paths]))

        self.push_screen(
            ConfirmScreen(f"Move {count} to the trash?", lines, "Move to trash", danger=True),
            confirmed,
        )

    # --- forms -----------------------------------------------------------------------------------

    def action_edit(self) -> None:
        if self.act_on_marks("edit"):
            return
        if (memory := self._target()) is not None:
            self.open_form(memory.kind, memory)

    def action_new_memory(self) -> None:
        kind = self.spec().kind or Kind.SHORT_TERM
        self.open_form(kind, None)

    def open_form(
        self,
        kind: Kind,
        memory: Memory | None,
        draft: dict[str, str] | None = None,
        focus: str | None = None,
    ) -> None:
        # A form brought back with the person's input opens whatever the file is now: the input
        # is theirs to keep, and saving says why it cannot be written.
        if memory is not None and draft is None and not self._form_can_save(memory):
            return
        from ..core.reading.fields import build_vocabulary
        from .screens.memory_form import MemoryForm

        vocabulary = build_vocabulary(self.curator.tree)
        form = MemoryForm(kind, memory, vocabulary, self.store.today(), draft, focus=focus)
        self.push_screen(form, lambda result: self._form_saved(kind, result))

    def _form_can_save(self, memory: Memory) -> bool:
        """Whether the file as it is on disk can take the form's fields; if not, say why and
        what to do instead, before anything is typed."""
        from ..core.writing import edits

        try:
            reason = edits.why_fields_cannot_be_saved(self.curator.read_bytes(memory.path))
        except StoreError:
            # Unreadable now (gone, the tree's folder renamed): the form opens as before, and its
            # save says exactly why it cannot land, keeping what was typed.
            return True
        if reason is None:
            return True
        overrides = dict(self.settings.keys)
        editor = keys.display(overrides.get("memory.open_editor", "o"))
        form = keys.display(overrides.get("memory.edit", "e"))
        self.notify(
            f"{memory.path} cannot be edited in the form: {reason}. Press {editor} to open it "
            f"in your editor ($VISUAL or $EDITOR) and fix its frontmatter; then {form} opens "
            "the form.",
            title="Form not opened",
            severity="warning",
            timeout=12,
        )
        return False

    def _form_saved(self, kind: Kind, result: FormResult | None) -> None:
        if result is None:
            return
        from ..core.reading.frontmatter import render_new
        from ..core.writing import edits

        draft = dict(result.draft)
        if result.new_memory is not None:
            new = result.new_memory
            data = render_new(new.mapping, new.body).encode("utf-8")
            reopen = Reopen(kind, None, draft)
            self.change(lambda: edits.create(new.rel, data), select=new.rel, reopen=reopen)
            return
        if not result.set_values and not result.unset and result.title is None:
            self.notify("No changes to save", timeout=3)
            return
        reopen = Reopen(kind, result.path, draft)
        self.change(
            lambda: edits.edit_fields(
                result.path, result.set_values, result.unset, result.digest, result.title
            ),
            reopen=reopen,
        )

    def screens_see_changes(self, changed: tuple[str, ...]) -> None:
        """Tell open screens: a form whose file changed on disk, a review or preview to redo."""
        form = class_if_imported(FORM_MODULE, "MemoryForm")
        for screen in self.screen_stack:
            if isinstance(screen, LiveScreen):
                screen.tree_changed(changed)
            if form is not None and isinstance(screen, form):
                memory = screen.memory
                if memory is not None and memory.path in changed:
                    screen.file_changed(self.curator.get(memory.path))

    # --- keys while a form is open --------------------------------------------------------------

    def open_forms(self) -> list[MemoryForm | BulkForm]:
        # Asked before every key: a form never imported cannot be open, so none is imported here.
        forms = tuple(
            found
            for found in (
                class_if_imported(FORM_MODULE, "MemoryForm"),
                class_if_imported(BULK_FORM_MODULE, "BulkForm"),
            )
            if found is not None
        )
        return [s for s in self.screen_stack if forms and isinstance(s, forms)]

    def form_allows(self, action: str) -> bool:
        """Whether the app's `action` may run where the focus is (see focus_keys.py)."""
        typed = typed_actions(dict(self.settings.keys))
        return app_action_allowed(action, bool(self.open_forms()), self.focused, typed)

    async def action_quit(self) -> None:
        """Quit; with unsaved input in a form, only after the same question Esc asks."""
        dirty = [form for form in self.open_forms() if form.dirty]
        if not dirty:
            self.exit()
            return
        from .screens.memory_form import DiscardQuestion

        if not isinstance(self.screen, DiscardQuestion):
            dirty[-1].ask_to_discard(self.exit, confirm_label="Discard and quit")

    # --- conflicts -------------------------------------------------------------------------------

    @while_shown
    def on_conflicted(self, message: Conflicted) -> None:
        reopen = message.reopen if isinstance(message.reopen, Reopen) else None
        detail = [f"Your change: {message.plan.name}"]

        def chosen(choice: str | None) -> None:
            if choice == "overwrite" and message.undo:
                self._undo_over_theirs(message.plan)
            elif choice == "overwrite":
                self._run_change(lambda: message.plan, None, reopen, True)
            elif choice == "reload":
                self._take_in([message.path], f"{message.path} reloaded; your change was dropped")
            else:
                self._take_in([message.path], "Nothing was written")
                if reopen is not None:
                    self._reopen_form(reopen)

        from .screens.conflict import ConflictScreen

        self.push_screen(ConflictScreen(message.path, detail, message.plan), chosen)

    def _reopen_form(self, reopen: Reopen) -> None:
        """Bring a form back with the person's input, unless the memory it edits has gone."""
        memory = self.curator.get(reopen.path) if reopen.path else None
        if reopen.path is None or memory is not None:
            self.open_form(reopen.kind, memory, reopen.draft)

    @in_order
    def _take_in(self, paths: list[str], notice: str) -> None:
        outcome = self.curator.absorb(paths)
        self.post_message(Changed(outcome, notice=False))
        self.call_from_thread(self.notify, notice, timeout=4)

    # --- the person's own editor -----------------------------------------------------------------

    def action_open_editor(self) -> None:
        memory = self._target()
        if memory is None:
            return
        command = editor_command(os.environ)
        if command is None:
            self.notify(
                "Set $VISUAL or $EDITOR to open files in your editor, e.g. export EDITOR=nano",
                title="No editor",
                severity="error",
                timeout=8,
            )
            return
        try:
            before = self.curator.read_bytes(memory.path)
            with self.suspend():
                subprocess.run([*command, str(self.store.root / memory.path)], check=False)
        except SuspendNotSupported:
            self.notify("This terminal cannot hand over to an editor", severity="error")
            return
        except (StoreError, OSError) as error:
            self.notify(f"cannot open {memory.path}: {error}", severity="error", timeout=8)
            return
        self._take_in_edit(memory.path, before)

    @in_order
    def _take_in_edit(self, path: str, before: bytes) -> None:
        try:
            outcome = self.curator.record_outside_edit(path, before)
        except StoreError as error:
            self.post_message(ChangeRefused(str(error)))
            return
        if outcome is not None:
            self.post_message(Changed(outcome))

    def after_change(self, message: Any) -> None:
        self.search_again()
        self.index_changed(message)
