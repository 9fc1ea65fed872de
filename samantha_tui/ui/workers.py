"""Background work that can fail without taking the app down.

Textual exits the app when a worker raises: a bug in one change, one search or one screen's
computation would close the curator, taking the person's unsaved form and selection with it. Every
worker here is started through `background`, which turns that off; the app's one handler
(`SamanthaApp.on_worker_state_changed`) then says what failed, and the tree is left as the store
left it (the store undoes a change it could not finish).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from textual import work
from textual.worker import Worker


def background(**options: Any) -> Any:
    """`textual.work` with `exit_on_error=False`: a failure is reported, the app stays.

    The worker is described by its method's name. Textual's own description is the call with
    every argument's repr, made on the event loop as the worker starts: a tree or a report
    passed in was written out whole, 0.8 s of the UI's time per preview at 10,000 memories."""

    def decorate(method: Callable[..., Any]) -> Any:
        described = {"description": method.__name__, **options}
        return work(exit_on_error=False, **described)(method)

    return decorate


def failure_notice(what: str, error: BaseException) -> str:
    """One line for a person about an unexpected failure (the traceback goes to the log)."""
    said = str(error) or type(error).__name__
    return f"{what} failed: {type(error).__name__}: {said}. The tree was left as it was."


def describe_worker(worker: Worker[Any]) -> str:
    """What the worker was doing, in words (its group names the job)."""
    names = {
        "changes": "A change",
        "scan": "Reading the tree",
        "search": "The search",
        "search-index": "Building the search index",
        "watch": "Watching the tree",
        "stats": "The statistics",
        "review": "The review",
        "bootstrap-plan": "The bootstrap preview",
        "bootstrap-change": "Working out the batch's bootstrap change",
        "trash": "Reading the trash",
        "health": "The health report",
        "related": "Finding the memories related in meaning",
        "preview-related": "Finding the memories related in meaning",
        "reader-related": "Finding the memories related in meaning",
        "origin": "Finding where the memory came from",
        "preview-origin": "Finding where the memory came from",
        "reader-origin": "Finding where the memory came from",
        "reader-show": "Showing the memory in the reader",
    }
    return names.get(worker.group, f"Background work ({worker.name})")


def formatted_traceback(error: BaseException) -> str:
    return "".join(traceback.format_exception(error))
