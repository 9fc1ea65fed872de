"""A labelled set of memory pairs, written as an assistant's memories of software work: what the
meaning thresholds were tuned on, and what the floors of test_meaning_labelled.py hold.

Each pair is two memories: a title line (`# ...`), optionally a `topics:` line, then the body.
PARAPHRASES say the same thing in other words; CONTRADICTIONS are on the same subject and
opposed (polarity, or a different value for the same setting or version); UNRELATED share a
topic and nothing else.
"""

from __future__ import annotations

PARAPHRASES: tuple[tuple[str, str], ...] = (
    (
        "# Use pnpm for packages\ntopics: [tooling, node]\nAlways install dependencies with pnpm; "
        "the lockfile is pnpm-lock.yaml.",
        "# Package manager is pnpm\nWe install packages with pnpm in this repo; the lock file "
        "is pnpm-lock.yaml, keep it committed.",
    ),
    (
        "# Run tests before pushing\nRun the full test suite locally before every push.",
        "# Test locally before push\nBefore pushing, run all the tests on your own machine.",
    ),
    (
        "# Squash merge pull requests\ntopics: [git]\nPull requests are merged with squash so "
        "main keeps one commit per change.",
        "# Squash when merging PRs\nMerge PRs by squashing them: one commit per change on main.",
    ),
    (
        "# Secrets stay out of git\nNever commit secrets or API keys to the repository; they "
        "live in the vault.",
        "# No API keys in the repo\nDo not put API keys or other secrets in git. Keep them in "
        "the vault.",
    ),
    (
        "# Database migrations with Alembic\ntopics: [database]\nSchema changes are written as "
        "Alembic migrations, one per change, and reviewed like code.",
        "# Alembic for schema changes\nEvery change to the database schema gets its own Alembic "
        "migration, reviewed like any other code.",
    ),
    (
        "# Logging format is JSON\nServices log in JSON lines so the collector can parse them.",
        "# Structured JSON logs\nAll services write their logs as JSON, one object per line, "
        "for the log collector to parse.",
    ),
    (
        "# Feature flags for risky changes\nRisky changes ship behind a feature flag that is "
        "off by default.",
        "# Ship risky work behind flags\nPut any risky change behind a feature flag, disabled by "
        "default until it is verified.",
    ),
    (
        "# Code review needs two approvals\ntopics: [process, review]\nA pull request needs two "
        "approving reviews before it can be merged.",
        "# Two approvals to merge\nMerging a PR requires approval from two reviewers.",
    ),
    (
        "# Format Python with ruff\nPython code is formatted with ruff format; the CI check "
        "fails on unformatted files.",
        "# ruff format for Python\nWe format all Python sources with ruff format, and CI fails "
        "when a file is not formatted.",
    ),
    (
        "# Dates in UTC\nStore every timestamp in UTC and convert to local time only for display.",
        "# Timestamps are stored as UTC\nAll times are saved in UTC; local time is only for "
        "showing them to users.",
    ),
    (
        "# Docker images are pinned\ntopics: [docker, ci]\nPin base images by digest in "
        "Dockerfiles so builds are reproducible.",
        "# Pin Docker base images\nDockerfiles reference base images by their digest, which "
        "keeps builds reproducible.",
    ),
    (
        "# User prefers short answers\nThe user wants concise replies: a few sentences, code "
        "first, no long explanations.",
        "# Keep replies brief\nThe user asked for brief answers with the code up front and "
        "little explanation.",
    ),
    (
        "# API errors use problem+json\nHTTP APIs return errors as application/problem+json "
        "with a type, title and detail.",
        "# Error responses follow RFC 7807\nOur APIs answer errors in problem+json: type, title "
        "and detail fields.",
    ),
    (
        "# Retries with backoff\ntopics: [reliability]\nCalls to external services retry with "
        "exponential backoff and jitter.",
        "# Exponential backoff on retries\nWhen an external call fails, retry it with "
        "exponential backoff plus random jitter.",
    ),
    (
        "# Branch names\nBranches are named after the ticket: feature/ABC-123-short-title.",
        "# Naming branches by ticket\nName every branch after its ticket, like "
        "feature/ABC-123-short-title.",
    ),
    (
        "# Frontend state in Redux Toolkit\nGlobal state of the web app lives in Redux Toolkit "
        "slices.",
        "# Redux Toolkit for app state\nThe web app keeps its global state in Redux Toolkit "
        "slices.",
    ),
    (
        "# Coverage gate\ntopics: [testing, ci]\nCI fails a build when line coverage drops below "
        "the main branch's.",
        "# Coverage must not drop\nA build fails in CI if its line coverage is lower than main's.",
    ),
    (
        "# Staging deploys on merge\nEvery merge to main deploys to staging automatically.",
        "# Auto deploy to staging\nMerging into main triggers an automatic deployment to the "
        "staging environment.",
    ),
    (
        "# Ask before deleting files\nThe user wants to be asked before any file is deleted.",
        "# Confirm deletions with the user\nAlways check with the user before removing any file.",
    ),
    (
        "# Type hints everywhere\nAll new Python functions get type hints, and mypy runs in "
        "strict mode.",
        "# Strict mypy and annotations\nEvery new Python function is annotated; mypy is run "
        "with strict settings.",
    ),
    (
        "# Config from environment\ntopics: [config]\nServices read their configuration from "
        "environment variables, never from files baked into the image.",
        "# Environment variables for settings\nConfiguration comes from env vars; we do not "
        "bake config files into images.",
    ),
    (
        "# Changelog entries\nEach user-facing change adds a line to CHANGELOG.md under "
        "Unreleased.",
        "# Update the changelog\nAdd an entry under Unreleased in CHANGELOG.md for every change "
        "users will notice.",
    ),
    (
        "# Slow tests are marked\nTests slower than a second carry the slow marker and run "
        "nightly.",
        "# Mark slow tests\nAny test taking more than one second is marked slow and runs in "
        "the nightly job.",
    ),
    (
        "# Gateway owns auth\ntopics: [auth, gateway]\nThe API gateway validates tokens; "
        "services behind it trust its headers.",
        "# Token checks at the gateway\nTokens are validated by the gateway, and the services "
        "behind it trust the headers it sets.",
    ),
    (
        "# Commit messages in imperative\nWrite commit subjects in the imperative mood, under 72 "
        "characters.",
        "# Imperative commit subjects\nCommit message subjects use the imperative and stay "
        "below 72 characters.",
    ),
    (
        "# Pagination by cursor\nList endpoints paginate with an opaque cursor, not page numbers.",
        "# Cursor-based pagination\nOur list endpoints use opaque cursors for pagination "
        "instead of page numbers.",
    ),
)

CONTRADICTIONS: tuple[tuple[str, str], ...] = (
    (
        "# Package manager\nAlways use pnpm, never npm.",
        "# Package manager\nNever use pnpm; this repo uses npm.",
    ),
    (
        "# Request timeout\ntopics: [gateway]\nThe gateway's upstream timeout: 30 seconds.",
        "# Request timeout\ntopics: [gateway]\nThe gateway's upstream timeout: 60 seconds.",
    ),
    (
        "# Node version\nCI and local development run on Node 18.",
        "# Node version\nCI and local development run on Node 20.",
    ),
    (
        "# Python version\nThe service targets python 3.11.",
        "# Python version\nThe service targets python 3.12.",
    ),
    (
        "# Telemetry in CI\nEnable telemetry in CI builds to catch slow steps.",
        "# Telemetry in CI\nDisable telemetry in CI builds, it slows the steps down.",
    ),
    (
        "# Squash merges\nAlways squash pull requests when merging.",
        "# Squash merges\nNever squash pull requests when merging; keep every commit.",
    ),
    (
        "# Rebase or merge\nRebase feature branches on main before opening a PR.",
        "# Rebase or merge\nDo not rebase feature branches; merge main into them instead.",
    ),
    (
        "# Caching in tests\ntopics: [testing]\nUse the Redis cache in integration tests.",
        "# Caching in tests\ntopics: [testing]\nDon't use the Redis cache in integration tests.",
    ),
    (
        "# Retry count\nFailed jobs retry max_retries: 3 times before alerting.",
        "# Retry count\nFailed jobs retry max_retries: 5 times before alerting.",
    ),
    (
        "# Type checking\nRun mypy in strict mode on every commit.",
        "# Type checking\nDo not run mypy in strict mode; the default mode is enough.",
    ),
    (
        "# Docker base image\nBase images use Debian 12 for the services.",
        "# Docker base image\nBase images use Debian 11 for the services.",
    ),
    (
        "# Deleting files\nThe user wants to be asked before any file is deleted.",
        "# Deleting files\nThe user does not want to be asked before a file is deleted.",
    ),
    (
        "# Feature flags\nKeep feature flags enabled by default in staging.",
        "# Feature flags\nKeep feature flags disabled by default in staging.",
    ),
    (
        "# Postgres version\ntopics: [database]\nProduction runs Postgres 15.",
        "# Postgres version\ntopics: [database]\nProduction runs Postgres 16.",
    ),
    (
        "# Formatting\nAlways run black before committing Python code.",
        "# Formatting\nNever run black before committing Python code; ruff formats it.",
    ),
    (
        "# Connection pool\nThe pool size is pool_size: 10 connections per worker.",
        "# Connection pool\nThe pool size is pool_size: 25 connections per worker.",
    ),
    (
        "# Vendoring\nVendor third-party dependencies into the repository.",
        "# Vendoring\nAvoid vendoring third-party dependencies into the repository.",
    ),
    (
        "# Emojis in commits\nUse emojis in commit messages for the change type.",
        "# Emojis in commits\nNo emojis in commit messages, ever.",
    ),
    (
        "# Go version\ntopics: [go]\nThe module requires Go 1.21.",
        "# Go version\ntopics: [go]\nThe module requires Go 1.22.",
    ),
    (
        "# Session length\nSessions expire after session_ttl = 15 minutes.",
        "# Session length\nSessions expire after session_ttl = 60 minutes.",
    ),
    (
        "# Mocks in unit tests\nAlways mock the database in unit tests.",
        "# Mocks in unit tests\nNever mock the database in unit tests; use a real one.",
    ),
    (
        "# Lockfile\nCommit the lockfile with every dependency change.",
        "# Lockfile\nDon't commit the lockfile; CI generates it.",
    ),
    (
        "# Debug logging\nEnable debug logging in production for the gateway.",
        "# Debug logging\nDisable debug logging in production for the gateway.",
    ),
    (
        "# Worker concurrency\ntopics: [queue]\nWorkers run with concurrency: 4.",
        "# Worker concurrency\ntopics: [queue]\nWorkers run with concurrency: 16.",
    ),
    (
        "# Force pushes\nForce-push to shared branches is fine after a rebase.",
        "# Force pushes\nNever force-push to shared branches, not even after a rebase.",
    ),
    (
        "# Java version\nThe build uses Java 17.",
        "# Java version\nThe build uses Java 21.",
    ),
)

UNRELATED: tuple[tuple[str, str], ...] = (
    (
        "# Use pnpm for packages\ntopics: [tooling]\nInstall dependencies with pnpm.",
        "# Prettier settings\ntopics: [tooling]\nPrettier uses single quotes and a print width "
        "of 100.",
    ),
    (
        "# Run tests before pushing\nRun the full test suite before every push.",
        "# Flaky test in checkout\nThe checkout test fails one run in twenty because of a race "
        "in the payment mock.",
    ),
    (
        "# Squash merges\ntopics: [git]\nPull requests are merged with squash.",
        "# Git LFS for assets\ntopics: [git]\nImages and fonts are stored with Git LFS.",
    ),
    (
        "# Secrets in the vault\nAPI keys live in the vault.",
        "# Rotating TLS certificates\nCertificates are renewed by cert-manager thirty days "
        "before expiry.",
    ),
    (
        "# Alembic migrations\ntopics: [database]\nSchema changes are Alembic migrations.",
        "# Slow query on orders\ntopics: [database]\nThe orders report was slow until an index "
        "on created_at was added.",
    ),
    (
        "# JSON logs\nServices log in JSON lines.",
        "# Log retention\nLogs are kept for fourteen days in the cluster, then archived to "
        "cold storage.",
    ),
    (
        "# Feature flags\nRisky changes ship behind a feature flag.",
        "# Dark mode\nThe settings page got a dark mode toggle that follows the system theme.",
    ),
    (
        "# Two approvals\ntopics: [review]\nA pull request needs two approvals.",
        "# Review of the search service\ntopics: [review]\nThe search service review found "
        "that its cache never expires entries.",
    ),
    (
        "# ruff format\nPython code is formatted with ruff.",
        "# Python packaging\nThe library is built with hatchling and published from a tag.",
    ),
    (
        "# UTC timestamps\nStore every timestamp in UTC.",
        "# Cron schedule of reports\nThe weekly report job runs on Monday mornings.",
    ),
    (
        "# Pinned images\ntopics: [docker]\nPin base images by digest.",
        "# Docker build cache\ntopics: [docker]\nThe CI runner keeps a BuildKit cache volume "
        "between jobs.",
    ),
    (
        "# Short answers\nThe user wants concise replies.",
        "# User's editor\nThe user works in Neovim with a tmux split for tests.",
    ),
    (
        "# problem+json errors\nAPIs return errors as problem+json.",
        "# API versioning\nBreaking API changes get a new /v2 prefix and the old version stays "
        "for six months.",
    ),
    (
        "# Backoff on retries\ntopics: [reliability]\nRetry external calls with exponential "
        "backoff.",
        "# On-call handover\ntopics: [reliability]\nThe on-call engineer writes a handover note "
        "every Friday.",
    ),
    (
        "# Branch names\nBranches are named after the ticket.",
        "# Release tags\nReleases are tagged from main after the changelog is updated.",
    ),
    (
        "# Redux Toolkit\nGlobal state lives in Redux Toolkit slices.",
        "# Bundle size budget\nThe web bundle must stay under 300 kB gzipped.",
    ),
    (
        "# Coverage gate\ntopics: [testing]\nCI fails when coverage drops.",
        "# Property tests\ntopics: [testing]\nThe parser has hypothesis tests that found two "
        "crashes on empty input.",
    ),
    (
        "# Staging deploys\nMerges to main deploy to staging.",
        "# Load balancer health checks\nThe health check path is /healthz and must answer "
        "within two seconds.",
    ),
    (
        "# Ask before deleting\nAsk the user before deleting files.",
        "# User's time zone\nThe user is in Berlin and prefers meetings before noon.",
    ),
    (
        "# Strict mypy\nmypy runs in strict mode.",
        "# Virtual environments\nEach project has its own .venv created with uv.",
    ),
    (
        "# Env config\ntopics: [config]\nServices read configuration from environment variables.",
        "# Config of the linter\ntopics: [config]\nThe eslint config extends the shared "
        "company preset.",
    ),
    (
        "# Changelog\nEach change adds a line to CHANGELOG.md.",
        "# Docs site\nThe documentation is built with MkDocs and published on every release.",
    ),
    (
        "# Slow tests\nSlow tests are marked and run nightly.",
        "# Test data factories\nTests build their objects with factory_boy factories.",
    ),
    (
        "# Gateway auth\ntopics: [auth]\nThe gateway validates tokens.",
        "# Password reset emails\ntopics: [auth]\nReset links expire after an hour and can be "
        "used once.",
    ),
    (
        "# Imperative commits\nCommit subjects are in the imperative.",
        "# Monorepo layout\nServices live under services/, shared code under libs/.",
    ),
    (
        "# Cursor pagination\nList endpoints paginate with a cursor.",
        "# Rate limits\nThe public API allows 100 requests a minute per key.",
    ),
)


def memory_of(text: str, path: str):  # -> Memory (imported here only when judged)
    """A short-term memory of one labelled text: its title line, its topics line if any, and
    the rest as the body under the title."""
    from samantha_tui.core.basics.model import Kind, Memory

    title, _, rest = text.partition("\n")
    topics: tuple[str, ...] = ()
    if rest.startswith("topics:"):
        line, _, rest = rest.partition("\n")
        topics = tuple(t.strip() for t in line.removeprefix("topics:").strip(" []").split(","))
    title = title.removeprefix("# ")
    return Memory(Kind.SHORT_TERM, path, title, body=f"# {title}\n\n{rest}\n", topics=topics)


GROUPS = (
    ("paraphrases", PARAPHRASES),
    ("contradictions", CONTRADICTIONS),
    ("unrelated", UNRELATED),
)


def verdicts(
    engine, groups: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = GROUPS
) -> dict[str, list[str | None]]:
    """Each group's verdicts (DUPLICATE, CONFLICT or None), one per pair, as the product
    judges two memories: their embedded texts' cosine, then pairs.judge. `groups`: this set's
    (GROUPS), or the long one's (meaning_labelled_long.GROUPS)."""
    from samantha_tui.core.views.meaning.pairs import judge
    from samantha_tui.core.views.meaning.text import embedding_text

    found: dict[str, list[str | None]] = {}
    for name, group in groups:
        for one, other in group:
            first, second = memory_of(one, "a.md"), memory_of(other, "b.md")
            texts = [embedding_text(first), embedding_text(second)]
            matrix = engine.embed(texts)
            meaning = float(matrix[0] @ matrix[1])
            pair = judge(first, second, texts[0], texts[1], meaning)
            found.setdefault(name, []).append(None if pair is None else pair.verdict)
    return found


def scores(found: dict[str, list[str | None]]) -> dict[str, float]:
    """Precision and recall of duplicates (paraphrases are the positives) and of conflicts
    (contradictions are), over every labelled pair."""
    from samantha_tui.core.views.meaning import CONFLICT, DUPLICATE

    def rates(verdict: str, positives: str) -> tuple[float, float]:
        said = [(name, v) for name, group in found.items() for v in group if v == verdict]
        right = sum(1 for name, _ in said if name == positives)
        precision = right / len(said) if said else 0.0
        return precision, right / len(found[positives])

    duplicate = rates(DUPLICATE, "paraphrases")
    conflict = rates(CONFLICT, "contradictions")
    return {
        "duplicate_precision": duplicate[0],
        "duplicate_recall": duplicate[1],
        "conflict_precision": conflict[0],
        "conflict_recall": conflict[1],
    }
