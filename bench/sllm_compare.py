"""Check samantha_llm_like's sessions against samantha-llm's own code (not part of `make bench`).

    git -C <samantha-llm clone> archive HEAD | tar x -C /tmp/sllm
    python -m bench.sllm_compare /tmp/sllm

Feeds 400 drawn analyses to samantha-llm's generate_memory_file, finalize_session_memories and
merge in a scratch folder, and prints how many memory files, index entries and merge copy names
differ from ours (all were equal when this was written). Its code is run, never copied.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path

from . import samantha_llm_like as like
from . import sllm_session as S
from . import sllm_words as W


def main(source: Path) -> int:
    sys.path.insert(0, str(source))
    import merge_sessions  # type: ignore[import-not-found]
    import subconscious_worker  # type: ignore[import-not-found]
    from conversation_analyzer import AnalysisResult  # type: ignore[import-not-found]
    from memory_generator import generate_memory_file  # type: ignore[import-not-found]
    from session_workspace import SessionWorkspace  # type: ignore[import-not-found]

    drawn = like.draw_sessions(
        random.Random(5), 400, list(W.ALL_PROJECTS), "Lena", "/home/lena/src",
        dt.date(2026, 1, 1), dt.date(2026, 6, 1), set(),
    )  # fmt: skip
    work = Path(tempfile.mkdtemp())
    ours = like._empty_short_index()
    differ = 0
    for s in drawn:
        space = SessionWorkspace(s.session_id, work)
        space.create()
        a = s.analysis
        path = generate_memory_file(
            AnalysisResult(a.patterns, a.decisions, a.todos, a.preferences, a.learnings, a.summary),
            s.session_id, Path(s.workspace), s.seconds, work, session_workspace=space,
        )  # fmt: skip
        differ += path.name != S.file_name(s) or path.read_text() != S.render(s)
        subconscious_worker.finalize_session_memories(space, work, lambda _: None)
        S.finalize_into(ours, s)
        space.mark_complete({"patterns_count": 0, "decisions_count": 0})
    theirs = json.loads((work / like.SHORT / "index.json").read_text())
    theirs.pop("last_updated"), ours.pop("last_updated")
    before = {p.name for p in (work / like.SHORT).glob("*.md")}
    with contextlib.redirect_stdout(io.StringIO()):
        merge_sessions.merge_completed_sessions(work)
    copies = {p.name for p in (work / like.SHORT).glob("*.md")} - before
    shutil.rmtree(work)
    print(f"memory files differing: {differ} of {len(drawn)}")
    print(f"short-term index equal but for last_updated: {theirs == ours}")
    expected = {f"{S.file_name(s)[:-3]}_{s.session_id}.md" for s in drawn}
    print(f"merge copy names equal: {copies == expected}")
    return 0 if not differ and theirs == ours and copies == expected else 1


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1])))
