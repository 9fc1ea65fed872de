"""index.md is patched: others' lines stay, the units in scope follow the rendering, and patching
again changes nothing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from samantha_tui.core.basics.model import Kind
from samantha_tui.core.views.indexes.markdown_merge import block_keys, patch_markdown

from ..tiers import examples

OURS = (
    b"# Short-Term Memory Index\n\n**Last Updated**: 2026-06-15\n**Total Memories**: 3\n\n"
    b"## Recent (Last 30 Days)\n\n- `a.md` - A new [topics: x]\n- `b.md` - B [topics: x]\n"
    b"- `c.md` - C [topics: y]\n\n## By Topic\n\n### x\n\n- `a.md`\n- `b.md`\n\n### y\n\n- `c.md`\n"
)


def everything(key: str) -> bool:
    return True


def test_an_appended_section_and_a_hand_line_survive_and_a_new_memory_is_added() -> None:
    theirs = (
        b"# Short-Term Memory Index\n\n**Last Updated**: 2026-06-01\n**Total Memories**: 2\n\n"
        b"## Recent (Last 30 Days)\n\n- `a.md` - A old [topics: x]\n  (ask Dana first)\n"
        b"- `b.md` - B [topics: x]\n\n## By Topic\n\n### x\n\n- `a.md`\n- `b.md`\n\n"
        b"## Notes from the assistant\n\n- keep the CI green\n"
    )
    patched = patch_markdown(OURS, theirs, Kind.SHORT_TERM, everything).decode()
    assert "**Last Updated**: 2026-06-15\n**Total Memories**: 3\n" in patched
    assert "- `a.md` - A new [topics: x]\n  (ask Dana first)\n- `b.md`" in patched
    assert "- `c.md` - C [topics: y]\n\n## By Topic" in patched
    assert "### y\n\n- `c.md`\n" in patched
    assert patched.endswith("## Notes from the assistant\n\n- keep the CI green\n")
    assert "A old" not in patched


def test_units_out_of_scope_are_left_exactly_as_they_are() -> None:
    theirs = b"## Recent (Last 30 Days)\n\n- `a.md` - hand-edited A\n- `b.md` - B old\n"
    ours = b"## Recent (Last 30 Days)\n\n- `a.md` - A\n- `b.md` - B new\n"
    patched = patch_markdown(ours, theirs, Kind.SHORT_TERM, lambda key: key == "b.md")
    assert patched == b"## Recent (Last 30 Days)\n\n- `a.md` - hand-edited A\n- `b.md` - B new\n"


def test_a_section_that_said_none_loses_that_line_once_it_has_a_unit() -> None:
    theirs = b"## CRITICAL\n\nNone.\n\n## Recent\n\n- `b.md` - B\n"
    ours = b"## CRITICAL\n\n- `b.md` - B\n\n## Recent\n\n- `b.md` - B\n"
    patched = patch_markdown(ours, theirs, Kind.SHORT_TERM, everything)
    assert patched == b"## CRITICAL\n\n- `b.md` - B\n\n## Recent\n\n- `b.md` - B\n"


def test_project_blocks_are_tied_by_the_index_name() -> None:
    theirs = (
        b"## Active Projects\n\n### Gateway Refactor\n**Status**: Phase 1\n\n"
        b"### infra-notes\n**Status**: Ongoing\nA note by hand.\n\n"
    )
    ours = (
        b"## Active Projects\n\n### Gateway Refactor\n**Status**: Phase 2\n\n"
        b"### infra-notes\n**Status**: Ongoing\n\n"
    )
    keys = block_keys(Kind.CURRENT_TASKS, {"Gateway Refactor": "gateway"})
    patched = patch_markdown(ours, theirs, Kind.CURRENT_TASKS, lambda k: k == "gateway", keys)
    assert b"**Status**: Phase 2\n" in patched and b"Phase 1" not in patched
    assert b"### infra-notes\n**Status**: Ongoing\nA note by hand.\n" in patched


HAND = st.sampled_from([b"a hand note\n", b"\n", b"None.\n", b"## Appended\n", b"- plain item\n"])
UNITS = st.sampled_from([b"- `a.md` - A old\n", b"- `b.md` - B\n", b"- `z.md` - Z gone\n"])


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.one_of(HAND, UNITS), max_size=14), st.sets(st.sampled_from("abcz")))
def test_patching_twice_is_patching_once_and_keeps_every_line_out_of_scope(
    middle: list[bytes], scope: set[str]
) -> None:
    theirs = b"# Short-Term Memory Index\n\n## Recent (Last 30 Days)\n\n" + b"".join(middle)

    def in_scope(key: str) -> bool:
        return key[0] in scope

    once = patch_markdown(OURS, theirs, Kind.SHORT_TERM, in_scope)
    assert patch_markdown(OURS, once, Kind.SHORT_TERM, in_scope) == once
    kept = [
        line
        for line in theirs.splitlines(keepends=True)
        if not (line.startswith(b"- `") and line[3:4].decode() in scope)
        and line not in (b"None.\n",)
    ]
    lines = once.splitlines(keepends=True)
    # Every line out of scope is still there, in its order.
    position = 0
    for line in kept:
        while position < len(lines) and lines[position] != line:
            position += 1
        assert position < len(lines), line
        position += 1
