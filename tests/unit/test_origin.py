"""Where a memory came from: its session (date, status, project, the other memories it wrote)
and the original of a merge copy."""

from __future__ import annotations

import datetime as dt
import json

from samantha_tui.core.views.origin import (
    AWAITING_MERGE,
    FAILED,
    GONE,
    PROCESSED,
    PROCESSING,
    names_an_origin,
    origin_of,
)

from ..conftest import ST

SESSIONS = ".ai/subconscious/.ai/sessions"
PROCESSED_DIR = ".ai/subconscious/.ai/processed"
SID = "20261128_140000"
PLAIN = "---\ndate: 2026-06-01\ntopics: [x]\n---\n# R\n"


def generated(title: str, session: str = SID, project: str = "gateway") -> str:
    return (
        f"---\ndate: 2026-06-01\ntopics: [ci]\ntype: session-analysis\nsession_id: {session}\n"
        f"project: {project}\n---\n\n# {title}\n\n- **Workspace**: /home/dana/src/{project}\n"
    )


def status(word: str) -> str:
    return json.dumps({"status": word, "session_id": SID})


def test_a_session_memory_names_its_session_status_and_the_others(tree) -> None:
    store = tree(
        {
            f"{ST}/a.md": generated("A"),
            f"{ST}/b.md": generated("B"),
            f"{ST}/c.md": generated("C"),
            f"{ST}/other.md": generated("Other", session="20261127_090000"),
            f"{SESSIONS}/{SID}/status.json": status("complete"),
        }
    )
    memory = store.get(f"{ST}/a.md")
    assert memory is not None

    origin = origin_of(store.tree, memory)

    assert origin is not None and origin.session is not None
    session = origin.session
    assert session.id == SID and session.started == dt.datetime(2026, 11, 28, 14, 0)
    assert session.status == AWAITING_MERGE
    assert (session.project, session.workspace) == ("gateway", "/home/dana/src/gateway")
    assert origin.others == (f"{ST}/b.md", f"{ST}/c.md")
    assert origin.line() == (
        "From session 2026-11-28 14:00 · complete, awaiting merge · project gateway"
        " · 2 other memories"
    )


def test_each_status_of_a_session(tree) -> None:
    cases = {
        "processing": PROCESSING,
        "failed": FAILED,
    }
    for word, expected in cases.items():
        store = tree({f"{ST}/a.md": generated("A"), f"{SESSIONS}/{SID}/status.json": status(word)})
        memory = store.get(f"{ST}/a.md")
        assert memory is not None
        origin = origin_of(store.tree, memory)
        assert origin is not None and origin.session is not None
        assert origin.session.status == expected, word
        (store.root / SESSIONS / SID / "status.json").unlink()


def test_a_processed_session_and_a_gone_one(tree) -> None:
    store = tree(
        {
            f"{ST}/a.md": generated("A"),
            f"{ST}/b.md": generated("B", session="20261101_080000"),
            f"{PROCESSED_DIR}/{SID}/status.json": status("complete"),
        }
    )
    a, b = store.get(f"{ST}/a.md"), store.get(f"{ST}/b.md")
    assert a is not None and b is not None
    first, second = origin_of(store.tree, a), origin_of(store.tree, b)
    assert first is not None and first.session is not None
    assert second is not None and second.session is not None
    assert first.session.status == PROCESSED
    assert first.session.folder == f"{PROCESSED_DIR}/{SID}"
    assert (second.session.status, second.session.folder) == (GONE, None)
    assert second.line().endswith("· gone · project gateway · 0 other memories")


def test_a_merge_copy_names_its_original(tree) -> None:
    store = tree(
        {
            f"{ST}/2026-06-01_retry_rule.md": PLAIN,
            f"{ST}/2026-06-01_retry_rule_{SID}.md": PLAIN,
            f"{ST}/2026-06-02_lonely_{SID}.md": PLAIN,
        }
    )
    copy = store.get(f"{ST}/2026-06-01_retry_rule_{SID}.md")
    lonely = store.get(f"{ST}/2026-06-02_lonely_{SID}.md")
    assert copy is not None and lonely is not None

    origin = origin_of(store.tree, copy)

    assert origin is not None and origin.session is None
    assert origin.original == f"{ST}/2026-06-01_retry_rule.md"
    assert origin.line() == "Merge copy of 2026-06-01_retry_rule.md"
    assert origin_of(store.tree, lonely) is None


def test_a_plain_memory_has_no_origin_and_an_odd_id_reads_no_folder(tree) -> None:
    store = tree(
        {
            f"{ST}/plain.md": "---\ndate: 2026-06-01\ntopics: [x]\n---\n# P\n",
            f"{ST}/odd.md": generated("Odd", session="../../../etc"),
        }
    )
    plain, odd = store.get(f"{ST}/plain.md"), store.get(f"{ST}/odd.md")
    assert plain is not None and odd is not None
    assert origin_of(store.tree, plain) is None
    origin = origin_of(store.tree, odd)
    assert origin is not None and origin.session is not None
    assert (origin.session.started, origin.session.status) == (None, GONE)
    assert origin.line().startswith("From session ../../../etc · gone")


def test_whether_a_memory_names_an_origin_is_told_from_the_record_alone(tree) -> None:
    store = tree(
        {
            f"{ST}/plain.md": PLAIN,
            f"{ST}/generated.md": generated("G"),
            f"{ST}/2026-06-01_rule_{SID}.md": PLAIN,
            f"{ST}/2026-06-01_rule_2026.md": PLAIN,
        }
    )
    named = {m.name: names_an_origin(m) for m in store.tree.memories}
    assert named == {
        "plain.md": False,
        "generated.md": True,
        f"2026-06-01_rule_{SID}.md": True,
        "2026-06-01_rule_2026.md": False,
    }
