"""A value kept per path is worked out again exactly when what it is made from changed."""

from __future__ import annotations

from samantha_tui.core.basics.per_path import PerPath


def test_a_value_is_made_again_only_when_its_inputs_changed() -> None:
    made: list[tuple[str, int]] = []

    def make(body: str, day: int) -> str:
        made.append((body, day))
        return f"{body}@{day}"

    kept = PerPath(make)
    assert kept("a.md", "one", 1) == "one@1"
    assert kept("a.md", "one", 1) == "one@1"
    assert kept("b.md", "one", 1) == "one@1", "another path is its own"
    assert kept("a.md", "one", 2) == "one@2", "a changed input"
    assert kept("a.md", "two", 2) == "two@2"
    assert kept("a.md", "two", 2) == "two@2"
    assert made == [("one", 1), ("one", 1), ("one", 2), ("two", 2)]


def test_past_its_most_paths_it_forgets_and_still_answers_right() -> None:
    kept = PerPath(lambda text: text.upper(), most=3)
    for n in range(10):
        assert kept(f"{n}.md", f"t{n}") == f"T{n}"
    assert len(kept._kept) <= 3
    assert kept("0.md", "changed") == "CHANGED"
