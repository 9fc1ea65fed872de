"""Messages workers post to the app: small records, handled on the UI thread."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from textual.app import App
from textual.css.query import NoMatches
from textual.message import Message

# Only named in signatures: the first frame must not import the writer, the indexes, the search
# or the watcher just to declare the messages about them.
if TYPE_CHECKING:
    from ..core.basics.model import Listed, Tree
    from ..core.basics.plans import Plan
    from ..core.reading.watch import FileBatch
    from ..core.views.indexes import DriftReport
    from ..core.views.search import SearchResult
    from ..core.writing.curator import Outcome


class TreeCatalogued(Message):
    """The tree as the catalog last saw it, in list entries, read without opening a memory file
    or loading a record: drawn at once, while the scan checks the files against it. `drawn` is
    set once they are on screen."""

    def __init__(self, memory_tree: Tree[Listed], drawn: threading.Event) -> None:
        super().__init__()
        self.memory_tree = memory_tree
        self.drawn = drawn


class WatchNow(Message):
    """No list from the catalog to draw first: the watcher starts as the files are read."""


class TreeLoaded(Message):
    """A scan finished."""

    def __init__(self, memory_tree: Tree) -> None:
        super().__init__()
        self.memory_tree = memory_tree


class SearchReady(Message):
    """The search index is built; a query typed meanwhile can run now."""


class SearchDone(Message):
    """Results of search `run` for `query`: the best hits of some tabs, and with the first
    results of a run every tab's count and the paths whose problems match; stale once another
    run has started. `error` says why the query cannot be read."""

    def __init__(
        self,
        run: int,
        query: str,
        results: Mapping[str, SearchResult],
        counts: Mapping[str, int] | None = None,
        matching: frozenset[str] = frozenset(),
        error: str | None = None,
    ) -> None:
        super().__init__()
        self.run = run
        self.query = query
        self.results = results
        self.counts = counts
        self.matching = matching
        self.error = error


class Changed(Message):
    """The tree changed (the app's own change when `notice` is set, else another program's).

    `landed_only`: the app's own change has its files written and its index patch still to
    run; the list shows it now, and a Changed with the whole outcome follows."""

    def __init__(
        self,
        outcome: Outcome,
        notice: bool = True,
        select: str | None = None,
        landed_only: bool = False,
    ) -> None:
        super().__init__()
        self.outcome = outcome
        self.notice = notice
        self.select = select
        self.landed_only = landed_only


class ChangeRefused(Message):
    """A change could not be made; nothing was written."""

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message


class WorkFailed(Message):
    """Background work raised something nobody expected; the app says so and stays open."""

    def __init__(self, what: str, error: BaseException) -> None:
        super().__init__()
        self.what = what
        self.error = error


class Conflicted(Message):
    """A change was refused because its file changed on disk since it was read."""

    def __init__(
        self, plan: Plan, path: str, reopen: object | None = None, undo: bool = False
    ) -> None:
        super().__init__()
        self.plan = plan
        self.path = path
        self.reopen = reopen
        """What to bring back if the person cancels (a form and its input), or None."""
        self.undo = undo
        """The plan is an undo of this session's history (written over theirs by the
        curator's own door for it)."""


class FilesChanged(Message, bubble=False):
    """The watcher saw other programs change files."""

    def __init__(self, batch: FileBatch) -> None:
        super().__init__()
        self.batch = batch


class IndexState(Message):
    """How the index files stand against the memory files, or that they are being rewritten."""

    def __init__(self, report: DriftReport | None, busy: bool = False, error: str = "") -> None:
        super().__init__()
        self.report = report
        self.busy = busy
        self.error = error


Handler = TypeVar("Handler", bound=Callable[..., Any])


def while_shown(handler: Handler) -> Handler:
    """Drop a worker's message that arrives while the app closes, after its screen has gone
    (a handler of the app's, or of one of its screens)."""

    @functools.wraps(handler)
    def guarded(node: Any, message: Message) -> Any:
        app = node if isinstance(node, App) else node.app
        if not app.screen_stack:
            return None
        try:
            return handler(node, message)
        except NoMatches:
            # The widgets went while the app closes: the screen is still on the stack, emptied
            # or being emptied (a shutdown removes its widgets one by one, and a worker's message
            # can land between two of them).
            if app._exit or not app.is_running or not app.screen_stack[0].children:
                return None
            raise

    # The wrapper takes and returns what the handler does: mypy cannot see that of a Handler.
    return guarded  # type: ignore[return-value]


class WorkProgress(Message):
    """How far a piece of background work has got (see ui/work_progress.py).

    Posted when job `job` starts (no counts yet), as it reports (`done` of `total`, `what` a
    phrase for core.progress.words) and once when it ends (`ended`). `started` is when it began,
    on time.monotonic's clock: the bar shows only once work has run for half a second.
    """

    def __init__(
        self,
        job: int,
        started: float,
        done: int = 0,
        total: int = 0,
        what: str = "",
        ended: bool = False,
    ) -> None:
        super().__init__()
        self.job = job
        self.started = started
        self.done = done
        self.total = total
        self.what = what
        self.ended = ended
