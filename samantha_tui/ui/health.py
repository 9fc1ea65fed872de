"""The memory health report, as part of the app: worked out in a thread after every index check
(the report reads the drift the check found), its score shown in the status line.

The semantic checks load the embedding model on first use (half a second) and compare the tree's
memories by meaning; with `meaning.enabled = false` in the settings, or without the model, the
report says they are off and why, and every other check still runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message
from textual.timer import Timer
from textual.worker import get_current_worker

from .messages import while_shown
from .workers import background

# The report's checks, the bootstrap planner and the meaning engine load with the first report,
# after the first frame (tests/unit/test_startup_imports.py).
if TYPE_CHECKING:
    from ..core.views.health import HealthReport
    from ..core.views.indexes import DriftReport
    from ..core.views.meaning import SimilarPair, Unavailable
    from ..core.writing.curator import Curator
    from ..settings import Settings
    from .host import Host
else:
    Host = object  # the app's typed surface, for the type checker only (see host.py)

HEALTH_AFTER = 0.5
"""Seconds of quiet after an index check before the report is worked out again: a burst of
changes (undoing ten, a batch's parts) makes one report, not one each. At 10,000 memories the
comparison by meaning takes about a second of CPU."""


class HealthChecked(Message):
    """A health report for the newest tree is ready."""

    def __init__(self, report: HealthReport) -> None:
        super().__init__()
        self.report = report


UNASKED_MAX = 20_000
"""Above this many memories nothing is compared by meaning unless asked: not the report worked
out after every change (the pass grows with the square of the tree: about 2 s of CPU at 10,000,
minutes at 100,000) and not the preview's Related line (whose first reading embeds the whole
tree). The review (p), the `m` picker and `samantha-tui health` still compare when asked."""


def meaning_pairs(
    curator: Curator, settings: Settings, unasked: bool = False
) -> tuple[SimilarPair, ...] | Unavailable:
    """The pairs the meaning engine finds in the curator's tree, or why it finds none.
    `unasked`: for the report after a change, which skips a tree over UNASKED_MAX."""
    from ..core.views.meaning import Unavailable
    from ..core.views.meaning.analysis import analyse_if

    memories = curator.tree.memories
    if unasked and settings.meaning and len(memories) > UNASKED_MAX:
        return Unavailable(
            f"not compared after each change in a tree of {len(memories):,} memories (over "
            f"{UNASKED_MAX:,} the comparison takes minutes); the review (p) compares them"
        )
    return analyse_if(settings.meaning, memories, curator.store.catalog())


def report_of(
    curator: Curator,
    settings: Settings,
    drift: DriftReport | None,
    pairs: tuple[SimilarPair, ...] | Unavailable | None = None,
) -> HealthReport:
    """Every check over the curator's tree; safe in a thread (it reads the records and files).
    `pairs`: the meaning engine's, when the caller has them already (None: found here)."""
    from ..core.views import health
    from ..core.views.bootstrap import Signals, UnknownProject
    from ..core.views.bootstrap import plan as bootstrap_plan
    from ..core.writing import dismissed_pairs

    tree, today = curator.tree, curator.store.today()
    try:
        planned = bootstrap_plan(tree, Signals(), today, settings.bootstrap_budget)
    except UnknownProject:
        planned = None  # nothing to measure against the budget without a current project
    return health.health_report(
        tree,
        today,
        bootstrap_plan=planned,
        meaning=meaning_pairs(curator, settings) if pairs is None else pairs,
        dismissed=dismissed_pairs.load_for(curator.store.root).dismissed,
        drift_report=drift,
    )


class Health(Host):
    """Mixed into SamanthaApp; uses its curator, settings and status line (listed in host.py)."""

    def init_health(self) -> None:
        self.health_report: HealthReport | None = None
        """The newest report; None until the first is ready."""
        self._health_timer: Timer | None = None

    def health_soon(self, drift: DriftReport) -> None:
        """Work the report out once the index checks have been quiet for HEALTH_AFTER."""
        if self._health_timer is not None:
            self._health_timer.stop()
        self._health_timer = self.set_timer(HEALTH_AFTER, lambda: self.check_health(drift))

    @background(thread=True, exclusive=True, group="health")
    def check_health(self, drift: DriftReport) -> None:
        # Its counts show once it is slow (a large tree, the meaning model's first reading).
        with self.work_progress(stoppable=True):
            pairs = meaning_pairs(self.curator, self.settings, unasked=True)
            report = report_of(self.curator, self.settings, drift, pairs)
        if not get_current_worker().is_cancelled:
            self.post_message(HealthChecked(report))

    @while_shown
    def on_health_checked(self, message: HealthChecked) -> None:
        self.health_report = message.report
        self.status_line.show_health(message.report.score)
