"""The bulk edit form: set fields on every marked memory at once (`e` with rows marked).

Every field starts as "leave as is", and a field left so is not written. A preview under the
fields says which files will change and how, as the person types. The screen only collects and
checks input; it returns a BulkChange and the app makes it one plan through the core.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Label, Select, Static

from ...core.basics import schema
from ...core.basics.model import Kind, Memory
from ...core.reading import fields
from ...core.reading.fields import FieldError, Vocabulary
from ...core.writing import bulk_edits
from ...core.writing.bulk_edits import BulkChange
from ..visible_text import shown
from ..widgets.fitted_footer import FittedFooter
from ..widgets.safe_select import SafeSelect
from .dismiss_once import DismissOnce
from .memory_form import DiscardQuestion

LEAVE = "leave as is"
PREVIEWED = 8
"""Files the preview lists before `… and N more`."""

CRITICAL_CHOICES = (("mark critical", "true"), ("remove critical", "false"))


def _kinds_line(memories: Sequence[Memory]) -> str:
    counts = bulk_edits.kinds_in(memories)
    return ", ".join(f"{count} {kind.label.lower()}" for kind, count in counts.items())


class BulkForm(DismissOnce, Screen[BulkChange | None]):
    """Set fields on `memories`; dismisses with the BulkChange, or None when cancelled."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="bulk.save", priority=True),
        Binding("escape", "cancel", "Cancel", id="bulk.cancel"),
    ]

    def __init__(self, memories: Sequence[Memory], vocabulary: Vocabulary, today: dt.date) -> None:
        super().__init__()
        self.memories = list(memories)
        self.vocabulary = vocabulary
        self.today = today
        kinds = {memory.kind for memory in self.memories}
        self._with_status = any(kind.is_project_kind for kind in kinds)
        self._with_confidence = Kind.PROCEDURAL in kinds

    # --- building --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        count = len(self.memories)
        head = Text.assemble(
            (f"Edit {count} marked memories", "bold"),
            "\n",
            (f"{_kinds_line(self.memories)} · a field left as is is not written", "dim"),
        )
        yield Static(head, id="form-head")
        with VerticalScroll(id="form-body"):
            yield from self._choice("importance", "Importance", schema.IMPORTANCE)
            yield from self._line(
                "critical", "Critical", self._select("critical", CRITICAL_CHOICES)
            )
            yield from self._choice("type", "Type", self.vocabulary.types)
            yield from self._input("project", "Project", "a project name")
            yield from self._input("updated", "Updated", f"YYYY-MM-DD, e.g. {self.today}")
            if self._with_status:
                yield from self._choice("status", "Status", schema.TASK_STATUS, "tasks only")
            if self._with_confidence:
                yield from self._choice("confidence", "Confidence", schema.CONFIDENCE, "runbooks")
            yield from self._input("topics-add", "Add topics", "e.g. release, ci")
            yield from self._input("topics-remove", "Remove topics", "e.g. old-tag")
            yield from self._input("topics-set", "Set topics", "replaces every memory's topics")
        yield Static(id="bulk-preview")
        yield FittedFooter()

    def _line(self, key: str, label: str, control: Any) -> ComposeResult:
        with Horizontal(classes="form-line"):
            yield Label(Text(label), classes="form-label")
            yield control
        yield Label(id=f"error-{key}", classes="form-error")

    def _select(self, key: str, options: Sequence[tuple[str, str]], hint: str = "") -> SafeSelect:
        prompt = f"{LEAVE} ({hint})" if hint else LEAVE
        offered = [(shown(label), value) for label, value in options]
        return SafeSelect(offered, prompt=prompt, compact=True, id=f"bulk-{key}")

    def _choice(self, key: str, label: str, values: Sequence[str], hint: str = "") -> ComposeResult:
        yield from self._line(key, label, self._select(key, [(v, v) for v in values], hint))

    def _input(self, key: str, label: str, hint: str) -> ComposeResult:
        field = Input(placeholder=f"{LEAVE}: {hint}", compact=True, id=f"bulk-{key}")
        yield from self._line(key, label, field)

    def on_mount(self) -> None:
        for label in self.query(".form-error").results(Label):
            label.display = False
        self._refresh()
        self.query_one("#bulk-importance").focus()

    # --- reading the controls --------------------------------------------------------------------

    def raw(self) -> dict[str, str]:
        """What every control holds, blank where left as is."""
        found: dict[str, str] = {}
        for control in self.query("#form-body Input, #form-body Select"):
            key = (control.id or "").removeprefix("bulk-")
            if isinstance(control, Select):
                found[key] = "" if control.is_blank() else str(control.value)
            elif isinstance(control, Input):
                found[key] = control.value
        return found

    @property
    def dirty(self) -> bool:
        """Whether anything was chosen or typed."""
        return any(value.strip() for value in self.raw().values())

    def change(self) -> tuple[BulkChange, dict[str, str]]:
        """The change the controls ask for, and an error per field that cannot be read."""
        raw = self.raw()
        values: dict[str, Any] = {}
        unset: tuple[str, ...] = ()
        errors: dict[str, str] = {}
        for key in ("importance", "type", "status", "confidence"):
            if raw.get(key):
                values[key] = raw[key]
        if raw.get("critical") == "true":
            values["critical"] = True
        elif raw.get("critical") == "false":
            unset = ("critical",)
        for key in ("project", "updated"):
            text = raw.get(key, "").strip()
            if not text:
                continue
            try:
                values[key] = fields.parse_field(fields.SPECS[key], text)
            except FieldError as error:
                errors[key] = str(error)
        topics: dict[str, tuple[str, ...]] = {}
        for key in ("topics-add", "topics-remove", "topics-set"):
            text = raw.get(key, "").strip()
            if not text:
                continue
            try:
                topics[key] = tuple(fields.parse_topics(text))
            except FieldError as error:
                errors[key] = str(error)
        if "topics-set" in topics and ("topics-add" in topics or "topics-remove" in topics):
            errors["topics-set"] = "set the topics, or add and remove some, not both"
        change = BulkChange(
            values=values,
            unset=unset,
            topics_add=topics.get("topics-add", ()),
            topics_remove=topics.get("topics-remove", ()),
            topics_set=topics.get("topics-set"),
        )
        return change, errors

    # --- reacting --------------------------------------------------------------------------------

    @on(Input.Changed)
    @on(Select.Changed)
    def _changed(self) -> None:
        self._refresh()

    def _refresh(self) -> None:
        change, errors = self.change()
        for label in self.query(".form-error").results(Label):
            message = errors.get((label.id or "").removeprefix("error-"), "")
            label.update(shown(message))
            label.display = bool(message)
        self.query_one("#bulk-preview", Static).update(self._preview(change, errors))

    def _preview(self, change: BulkChange, errors: dict[str, str]) -> Text:
        if errors:
            return Text("Fix the fields marked above to see what changes.", style="dim")
        if not change:
            return Text("Nothing to change yet: choose or type a field above.", style="dim")
        files, unchanged = bulk_edits.preview(self.memories, change)
        count = len(self.memories)
        same = (
            f"; {unchanged} already as asked or not of a kind with these fields"
            if unchanged
            else ""
        )
        lines = [f"Will change {len(files)} of {count} files{same}:"]
        lines += [f"  {file_change.describe()}" for file_change in files[:PREVIEWED]]
        if len(files) > PREVIEWED:
            lines.append(f"  … and {len(files) - PREVIEWED} more")
        # File names and topics are the tree's text: escaped, never markup.
        text = shown("\n".join(lines), multi_line=True)
        text.stylize("bold", 0, len(lines[0]))
        return text

    # --- actions ---------------------------------------------------------------------------------

    def action_save(self) -> None:
        change, errors = self.change()
        if errors:
            key = next(iter(errors))
            self.query_one(f"#bulk-{key}").focus()
            self.notify(errors[key], title="Not saved", severity="error", markup=False)
            return
        if not change or not bulk_edits.preview(self.memories, change)[0]:
            self.notify("Nothing would change; nothing was written", markup=False)
            return
        self.dismiss(change)

    def action_cancel(self) -> None:
        self.ask_to_discard(lambda: self.dismiss(None))

    def ask_to_discard(
        self, discarded: Callable[[], object], confirm_label: str = "Discard"
    ) -> None:
        """Run `discarded` now when nothing was set; otherwise only once the person confirms
        (Esc and quitting both ask here, as in the single form)."""
        if not self.dirty:
            discarded()
            return
        changed = [key.replace("-", " ") for key, value in self.raw().items() if value.strip()]

        def answered(discard: bool | None) -> None:
            if discard:
                discarded()

        self.app.push_screen(
            DiscardQuestion(
                "Discard your changes?",
                [f"Set: {', '.join(changed)}"],
                confirm_label=confirm_label,
                danger=True,
            ),
            answered,
        )
