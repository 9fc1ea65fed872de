"""`python -m bench.meaning_sets`: the meaning verdicts scored on the two labelled sets of pairs
written apart from the rules (tests/unit/meaning_tuning_extra.py, which the rules may be tuned
on, and tests/unit/meaning_heldout.py, which they never are).

Each pair is judged as the product judges two memories (pairs.judge on their embedded texts'
cosine, their dates read as the files' `date`). Printed per set: precision and recall of
`duplicate` (the merge offer), of `conflict` and `supersession` together ("opposed": both say
the two cannot both stand) and of each; how many contradictions and supersessions were offered
as a merge (the one verdict that must never be wrong); and every verdict by label. One JSON line.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from typing import Any

OPPOSED_LABELS = ("conflict", "supersession")


def memory_of(text: Any, path: str) -> Any:
    """A short-term memory of one labelled text (tests/unit/meaning_heldout.Text)."""
    from samantha_tui.core.basics.model import Kind, Memory

    date = dt.date.fromisoformat(text.date) if text.date else None
    body = f"# {text.title}\n\n{text.body}\n"
    return Memory(Kind.SHORT_TERM, path, text.title, body=body, topics=text.topics, date=date)


def verdicts(pairs: Any, engine: Any) -> list[tuple[str, str | None]]:
    """(label, verdict or None) of each labelled pair."""
    from samantha_tui.core.views.meaning.pairs import judge
    from samantha_tui.core.views.meaning.text import embedding_text

    found = []
    for pair in pairs:
        first, second = memory_of(pair.first, "a.md"), memory_of(pair.second, "b.md")
        texts = [embedding_text(first), embedding_text(second)]
        matrix = engine.embed(texts)
        judged = judge(first, second, texts[0], texts[1], float(matrix[0] @ matrix[1]))
        found.append((pair.label, None if judged is None else judged.verdict))
    return found


def _rates(
    found: list[tuple[str, str | None]], said: set[str], right: set[str]
) -> dict[str, float]:
    offered = [label for label, verdict in found if verdict in said]
    hits = sum(1 for label in offered if label in right)
    positives = sum(1 for label, _ in found if label in right)
    return {
        "precision": round(hits / len(offered), 3) if offered else 1.0,
        "recall": round(hits / positives, 3) if positives else 1.0,
        "said": len(offered),
        "positives": positives,
    }


def scores(found: list[tuple[str, str | None]]) -> dict[str, Any]:
    return {
        "pairs": len(found),
        "duplicate": _rates(found, {"duplicate"}, {"duplicate"}),
        "opposed": _rates(found, set(OPPOSED_LABELS), set(OPPOSED_LABELS)),
        "conflict": _rates(found, {"conflict"}, {"conflict"}),
        "supersession": _rates(found, {"supersession"}, {"supersession"}),
        "contradictions_offered_as_merges": sum(
            1 for label, verdict in found if label in OPPOSED_LABELS and verdict == "duplicate"
        ),
        "by_label": {
            label: dict(Counter(str(v) for named, v in found if named == label))
            for label in ("duplicate", "conflict", "supersession", "related", "unrelated")
        },
    }


def measure() -> dict[str, Any]:
    from samantha_tui.core.views.meaning.model import Engine, load_engine
    from tests.unit import meaning_heldout, meaning_tuning_extra

    engine = load_engine()
    if not isinstance(engine, Engine):
        return {"unavailable": str(engine)}
    return {
        "tuning": scores(verdicts(meaning_tuning_extra.pairs(), engine)),
        "heldout": scores(verdicts(meaning_heldout.pairs(), engine)),
    }


if __name__ == "__main__":
    print(json.dumps(measure()))
