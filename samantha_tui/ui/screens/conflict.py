"""The dialog for a write refused because the file changed on disk: reload, overwrite or cancel."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...core.basics.plans import Plan
from ..visible_text import shown
from .button_choices import ButtonChoices
from .key_labels import keyed, keys_of

RELOAD = "reload"
OVERWRITE = "overwrite"
CANCEL = "cancel"
SETS_KEYS = ("edit", "project-fields")
"""Steps that, applied again over the file as it is now, set only their keys: theirs stay."""


def sets_mine_on_theirs(plan: Plan | None) -> bool:
    """True when applying `plan` over the changed file keeps the other program's changes (every
    step sets or removes keys); False when a step puts whole bytes back (an undo)."""
    return plan is None or all(op.action in SETS_KEYS for op in plan.operations)


class ConflictScreen(ButtonChoices, ModalScreen[str]):
    """Says another program changed `path` since it was read; dismisses with the choice made.

    The result is RELOAD, OVERWRITE or CANCEL; `detail` lines (user text, never markup) say what
    changed. Cancel is focused: the safe choice writes nothing. OVERWRITE is named for what it
    does to `plan`: keys set on their version, or (an undo) yours written over theirs.
    """

    SAFE_CHOICE = CANCEL

    BINDINGS = [
        Binding("r", f"choose('{RELOAD}')", "Reload theirs", id="conflict.reload"),
        Binding(
            "k", f"choose('{OVERWRITE}')", "Apply mine to their version", id="conflict.keep_mine"
        ),
        Binding("escape", f"choose('{CANCEL}')", "Cancel", id="conflict.cancel"),
        Binding("left", "switch(-1)", "Previous button", show=False, id="conflict.previous"),
        Binding("right", "switch(1)", "Next button", show=False, id="conflict.next"),
    ]

    def __init__(self, path: str, detail: Sequence[str] = (), plan: Plan | None = None) -> None:
        super().__init__(classes="dialog")
        self._path = path
        self._detail = list(detail)
        self._merges = sets_mine_on_theirs(plan)

    @property
    def keep_label(self) -> str:
        return "Set mine on theirs" if self._merges else "Write mine over theirs"

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static(
                shown(f"Changed on disk: {self._path}", style="bold"), classes="dialog-title"
            )
            with VerticalScroll(classes="dialog-lines"):
                yield Static(self._explanation())
            with Horizontal(classes="dialog-buttons"):
                yield Button(keyed(self, "conflict.reload", "Reload theirs"), id=RELOAD)
                yield Button(
                    keyed(self, "conflict.keep_mine", self.keep_label),
                    id=OVERWRITE,
                    variant="warning",
                )
                yield Button(keyed(self, "conflict.cancel", "Cancel"), id=CANCEL, variant="primary")

    def _explanation(self) -> Text:
        lines = [
            Text(
                "Another program changed this file since you opened it: your change is not saved."
            ),
            *(shown(line, style="dim") for line in self._detail),
            Text(),
            *self._choices(),
        ]
        return Text("\n").join(lines)

    def _choices(self) -> list[Text]:
        choices = [
            (
                keys_of(self, "conflict.reload"),
                "Reload theirs",
                Text("drop your change, show the file as it is"),
            ),
            (keys_of(self, "conflict.keep_mine"), self.keep_label, self._keep_does()),
            (
                keys_of(self, "conflict.cancel"),
                "Cancel",
                Text("write nothing; your edit stays open"),
            ),
        ]
        # The keys and the labels padded to one width, so what each does starts in one column.
        width = max(len(label) for _, label, _ in choices)
        keys_width = max(len(key) for key, _, _ in choices)
        return [
            Text.assemble((f"{key.rjust(keys_width)}  {label.ljust(width)}  ", "bold"), does)
            for key, label, does in choices
        ]

    def _keep_does(self) -> Text:
        if self._merges:
            what = "set the keys you changed on their version; the rest of theirs stays ("
        else:
            what = "replace their version with yours ("
        return Text.assemble(what, ("u", "bold"), " puts their version back)")
