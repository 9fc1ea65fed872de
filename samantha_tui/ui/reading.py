"""Reading, as part of the app: `Enter` opens the reader (in Problems: goes to the fault), `y`
copies the memory's path, `O` opens its folder, `w` goes to where the memory came from. The
reader (screens/reader.py) calls back here for the list's next memory, the path, the folder and
the origin, so both places do the same thing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.basics.model import Memory, Problem
from ..core.basics.visible import has_hidden_characters
from . import origin_jump, related_jump
from .folder_opener import NoOpener, open_folder, opener_command
from .workers import background

if TYPE_CHECKING:
    from .host import Host
else:
    Host = object  # the app's typed surface, for the type checker only (see host.py)


class Reading(Host):
    """Mixed into SamanthaApp; uses its curator, table, tabs and forms (listed in host.py)."""

    def action_read(self) -> None:
        """Enter on the list: the reader on the selected memory; on a problem, go to its fault."""
        key = self.table.selected_key
        if key is None:
            return
        if self.current_tab == "problems" and "#" in key:
            self.go_to_problem(key)
            return
        memory = self.memory_for(key)
        if memory is None:
            self.notify("This file is no longer there", severity="warning", timeout=3)
            return
        self.open_reader(memory)

    def open_reader(self, memory: Memory) -> None:
        from .screens.reader import ReaderScreen  # imported when first opened, as the others

        self.push_screen(ReaderScreen(memory))

    def neighbour(self, path: str, step: int) -> Memory | None:
        """The next (step 1) or previous (-1) memory of the list after the one at `path`, with
        the list's cursor moved onto it; None at the end. Rows of the same file (problems) and
        rows that are not memories are passed over."""
        table = self.table
        index = table.cursor
        if table.selected_key is None or table.selected_key.split("#", 1)[0] != path:
            table.select_key(path)
            index = table.cursor
        while 0 <= index + step < len(table.rows):
            index += step
            memory = self.memory_for(table.rows[index].key)
            if memory is not None and memory.path != path:
                table.cursor = index
                return memory
        return None

    # --- Problems: to the memory and the field at fault -------------------------------------------

    def go_to_problem(self, key: str) -> None:
        problem = self._problem_at(key)
        if problem is None:
            return
        memory = self.curator.get(problem.path)
        if memory is None:
            self.notify(
                f"{problem.format()}\nThis file is not one of the memories the tabs list: fix it "
                "in your editor; ctrl+r reads the tree again.",
                title="Not a memory",
                severity="warning",
                timeout=10,
            )
            return
        self._show_in_its_tab(memory)
        # The form's fields load with the form, when first opened.
        from ..core.basics.problem_field import field_of
        from ..core.reading.fields import fields_for
        from .screens.memory_form import MemoryForm

        shown_keys = (spec.key for spec in fields_for(memory.kind, memory.frontmatter))
        field = field_of(problem, shown_keys)
        # A file the form cannot write (no frontmatter, not UTF-8) is refused with the reason
        # and the way out (`o`, the editor); the reader shows its problems meanwhile.
        if field is None or not self._form_can_save(memory):
            self.open_reader(memory)
            return
        self.open_form(memory.kind, memory)
        form = self.screen
        if isinstance(form, MemoryForm) and form.memory is memory:
            form.focus_field(field)

    def _problem_at(self, key: str) -> Problem | None:
        """The problem a Problems row shows (its key is `path#index` in the tree's list)."""
        path, _, number = key.partition("#")
        problems = self.memory_tree.all_problems if self.memory_tree is not None else []
        if number.isdigit() and int(number) < len(problems):
            problem = problems[int(number)]
            if problem.path == path:
                return problem
        return None

    def _show_in_its_tab(self, memory: Memory) -> None:
        if self.search_bar.display:
            self.action_clear_search()
        tab = self.tab_of(memory.kind)
        self._selection[tab] = memory.path
        self.action_show_tab(tab)

    # --- where it came from ---------------------------------------------------------------------

    def action_origin(self) -> None:
        """`w` on the list: to the original of a merge copy, or pick among its session's others;
        the list's cursor lands on the one reached."""
        if (memory := self._target()) is not None:
            self.follow_origin(memory, self.jump_to)

    @background(group="origin", exclusive=True)
    async def follow_origin(self, memory: Memory, land: Callable[[str], object]) -> None:
        await origin_jump.follow(self, memory, land)

    # --- what is close in meaning ---------------------------------------------------------------

    def action_related(self) -> None:
        """`m` on the list: pick among the memories closest in meaning; the list's cursor lands
        on the one chosen."""
        if (memory := self._target()) is not None:
            self.follow_related(memory, self.jump_to)

    @background(group="related", exclusive=True)
    async def follow_related(self, memory: Memory, land: Callable[[str], object]) -> None:
        await related_jump.follow(self, memory, land)

    # --- the path and the folder ------------------------------------------------------------------

    def absolute_path(self, path: str) -> Path:
        return Path(os.path.abspath(self.store.root / path))

    def action_copy_path(self) -> None:
        if (memory := self._target()) is not None:
            self.copy_path(memory.path)

    def copy_path(self, path: str) -> None:
        """Put the file's absolute path on the clipboard (OSC 52) and say so."""
        full = os.fspath(self.absolute_path(path))
        try:
            full.encode("utf-8")
        except UnicodeEncodeError:
            # The clipboard takes text: a name whose bytes are not UTF-8 has no exact copy.
            self.notify(
                f"{full} is not UTF-8, so it cannot be copied as text",
                severity="warning",
                timeout=6,
            )
            return
        self.copy_to_clipboard(full)
        if has_hidden_characters(full):
            self.notify(f"Copied {full} (it holds control characters, shown escaped)", timeout=6)
        else:
            self.notify(f"Copied {full}", timeout=4)

    def action_open_folder(self) -> None:
        if (memory := self._target()) is not None:
            self.open_folder_of(memory.path)

    def open_folder_of(self, path: str) -> None:
        """Open the memory's folder in the person's file manager, detached; say what happened."""
        folder = self.absolute_path(path).parent
        try:
            command = opener_command(os.environ)
        except NoOpener as error:
            self.notify(str(error), title="No folder opener", severity="warning", timeout=8)
            return
        if not folder.is_dir():
            self.notify(f"{folder} is no longer there", severity="warning", timeout=6)
            return
        try:
            open_folder(command, folder)
        except OSError as error:
            self.notify(
                f"cannot run {command[0]}: {error.strerror or error}",
                title="Folder not opened",
                severity="error",
                timeout=8,
            )
            return
        self.notify(f"Opening {folder}", timeout=3)
