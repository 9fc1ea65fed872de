"""The frontmatter form: edit a memory's fields (`e`) or fill in a new memory (`n`).

The screen only collects and checks input; it returns a FormResult and the app writes it through
the store. Every rule (fields, parsing, what changed, file names) lives in the core.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.suggester import Suggester
from textual.validation import ValidationResult, Validator
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static, Switch

from ...core.basics import schema
from ...core.basics.model import Kind, Memory
from ...core.basics.visible import has_hidden_characters
from ...core.reading import fields, heading
from ...core.reading.fields import Control, FieldSpec, Vocabulary
from ...core.writing import template
from ...core.writing.atomic import StoreError
from ...core.writing.template import NewMemory
from ..visible_text import shown, visible
from ..widgets.fitted_footer import FittedFooter
from ..widgets.safe_select import SafeSelect
from .confirm import ConfirmScreen
from .dismiss_once import DismissOnce

if TYPE_CHECKING:
    from textual import getters

    from ..host import Host

NEW_PROJECT = "\x00new project"
"""The project select's value that reveals an input for a name no memory uses yet."""

TITLE = FieldSpec("title", "Title", Control.TEXT, required=True)
HEADING = FieldSpec("heading", "Title", Control.TEXT, hint="the body's first # line")
"""An existing memory's title: its `# ` heading line, the only line of the body a save changes."""


@dataclass(frozen=True)
class FormResult:
    """What the person saved: changes to an existing memory, or a new memory to create."""

    path: str
    """The edited memory's path, or the new memory's."""
    set_values: Mapping[str, Any]
    unset: tuple[str, ...]
    digest: str | None
    """The digest of the record the form was opened on (None for a new memory)."""
    draft: Mapping[str, str]
    """The raw text of every field, to reopen the form as it was after a refused write."""
    new_memory: NewMemory | None = None
    title: str | None = None
    """The new text of the `# ` heading line, when the person changed it (None: unchanged)."""


class FieldValidator(Validator):
    """Checks an input with the core's parser for its field, so the screen and the core agree."""

    def __init__(self, spec: FieldSpec) -> None:
        super().__init__()
        self.spec = spec

    def validate(self, value: str) -> ValidationResult:
        try:
            fields.parse_field(self.spec, value)
        except fields.FieldError as error:
            return self.failure(str(error))
        return self.success()


class TopicSuggester(Suggester):
    """Completes the tag being typed (the last one) from the topics the tree already uses."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        # Case is handled by the vocabulary, which keeps the tree's own spelling of each topic.
        super().__init__(case_sensitive=True)
        self._vocabulary = vocabulary

    async def get_suggestion(self, value: str) -> str | None:
        return self._vocabulary.complete_tags(value)


class MemoryForm(DismissOnce, Screen[FormResult | None]):
    """Edit `memory`'s frontmatter, or (memory=None) fill in a new memory of `kind`.

    Dismisses with a FormResult, or None when cancelled or when nothing changed.
    """

    HELP_TITLE = "Memory form"
    HELP_PURPOSE = (
        "The frontmatter of one memory, a field at a time; only the lines of the fields you "
        "change are rewritten. Tab and Shift+Tab move between fields; a field's error shows "
        "beside it. Here ? types a question mark: F1 shows this help."
    )
    HELP_KEYS = {"form.save": "Save the changes", "form.cancel": "Close, asking first if changed"}

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="form.save", priority=True),
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
        # The app's keys stay off in a form (see focus_keys.py), `?` included, which types;
        # this screen's own F1 opens the help page over it, which closes back to the form.
        Binding("f1", "show_help", "Help", id="form.help"),
    ]

    if TYPE_CHECKING:
        # For the type checker only: the app as its screens may use it (see ui/host.py).
        app = getters.app(Host)

    def __init__(
        self,
        kind: Kind,
        memory: Memory | None,
        vocabulary: Vocabulary,
        today: dt.date,
        draft: Mapping[str, str] | None = None,
        *,
        focus: str | None = None,
    ) -> None:
        super().__init__()
        self.kind = kind
        self.memory = memory
        self.vocabulary = vocabulary
        self.today = today
        self._original: dict[str, Any] = dict(memory.frontmatter) if memory else {}
        self._specs = self._form_specs()
        self._initial = self._initial_raw()
        self._start = {**self._initial, **(draft or {})}
        self._shown_errors: dict[str, str] = {}
        self._shown_file: str | None = None
        self._held: dict[str, str] = {}
        """Fields whose value holds control characters: shown escaped, saved exactly as read."""
        keys = [spec.key for spec in self._specs]
        self._first_focus = focus if focus in keys else keys[0]
        """The field to open on (a problem's or a fix's field), else the first."""

    # --- building --------------------------------------------------------------------------------

    def _form_specs(self) -> tuple[FieldSpec, ...]:
        specs = fields.fields_for(self.kind, self._original)
        if self.memory is not None:
            title = HEADING
            if heading.title_in_body(self.memory.body) is None:
                hint = f"none yet: the file name gives {visible(self.memory.title)!r}"
                title = dataclasses.replace(HEADING, hint=hint)
            return (title, *specs)
        # A new memory names its file: the title first, then what its folder or file is named after.
        first: list[FieldSpec] = [TITLE]
        if self.kind.is_project_kind:
            name = FieldSpec("project", "Project name", Control.TEXT, hint="from the title")
            first.append(name)
        elif self.kind is Kind.PROCEDURAL:
            first.append(dataclasses.replace(fields.SPECS["domain"], hint="from the title"))
        named = {spec.key for spec in first}
        return (*first, *(spec for spec in specs if spec.key not in named))

    def _initial_raw(self) -> dict[str, str]:
        values = dict(self._original)
        if self.memory is None:
            values = {
                "date": self.today,
                **template.defaults(self.kind, self.today),
                **template.suggested(self.kind),
            }
        raw = {
            spec.key: "" if spec is TITLE else fields.raw_value(spec, values.get(spec.key))
            for spec in self._specs
        }
        if self.memory is not None:
            raw[HEADING.key] = self._heading_text or ""
        return raw

    @property
    def _heading_text(self) -> str | None:
        return heading.title_in_body(self.memory.body) if self.memory is not None else None

    def compose(self) -> ComposeResult:
        yield Static(self._heading(), id="form-head")
        if self.memory is None:
            yield Static(id="form-file")
        yield Static(id="form-banner")
        with VerticalScroll(id="form-body"):
            for spec in self._specs:
                with Horizontal(classes="form-line"):
                    yield Label(Text(spec.label), classes="form-label")
                    yield from self._controls(spec)
                if spec.key in self._held:
                    note = "holds control characters, shown escaped; edit it in the file itself"
                    yield Label(Text(note), id=f"held-{spec.key}", classes="form-error")
                yield Label(id=f"error-{spec.key}", classes="form-error")
            edited = [spec for spec in self._specs if spec.key != HEADING.key]
            others = fields.other_keys(self._original, edited)
            if others:
                yield Label(Text("Other keys, kept as they are"), classes="form-section")
                lines = "".join(fields.readonly_text(key, self._original[key]) for key in others)
                yield Static(shown(lines.rstrip("\n"), multi_line=True), id="form-other")
        yield FittedFooter()

    def _heading(self) -> Text:
        if self.memory is None:
            # The path is shown below, as the title makes it (#form-file).
            return Text(f"New memory in {self.kind.label}", style="bold")
        title, path = visible(self.memory.title), visible(self.memory.path)
        return Text.assemble((title, "bold"), "\n", (path, "dim"))

    def _controls(self, spec: FieldSpec) -> ComposeResult:
        raw = self._start.get(spec.key, "")
        control_id = f"field-{spec.key}"
        if spec.control is Control.SWITCH:
            yield Switch(value=raw == "true", id=control_id)
        elif spec.control in (Control.CHOICE, Control.PROJECT):
            offered = fields.choices(spec, self.vocabulary, raw)
            options: list[tuple[Text, str]] = [(shown(choice), choice) for choice in offered]
            if spec.control is Control.PROJECT:
                options.append((Text("new project…", style="italic"), NEW_PROJECT))
            yield SafeSelect(
                options, value=raw or Select.NULL, prompt="none", compact=True, id=control_id
            )
            if spec.control is Control.PROJECT:
                name = Input(
                    placeholder="new project name",
                    validators=[FieldValidator(spec)],
                    compact=True,
                    id="field-project-new",
                )
                name.display = False
                yield name
        elif has_hidden_characters(raw):
            # Typing into `\x1b` would write a backslash, not ESC: the field cannot be edited as
            # shown, so it is read-only and a save writes the file's own value back untouched.
            self._held[spec.key] = raw
            yield Input(value=visible(raw), disabled=True, compact=True, id=control_id)
        else:
            yield Input(
                value=raw,
                placeholder=spec.placeholder,
                validators=[FieldValidator(spec)],
                suggester=TopicSuggester(self.vocabulary)
                if spec.control is Control.TOPICS
                else None,
                compact=True,
                id=control_id,
            )

    def on_mount(self) -> None:
        self.query_one("#form-banner", Static).display = False
        for control in self.query(Input):
            control.validate(control.value)
        self._refresh_checks()
        self._focus_field(self._first_focus)

    # --- reading the controls --------------------------------------------------------------------

    def _new_project_chosen(self) -> bool:
        return any(
            isinstance(chooser, Select) and chooser.value == NEW_PROJECT
            for chooser in self.query("#field-project")
        )

    def raw(self) -> dict[str, str]:
        """The text of every field as the person left it (the draft)."""
        raw: dict[str, str] = {}
        for spec in self._specs:
            control = self.query_one(f"#field-{spec.key}")
            if isinstance(control, Switch):
                raw[spec.key] = "true" if control.value else "false"
            elif isinstance(control, Select):
                if control.value == NEW_PROJECT:
                    raw[spec.key] = self.query_one("#field-project-new", Input).value
                else:
                    raw[spec.key] = "" if control.is_blank() else str(control.value)
            elif isinstance(control, Input):
                raw[spec.key] = self._held.get(spec.key, control.value)
        return raw

    def _check(self, raw: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
        """(typed values, errors in field order) for the current input."""
        values, errors = fields.parse_form(self._specs, raw)
        if "date" not in errors and raw.get("date") != self._initial.get("date"):
            # A day typed after today is refused, as `set` and the store refuse it; the day the
            # file already holds is not (its other fields stay editable).
            ahead = schema.future_date_error(values.get("date"), self.today)
            if ahead:
                errors["date"] = ahead
        if self.memory is not None:
            typed = raw.get(HEADING.key, "")
            if not typed.strip() and self._heading_text is not None:
                errors[HEADING.key] = "type a title; to remove the # line, edit the file (o)"
            elif typed.strip() and HEADING.key not in self._held:
                reason = heading.title_error(typed)
                if reason:
                    errors[HEADING.key] = reason
        if self._new_project_chosen() and not raw.get("project", "").strip():
            errors["project"] = "type the new project's name"
        if self.memory is None and not errors:
            try:
                self._new_memory(raw, values)
            except StoreError as error:
                errors[self._naming_key(raw)] = str(error)
        order = [spec.key for spec in self._specs]
        return values, dict(sorted(errors.items(), key=lambda item: order.index(item[0])))

    def _naming_key(self, raw: Mapping[str, str]) -> str:
        """The field a new memory's file is named after: a typed project or domain, or the title."""
        if self.kind.is_project_kind:
            key = "project"
        elif self.kind is Kind.PROCEDURAL:
            key = "domain"
        else:
            return "title"
        return key if raw.get(key, "").strip() else "title"

    def _new_memory(self, raw: Mapping[str, str], values: Mapping[str, Any]) -> NewMemory:
        typed = {key: value for key, value in values.items() if key != "title"}
        return template.new_memory(
            self.kind, raw["title"], typed, self.today, existing=self.vocabulary.taken
        )

    @property
    def dirty(self) -> bool:
        """Whether any field differs from the file (or, for a new memory, from the blank form)."""
        return self.raw() != self._initial

    # --- reacting --------------------------------------------------------------------------------

    @on(Input.Changed)
    @on(Switch.Changed)
    def _input_changed(self) -> None:
        self._refresh_checks()

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "field-project":
            name = self.query_one("#field-project-new", Input)
            name.display = event.value == NEW_PROJECT
            if name.display:
                name.focus()
        self._refresh_checks()

    def _refresh_checks(self) -> None:
        raw = self.raw()
        values, errors = self._check(raw)
        for spec in self._specs:
            message = errors.get(spec.key, "")
            if self._shown_errors.get(spec.key) != message:
                # Only labels whose message changed are repainted: this runs on every keystroke.
                self._shown_errors[spec.key] = message
                label = self.query_one(f"#error-{spec.key}", Label)
                label.update(shown(message))
                label.display = bool(message)
        if self.memory is None:
            rel = "" if errors else self._new_memory(raw, values).rel
            if rel != self._shown_file:
                self._shown_file = rel
                self.query_one("#form-file", Static).update(
                    Text.assemble(
                        ("File: ", "dim"), visible(rel) or ("(fix the fields below)", "dim")
                    )
                )

    def _focus_field(self, key: str) -> None:
        target: Widget = self.query_one(f"#field-{key}")
        if key == "project" and self._new_project_chosen():
            target = self.query_one("#field-project-new", Input)
        target.focus()

    def focus_field(self, key: str) -> bool:
        """Put the cursor in `key`'s field (a problem's field, say), now or once the form is
        mounted; False when the form has no such field."""
        if key not in {spec.key for spec in self._specs}:
            return False
        self._first_focus = key
        if self.is_mounted:
            self._focus_field(key)
        return True

    def file_changed(self, memory: Memory | None) -> None:
        """Say that the file changed (None: was deleted) on disk while the form is open."""
        banner = self.query_one("#form-banner", Static)
        if memory is None:
            message = "This file was deleted on disk while the form was open."
        else:
            message = "This file changed on disk after the form was opened."
        banner.update(shown(f"{message} Your input is kept; saving will report the conflict."))
        banner.display = True

    # --- actions ---------------------------------------------------------------------------------

    def action_save(self) -> None:
        raw = self.raw()
        values, errors = self._check(raw)
        if errors:
            key, message = next(iter(errors.items()))
            label = next(spec.label for spec in self._specs if spec.key == key)
            self._focus_field(key)
            self.notify(f"{label}: {message}", title="Not saved", severity="error", markup=False)
            return
        if self.memory is None:
            new = self._new_memory(raw, values)
            self.dismiss(FormResult(new.rel, {}, (), None, raw, new))
            return
        typed_title = (values.pop(HEADING.key, None) or "").strip()
        title = typed_title if typed_title and typed_title != self._heading_text else None
        set_values, unset = fields.changes(self._original, values)
        if not set_values and not unset and title is None:
            self.notify("Nothing changed; nothing was written", markup=False)
            self.dismiss(None)
            return
        result = FormResult(self.memory.path, set_values, unset, self.memory.digest, raw)
        self.dismiss(dataclasses.replace(result, title=title))

    def action_show_help(self) -> None:
        self.app.action_help()

    def action_cancel(self) -> None:
        self.ask_to_discard(lambda: self.dismiss(None))

    def ask_to_discard(
        self, discarded: Callable[[], object], confirm_label: str = "Discard"
    ) -> None:
        """Run `discarded` now when nothing changed; otherwise only once the person confirms
        dropping the changed fields (Esc closing the form, and quitting, both ask here)."""
        if not self.dirty:
            discarded()
            return
        raw = self.raw()
        changed = [spec.label for spec in self._specs if raw[spec.key] != self._initial[spec.key]]

        def answered(discard: bool | None) -> None:
            if discard:
                discarded()

        self.app.push_screen(
            DiscardQuestion(
                "Discard your changes?",
                [f"Changed: {', '.join(changed)}"],
                confirm_label=confirm_label,
                danger=True,
            ),
            answered,
        )


class DiscardQuestion(ConfirmScreen):
    """The form's "Discard your changes?": while it waits, a quit key does not ask again."""
