"""Extra labelled memory pairs for tuning the "meaning" verdicts (tuning may look at these).

Written on 2026-12-07 by the `heldout` helper session, blind to the rules, together with the
held-out set in `meaning_heldout.py`. This file is the one the rules may be tuned on; the held-out
file is not. The domains here (web backends, CI, git, Python tooling, code review) differ from the
held-out set's, and no sentence is shared between the two files (the self-test checks this).

Each `Pair` holds two memories as samantha-llm would store them (title = the first `# ` heading,
body = the Markdown after it, frontmatter `date` and `topics`) and the label a careful reader would
give: duplicate, conflict, supersession, related or unrelated (see `meaning_heldout.py`).
"""

from __future__ import annotations

import textwrap

# The same shapes as the held-out set's, so one scorer reads both (bench/meaning_sets.py).
from .meaning_heldout import Pair, Text


def _md(text: str) -> str:
    """A Markdown body written indented in this file, as it would sit in the memory file."""
    return textwrap.dedent(text).strip()


_PAIRS: tuple[Pair, ...] = (
    # ------------------------------------------------------------------ duplicates
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Rebase before review",
            body="Rebase feature branches on main before opening a PR; we keep a linear history.",
            date="2026-02-03",
            topics=("git", "workflow"),
        ),
        second=Text(
            title="Linear history",
            body=(
                "Bring your branch up to date by rebasing onto main, not by merging main in,"
                " before the pull request goes up. History stays linear."
            ),
            date="2026-05-12",
            topics=("git", "branches"),
        ),
        note="Same rebase-first rule for a linear history.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Pinned dependencies",
            body="Pin every direct dependency to an exact version in requirements.txt.",
            date="2026-01-27",
            topics=("python", "dependencies"),
        ),
        second=Text(
            title="No version ranges",
            body=(
                "Direct dependencies are listed with == pins in requirements.txt; ranges such as"
                " >= or ~= are not used."
            ),
            date=None,
            topics=("python", "packaging"),
        ),
        note="Exact pins, stated positively and by excluding ranges.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Green CI before merge",
            body=(
                "CI must pass on every pull request before it can be merged; there are no admin"
                " overrides."
            ),
            date="2026-03-02",
            topics=("ci", "merging"),
        ),
        second=Text(
            title="Red checks block merging",
            body=(
                "Nobody, admins included, can merge a pull request while its checks are failing"
                " or still running."
            ),
            date="2026-03-09",
            topics=("ci", "branch-protection"),
        ),
        note="Same merge gate; both exclude admins.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="API error format",
            body=_md(
                """
                Every error response from the HTTP API has the same JSON shape:

                - `error.code`: a stable, machine-readable string such as `invoice_not_found`;
                - `error.message`: a sentence for humans, which may change between releases;
                - `error.request_id`: the id from the X-Request-Id header, for support.

                Validation errors add `error.fields`, a map from field name to a list of
                problems. Clients must branch on `code`, never on `message`.
                """
            ),
            date="2026-02-17",
            topics=("api", "errors"),
        ),
        second=Text(
            title="How the API reports errors",
            body=_md(
                """
                Errors come back as JSON with one `error` object. Its `code` is a fixed string
                meant for programs (for example `invoice_not_found`), its `message` is prose for
                people and can be reworded in any release, and its `request_id` repeats the
                X-Request-Id header so support can find the logs.

                When input fails validation, `error.fields` maps each bad field to its list of
                problems. Client code should switch on the code; the message text is not a
                contract.
                """
            ),
            date="2026-06-23",
            topics=("api", "http"),
        ),
        note="Same error shape and client rule, as bullets and as prose.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="One tool for lint and format",
            body="We use ruff for both linting and formatting; black and isort were removed.",
            date="2026-04-01",
            topics=("python", "linting"),
        ),
        second=Text(
            title="Ruff only",
            body=(
                "Ruff is the only linter and formatter in the repo, having replaced black and"
                " isort."
            ),
            date="2026-04-15",
            topics=("ruff", "tooling"),
        ),
        note="Same tooling fact, reworded.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Timestamps in API payloads",
            body="All API timestamps are ISO 8601 strings in UTC with a trailing Z.",
            date="2026-01-13",
            topics=("api", "dates"),
        ),
        second=Text(
            title="Date format in responses",
            body=(
                "Dates in API responses are formatted as ISO-8601 UTC, for example"
                " 2026-03-01T12:00:00Z."
            ),
            date="2026-01-13",
            topics=("api", "serialization"),
        ),
        note="Same format; the second gives an example instead of naming the Z.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="CI caching",
            body=_md(
                """
                What the pipeline caches and why:

                - the pip download cache, keyed on the hash of the lock file, so a dependency
                  change starts from a clean cache;
                - the pre-commit environments, keyed on .pre-commit-config.yaml;
                - nothing from the build output: every run builds the wheel from scratch, so a
                  stale artefact can never be what gets tested.

                A cache miss costs about three minutes; a poisoned cache costs a day.
                """
            ),
            date="2026-03-18",
            topics=("ci", "caching"),
        ),
        second=Text(
            title="What our pipeline keeps between runs",
            body=_md(
                """
                Two caches survive between pipeline runs. Pip's download cache is keyed on the
                lock file's hash, so changing a dependency means starting clean, and the
                pre-commit environments are keyed on their config file.

                Build output is deliberately not cached: the wheel is rebuilt on every run, which
                guarantees we never test an old artefact. Missing the cache costs us roughly
                three minutes, whereas a corrupted cache once cost a whole day.
                """
            ),
            date="2026-08-04",
            topics=("ci", "performance"),
        ),
        note="Same caching policy and reasons, list versus prose.",
    ),
    Pair(
        label="duplicate",
        kind="number",
        first=Text(
            title="Commit message shape",
            body=(
                "Commit messages: an imperative subject of at most 72 characters, a blank line,"
                " then a body explaining why."
            ),
            date="2026-02-09",
            topics=("git", "commits"),
        ),
        second=Text(
            title="Writing commit messages",
            body=(
                "Write the subject in the imperative mood, no longer than seventy-two characters,"
                " and use the body to say why the change was made."
            ),
            date="2026-07-14",
            topics=("git", "conventions"),
        ),
        note="72 and seventy-two: the same limit and the same rule.",
    ),
    Pair(
        label="duplicate",
        kind="negation",
        first=Text(
            title="Unit tests stay offline",
            body="Unit tests must not touch the network; anything remote is faked.",
            date="2026-05-05",
            topics=("testing", "unit-tests"),
        ),
        second=Text(
            title="Fakes for remote services",
            body=(
                "No real network calls in unit tests: remote services are always replaced by fakes."
            ),
            date="2026-05-27",
            topics=("testing", "fakes"),
        ),
        note="Both negate the same thing; nothing opposes.",
    ),
    Pair(
        label="duplicate",
        kind="unit",
        first=Text(
            title="Idle session expiry",
            body="Session cookies expire after 2 hours without any activity from the user.",
            date="2026-04-20",
            topics=("web", "sessions"),
        ),
        second=Text(
            title="Session lifetime",
            body=(
                "An idle session is logged out after 120 minutes; that is the session cookie's"
                " lifetime."
            ),
            date="2026-04-20",
            topics=("auth", "cookies"),
        ),
        note="2 hours equals 120 minutes.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Publishing a package release",
            body=_md(
                """
                To release the client library to PyPI:

                1. Update CHANGELOG.md and move the Unreleased items under the new version.
                2. Bump the version in pyproject.toml in the same commit.
                3. Push a tag vX.Y.Z; the release workflow builds the sdist and wheel and uploads
                   them with trusted publishing.
                4. Check the project page on PyPI and install the new version in a fresh venv.

                Nobody uploads from their own machine, and no API token exists for the project.
                """
            ),
            date="2026-02-26",
            topics=("python", "releases", "pypi"),
        ),
        second=Text(
            title="Client library release steps",
            body=_md(
                """
                Releases of the client library go out from the release workflow only; there is
                no PyPI token, and uploading from a laptop is not how we do it.

                In one commit, the changelog's Unreleased section becomes the new version's
                section and pyproject.toml gets the new version number. Pushing the vX.Y.Z tag
                then builds both the sdist and the wheel and uploads them through trusted
                publishing. Finish by looking at the PyPI page and installing the release into a
                clean virtual environment.
                """
            ),
            date="2026-09-03",
            topics=("pypi", "releases"),
        ),
        note="Same release procedure, numbered versus prose.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Review requirement",
            body="Every PR needs one approving review from someone other than the author.",
            date="2026-01-07",
            topics=("code-review",),
        ),
        second=Text(
            title="When a pull request can merge",
            body=(
                "A pull request is mergeable once at least one reviewer who did not write it"
                " approves."
            ),
            date="2026-06-09",
            topics=("code-review", "merging"),
        ),
        note="One approval from a non-author, both ways round.",
    ),
    Pair(
        label="duplicate",
        kind="number",
        first=Text(
            title="Job retries",
            body=(
                "Background jobs are retried up to three times with exponential backoff before"
                " they land in the dead-letter queue."
            ),
            date="2026-03-24",
            topics=("jobs", "celery"),
        ),
        second=Text(
            title="Failing jobs",
            body=(
                "A failing background job gets 3 more attempts, each waiting longer than the"
                " last, and then goes to the dead-letter queue."
            ),
            date="2026-03-24",
            topics=("jobs", "retries"),
        ),
        note="Three retries with growing waits, then dead letters; same policy.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Review etiquette",
            body=_md(
                """
                How we review each other's code:

                - Answer a review request within one working day, even if only to say when you
                  will look.
                - Prefix optional remarks with "nit:" so the author knows they can ignore them.
                - Ask questions rather than give orders: "what happens if this is empty?" beats
                  "handle the empty case".
                - Approve once the remaining comments are nits; do not hold a PR hostage for
                  style.
                """
            ),
            date="2026-04-08",
            topics=("code-review", "team"),
        ),
        second=Text(
            title="Reviewing code kindly",
            body=_md(
                """
                Reviewers reply to a request within a working day; a note saying when you will
                get to it counts. Optional suggestions start with "nit:", which tells the author
                they are free to skip them.

                Phrase concerns as questions instead of commands, e.g. ask what an empty list
                would do rather than ordering a fix. When only nits are left, approve: style
                preferences are not a reason to block a pull request.
                """
            ),
            date="2026-10-19",
            topics=("code-review",),
        ),
        note="Same four review habits in prose.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="A transaction per request",
            body=(
                "Database transactions wrap each request in the web app; a view that raises rolls"
                " everything back."
            ),
            date="2026-08-20",
            topics=("django", "transactions"),
        ),
        second=Text(
            title="Atomic requests",
            body=(
                "Each HTTP request runs inside one database transaction, and an exception in the"
                " view undoes all of its writes."
            ),
            date="2026-10-01",
            topics=("web", "database"),
        ),
        note="Same atomic-request behaviour, reworded.",
    ),
    # ------------------------------------------------------------------ conflicts
    Pair(
        label="conflict",
        kind="negation",
        first=Text(
            title="Hidden resources",
            body="The API returns 404 for resources the caller has no permission to see.",
            date=None,
            topics=("api", "authorization"),
        ),
        second=Text(
            title="Forbidden versus missing",
            body=(
                "The API does not return 404 for resources the caller has no permission to see;"
                " it answers 403 so clients know they exist."
            ),
            date=None,
            topics=("api", "authorization"),
        ),
        note="Returns 404 versus does not return 404, for the same case.",
    ),
    Pair(
        label="conflict",
        kind="before_after",
        first=Text(
            title="Tag then bump",
            body="Tag the release commit before bumping the version in pyproject.toml.",
            date="2026-05-19",
            topics=("releases", "versioning"),
        ),
        second=Text(
            title="Bump then tag",
            body=(
                "Bump the version in pyproject.toml first, then put the release tag on that commit."
            ),
            date="2026-05-19",
            topics=("releases", "versioning"),
        ),
        note="Opposite order for the same two steps, same date.",
    ),
    Pair(
        label="conflict",
        kind="allow_forbid",
        first=Text(
            title="Force-push on shared branches",
            body=(
                "Force-pushing to shared feature branches is allowed as long as you warn the"
                " others working on them."
            ),
            date=None,
            topics=("git", "collaboration"),
        ),
        second=Text(
            title="No force-push once shared",
            body="Force-pushing to any branch that someone else has already pulled is forbidden.",
            date=None,
            topics=("git", "collaboration"),
        ),
        note="Allowed with a warning versus forbidden, same branches.",
    ),
    Pair(
        label="conflict",
        kind="always_never",
        first=Text(
            title="Lock file in git",
            body="Always commit poetry.lock for our applications so every install is reproducible.",
            date=None,
            topics=("python", "poetry"),
        ),
        second=Text(
            title="Lock file policy",
            body=(
                "Never commit poetry.lock for the applications; CI resolves the dependencies fresh"
                " on each run."
            ),
            date=None,
            topics=("python", "poetry"),
        ),
        note="Always versus never for the same file.",
    ),
    Pair(
        label="conflict",
        kind="enable_disable",
        first=Text(
            title="Parallel tests in CI",
            body="Enable parallel test execution with pytest-xdist in the CI test job.",
            date="2026-06-16",
            topics=("ci", "pytest"),
        ),
        second=Text(
            title="xdist and the database fixtures",
            body=(
                "Disable pytest-xdist in the CI test job; the database fixtures cannot be shared"
                " across workers."
            ),
            date="2026-06-16",
            topics=("ci", "pytest"),
        ),
        note="Enable versus disable of the same plugin for the same job.",
    ),
    Pair(
        label="conflict",
        kind="safe_unsafe",
        first=Text(
            title="Retrying payment creation",
            body=(
                "It is safe to retry POST /payments on a timeout, because the idempotency key"
                " makes a repeat harmless."
            ),
            date=None,
            topics=("payments", "retries"),
        ),
        second=Text(
            title="Payment retries",
            body=(
                "Retrying POST /payments after a timeout is unsafe: the endpoint can charge the"
                " customer twice."
            ),
            date=None,
            topics=("payments", "retries"),
        ),
        note="Safe versus unsafe retry of the same call.",
    ),
    Pair(
        label="conflict",
        kind="may_maynot",
        first=Text(
            title="Reviewer commits",
            body="Reviewers may push small fixes directly to the author's branch.",
            date="2026-08-11",
            topics=("code-review", "git"),
        ),
        second=Text(
            title="Hands off the author's branch",
            body=(
                "Reviewers may not push to someone else's branch; they leave suggested changes"
                " instead."
            ),
            date="2026-08-11",
            topics=("code-review", "git"),
        ),
        note="May versus may not for the same action.",
    ),
    Pair(
        label="conflict",
        kind="antonym",
        first=Text(
            title="Caching /account",
            body=(
                "Mark /account responses as public in Cache-Control so the CDN can cache them at"
                " the edge."
            ),
            date=None,
            topics=("http", "caching"),
        ),
        second=Text(
            title="Cache-Control for /account",
            body=(
                "Mark /account responses as private in Cache-Control so that shared caches keep"
                " no copy."
            ),
            date=None,
            topics=("http", "caching"),
        ),
        note="Public versus private for the same responses.",
    ),
    Pair(
        label="conflict",
        kind="near_identical_opposite",
        first=Text(
            title="Warnings in the test suite",
            body=(
                "Warnings are turned into errors in the test suite, so a new deprecation warning"
                " fails the build."
            ),
            date="2026-07-02",
            topics=("pytest", "warnings"),
        ),
        second=Text(
            title="Warnings in tests",
            body=(
                "Warnings are ignored in the test suite, so a new deprecation warning does not"
                " fail the build."
            ),
            date="2026-07-02",
            topics=("pytest", "warnings"),
        ),
        note="Near-identical wording with opposite effect.",
    ),
    Pair(
        label="conflict",
        kind="antonym",
        first=Text(
            title="Deploy pipeline",
            body=_md(
                """
                What happens after a pull request is merged to main:

                1. The pipeline builds the container image and tags it with the commit sha.
                2. It runs the migration check against a copy of the staging database.
                3. The image is deployed to staging automatically, with no human step.
                4. Smoke tests run against staging; production waits for a release tag.

                If the smoke tests fail, the pipeline posts in #deploys and pages nobody.
                """
            ),
            date="2026-09-08",
            topics=("ci", "deploys"),
        ),
        second=Text(
            title="Deploy pipeline stages",
            body=_md(
                """
                Stages that run once a pull request lands on main:

                1. Build the container image, tagged with the commit sha.
                2. Check migrations against a copy of the staging database.
                3. Hold for manual approval; a maintainer has to press the button before the
                   image goes to staging.
                4. Smoke-test staging; production deploys only from a release tag.

                Failed smoke tests post to #deploys without paging anyone.
                """
            ),
            date="2026-09-08",
            topics=("ci", "deploys"),
        ),
        note="Same pipeline except staging deploy: automatic versus manual approval.",
    ),
    # near-identical wording, one value differs, nothing orders them
    Pair(
        label="conflict",
        kind="number",
        first=Text(
            title="Gunicorn workers",
            body="Gunicorn runs with 4 sync workers per web container.",
            date=None,
            topics=("web", "gunicorn"),
        ),
        second=Text(
            title="Web container workers",
            body="Gunicorn runs with 8 sync workers per web container.",
            date=None,
            topics=("web", "gunicorn"),
        ),
        note="4 versus 8 workers, no dates.",
    ),
    Pair(
        label="conflict",
        kind="version",
        first=Text(
            title="Supported Python versions",
            body="The library supports Python 3.10 and every newer release.",
            date="2026-03-31",
            topics=("python", "compatibility"),
        ),
        second=Text(
            title="Python support range",
            body="The library supports Python 3.11 and every newer release.",
            date="2026-03-31",
            topics=("python", "compatibility"),
        ),
        note="3.10 versus 3.11 as the floor, same date.",
    ),
    Pair(
        label="conflict",
        kind="unit",
        first=Text(
            title="Request body limit",
            body="Request bodies larger than 5 MB are rejected by the API with status 413.",
            date=None,
            topics=("api", "limits"),
        ),
        second=Text(
            title="Body size limit",
            body="Request bodies larger than 5 KB are rejected by the API with status 413.",
            date=None,
            topics=("api", "limits"),
        ),
        note="Same number, MB versus KB.",
    ),
    Pair(
        label="conflict",
        kind="number",
        first=Text(
            title="CI job timeout",
            body="Each CI job is cancelled if it runs longer than 20 minutes.",
            date="2026-10-06",
            topics=("ci", "timeouts"),
        ),
        second=Text(
            title="Job time limit",
            body="Each CI job is cancelled if it runs longer than 45 minutes.",
            date="2026-10-06",
            topics=("ci", "timeouts"),
        ),
        note="20 versus 45 minutes, same date.",
    ),
    Pair(
        label="conflict",
        kind="version",
        first=Text(
            title="Frontend build in CI",
            body=_md(
                """
                The frontend job in CI:

                - uses Node 20 from the official image, with npm ci against the committed
                  package-lock.json;
                - runs the type check, the unit tests and then the production build;
                - uploads the built assets as an artefact that the deploy job picks up.

                Local development should use the same Node major version; .nvmrc in the repo
                root names it, and a mismatch is the usual cause of "works on my machine".
                """
            ),
            date=None,
            topics=("ci", "node"),
        ),
        second=Text(
            title="Frontend build in CI (notes)",
            body=_md(
                """
                The frontend job in CI:

                - uses Node 22 from the official image, with npm ci against the committed
                  package-lock.json;
                - runs the type check, the unit tests and then the production build;
                - uploads the built assets as an artefact that the deploy job picks up.

                Local development should use the same Node major version; .nvmrc in the repo
                root names it, and a mismatch is the usual cause of "works on my machine".
                """
            ),
            date=None,
            topics=("ci", "node"),
        ),
        note="Long and identical except the Node major version (20 versus 22), no dates.",
    ),
    # ------------------------------------------------------------------ supersessions
    Pair(
        label="supersession",
        kind="other",
        first=Text(
            title="Dependency tooling",
            body=(
                "Dependencies are managed with pip-tools: requirements.in is compiled to"
                " requirements.txt."
            ),
            date="2026-01-21",
            topics=("python", "dependencies"),
        ),
        second=Text(
            title="Moved to uv",
            body=(
                "Switched dependency management from pip-tools to uv; uv.lock replaces the"
                " compiled requirements files."
            ),
            date="2026-06-02",
            topics=("python", "dependencies", "uv"),
        ),
        note="Tool replaced, later date says what replaced what.",
    ),
    Pair(
        label="supersession",
        kind="version",
        first=Text(
            title="CI runner image",
            body="All CI jobs run on ubuntu-22.04 hosted runners by default.",
            date="2026-02-12",
            topics=("ci", "runners"),
        ),
        second=Text(
            title="Runner image upgrade",
            body=(
                "Moved every CI job to ubuntu-24.04 runners; the 22.04 image is no longer used"
                " anywhere."
            ),
            date="2026-07-22",
            topics=("ci", "runners"),
        ),
        note="Runner version bumped; newer memory retires the old one.",
    ),
    Pair(
        label="supersession",
        kind="limit_raised",
        first=Text(
            title="Export page size raised",
            body=(
                "Raised the maximum page size on list endpoints from 100 to 500, which the"
                " export clients needed; the default page size stays at 20."
            ),
            date="2026-08-26",
            topics=("api", "pagination"),
        ),
        second=Text(
            title="Pagination defaults",
            body="List endpoints return 20 items per page by default and at most 100.",
            date="2026-03-11",
            topics=("api", "pagination"),
        ),
        note="Newer memory first: maximum raised from 100 to 500, default unchanged.",
    ),
    Pair(
        label="supersession",
        kind="number",
        first=Text(
            title="Coverage gate",
            body="Line coverage must stay above 80% for the pull request check to pass.",
            date="2026-01-30",
            topics=("testing", "coverage"),
        ),
        second=Text(
            title="Coverage gate raised",
            body=(
                "The coverage gate went up to 90% in April, now that the untested legacy module"
                " has been deleted."
            ),
            date="2026-04-24",
            topics=("testing", "coverage"),
        ),
        note="Threshold raised with a date and reason.",
    ),
    Pair(
        label="supersession",
        kind="unit",
        first=Text(
            title="CI cache expiry",
            body="Caches in the CI system expire after 7 days without use.",
            date="2026-02-05",
            topics=("ci", "caching"),
        ),
        second=Text(
            title="Shorter cache lifetime",
            body=(
                "CI caches now expire after 24 hours, because stale wheels in the cache kept"
                " breaking builds."
            ),
            date="2026-05-15",
            topics=("ci", "caching"),
        ),
        note="Expiry changed from days to hours; later one replaces it.",
    ),
    Pair(
        label="supersession",
        kind="other",
        first=Text(
            title="CI moved to GitHub Actions",
            body=(
                "We moved CI from Jenkins to GitHub Actions in May; the Jenkinsfile has been"
                " deleted."
            ),
            date="2026-05-29",
            topics=("ci", "github-actions"),
        ),
        second=Text(
            title="Where CI runs",
            body=(
                "CI runs on the team's Jenkins server, driven by the Jenkinsfile in the repo root."
            ),
            date="2026-01-16",
            topics=("ci", "jenkins"),
        ),
        note="Newer memory first: the CI system was replaced.",
    ),
    Pair(
        label="supersession",
        kind="version",
        first=Text(
            title="Service Python version",
            body="All backend services run on Python 3.11 in production.",
            date="2026-02-23",
            topics=("python", "runtime"),
        ),
        second=Text(
            title="Python 3.12 everywhere",
            body=(
                "Every backend service was upgraded to Python 3.12 last sprint; the 3.11 base"
                " images are gone."
            ),
            date="2026-09-21",
            topics=("python", "runtime"),
        ),
        note="Runtime version replaced.",
    ),
    Pair(
        label="supersession",
        kind="limit_raised",
        first=Text(
            title="Public API rate limits",
            body=_md(
                """
                Rate limits on the public API, per API key:

                - 60 requests per minute for read endpoints;
                - 20 requests per minute for write endpoints;
                - a burst allowance of 10 extra requests.

                Over the limit, the API answers 429 with a Retry-After header. Limits are counted
                in Redis with a sliding window, so they hold across all web containers. Partners
                who need more ask their account manager; we do not raise limits per key.
                """
            ),
            date="2026-03-06",
            topics=("api", "rate-limiting"),
        ),
        second=Text(
            title="Rate limits after the partner launch",
            body=_md(
                """
                With the partner programme live, the per-key limits on the public API went up:

                - reads: 60 to 300 requests per minute;
                - writes: 20 to 100 requests per minute;
                - the burst allowance stays at 10.

                Partner keys can now also get a custom limit, set in the admin console, which
                replaces the old "no per-key limits" rule. 429 with Retry-After and the Redis
                sliding window are unchanged.
                """
            ),
            date="2026-09-15",
            topics=("api", "rate-limiting", "partners"),
        ),
        note="Long: limits raised and the per-key rule replaced, later date.",
    ),
    Pair(
        label="supersession",
        kind="before_after",
        first=Text(
            title="Hook order",
            body="The pre-commit hooks run ruff format, then ruff check, then mypy.",
            date="2026-02-19",
            topics=("pre-commit", "tooling"),
        ),
        second=Text(
            title="Hooks reordered",
            body=(
                "Reordered the hooks: ruff check with --fix now runs before ruff format, because"
                " its fixes can leave formatting behind. Mypy stays last."
            ),
            date="2026-06-30",
            topics=("pre-commit", "tooling"),
        ),
        note="Order changed later, with the reason.",
    ),
    Pair(
        label="supersession",
        kind="other",
        first=Text(
            title="Branching model",
            body=_md(
                """
                We follow git-flow:

                - `develop` is the integration branch; feature branches start from it and merge
                  back into it.
                - `main` only receives release merges, and every merge to main is tagged.
                - Release branches are cut from develop a week before a release for
                  stabilisation.
                - Hotfix branches start from main and are merged into both main and develop.

                Long-running feature branches are rebased on develop weekly.
                """
            ),
            date="2026-01-05",
            topics=("git", "branching"),
        ),
        second=Text(
            title="Trunk-based development",
            body=_md(
                """
                Since the June retro we work trunk-based and git-flow is retired:

                - There is no `develop` branch any more; it was deleted after its last merge.
                - Short-lived branches (a day or two) start from `main` and merge back into it.
                - Unfinished work hides behind feature flags instead of living on long branches.
                - Releases are tags on main; hotfixes are ordinary pull requests to main.
                """
            ),
            date="2026-06-19",
            topics=("git", "branching"),
        ),
        note="Long: the branching model replaced, the newer memory says git-flow is retired.",
    ),
    # ------------------------------------------------------------------ related
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="API versioning",
            body="The public API is versioned in the URL path, as /v1 and /v2.",
            date="2026-01-23",
            topics=("api", "versioning"),
        ),
        second=Text(
            title="Deprecation window",
            body=(
                "A deprecated API version keeps working for at least twelve months after its"
                " successor ships."
            ),
            date="2026-04-13",
            topics=("api", "deprecation"),
        ),
        note="Both about API versions; how they are named and how long they live.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Nightly end-to-end run",
            body="Nightly CI runs the slow end-to-end tests against a freshly migrated database.",
            date=None,
            topics=("ci", "e2e"),
        ),
        second=Text(
            title="Flaky test quarantine",
            body=(
                "Flaky tests are quarantined with a marker and a ticket, and must be fixed within"
                " two weeks."
            ),
            date=None,
            topics=("ci", "flaky-tests"),
        ),
        note="Two separate CI testing practices.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Branch names",
            body="Branch names start with the ticket key, like PAY-123-short-description.",
            date="2026-02-02",
            topics=("git", "branches"),
        ),
        second=Text(
            title="Merged branches",
            body="Merged branches are deleted automatically by the code host after the merge.",
            date="2026-02-02",
            topics=("git", "branches"),
        ),
        note="Naming and cleanup of branches; no clash.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Python project layout",
            body=_md(
                """
                New Python projects use this layout:

                - the package under `src/<name>/`, so tests cannot import it by accident from the
                  working directory;
                - tests in `tests/`, mirroring the package's modules;
                - all tool configuration (ruff, mypy, pytest, coverage) in pyproject.toml, with no
                  setup.cfg or tox.ini;
                - a Makefile with `make check` running lint, types and tests the way CI does.

                The cookiecutter template in the platform repo creates exactly this.
                """
            ),
            date="2026-03-13",
            topics=("python", "project-layout"),
        ),
        second=Text(
            title="Type hints",
            body=(
                "Type hints are required on every public function, checked by mypy in strict mode"
                " in CI."
            ),
            date="2026-03-13",
            topics=("python", "typing"),
        ),
        note="Project conventions: layout and typing, separate rules.",
    ),
    Pair(
        label="related",
        kind="allow_forbid",
        first=Text(
            title="CORS for our app",
            body="CORS allows requests from our own web app origins, listed in settings.",
            date=None,
            topics=("web", "cors"),
        ),
        second=Text(
            title="CORS for everyone else",
            body=("CORS forbids requests from any other origin in production, localhost included."),
            date=None,
            topics=("web", "cors"),
        ),
        note="Allow for own origins, forbid for others: one consistent policy.",
    ),
    Pair(
        label="related",
        kind="enable_disable",
        first=Text(
            title="Debug toolbar locally",
            body="Enable the Django debug toolbar in local development settings.",
            date="2026-05-06",
            topics=("django", "debugging"),
        ),
        second=Text(
            title="Debug toolbar when deployed",
            body="Disable the debug toolbar in every deployed environment, staging included.",
            date="2026-05-06",
            topics=("django", "settings"),
        ),
        note="Enable locally, disable when deployed: different environments.",
    ),
    Pair(
        label="related",
        kind="number",
        first=Text(
            title="Web pool size",
            body="The web app's database pool holds 10 connections per Gunicorn worker.",
            date="2026-07-07",
            topics=("django", "database"),
        ),
        second=Text(
            title="Celery worker connections",
            body="Each Celery worker process keeps 2 database connections open.",
            date="2026-07-07",
            topics=("celery", "database"),
        ),
        note="Different pools for different processes, not one setting.",
    ),
    Pair(
        label="related",
        kind="always_never",
        first=Text(
            title="Squash feature branches",
            body="Always squash-merge feature branches so each feature is one commit on main.",
            date=None,
            topics=("git", "merging"),
        ),
        second=Text(
            title="Release branches keep their commits",
            body=(
                "Never squash release branches into main; merge them with a merge commit so the"
                " tags stay reachable."
            ),
            date=None,
            topics=("git", "releases"),
        ),
        note="Always and never, but for different kinds of branch.",
    ),
    Pair(
        label="related",
        kind="before_after",
        first=Text(
            title="Format before committing",
            body="Run ruff format before every commit; the hook does it if you installed it.",
            date="2026-04-27",
            topics=("python", "formatting"),
        ),
        second=Text(
            title="Tests before pushing",
            body="Run the full unit test suite before you push, not only the tests you touched.",
            date="2026-04-27",
            topics=("testing", "workflow"),
        ),
        note="Two 'before' habits at different moments; they do not compete.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Logging conventions",
            body=_md(
                """
                Backend services log structured JSON, one object per line, to stdout.

                - Every line carries `request_id`, `service` and `level`.
                - Messages are constant strings; variable parts go into fields, so logs can be
                  grouped by message.
                - INFO is the production level. DEBUG lines may be emitted, but the collector
                  drops them outside staging.
                - Personal data (emails, names, addresses) is never logged; ids only.

                The shared logging package configures all of this; services should not set up
                handlers themselves.
                """
            ),
            date="2026-05-20",
            topics=("logging", "backend"),
        ),
        second=Text(
            title="Error tracking",
            body=(
                "Unhandled exceptions in the backends are sent to Sentry with the request id"
                " attached as a tag."
            ),
            date="2026-05-20",
            topics=("sentry", "backend"),
        ),
        note="Logging and error tracking share the request id; separate practices.",
    ),
    Pair(
        label="related",
        kind="session_analysis",
        first=Text(
            title="Session Analysis - 2026-10-13",
            body=_md(
                """
                ## Overview

                Cut the CI time of the billing service from 19 to 11 minutes: split the test job
                into unit and integration stages and cached the Docker layers of the test image.

                ## Key Decisions

                - Run unit tests first and integration tests only if they pass
                - Cache Docker layers keyed on the Dockerfile and the lock file

                ## Patterns & Insights

                - The user times every pipeline change over three runs before keeping it

                ## Key Learnings

                - The integration stage spent four minutes pulling images it never used

                ## Session Metadata

                - **Workspace**: /home/marco/src/billing-service
                - **Duration**: 66 minutes
                - **Session ID**: 20261013_100200
                """
            ),
            date="2026-10-13",
            topics=("run_unit_tests", "cache_docker_layers"),
        ),
        second=Text(
            title="Session Analysis - 2026-10-16",
            body=_md(
                """
                ## Overview

                More CI work on the billing service. Made the integration stage start its
                Postgres and Redis containers in parallel and added a job summary that lists the
                ten slowest tests.

                ## Key Decisions

                - Start the service containers in parallel with health checks
                - Publish the ten slowest tests in the job summary

                ## Key Learnings

                - Health checks with a one-second interval save about 40 seconds per run

                ## Action Items

                - [ ] Split the two slowest integration tests into smaller ones

                ## Session Metadata

                - **Workspace**: /home/marco/src/billing-service
                - **Duration**: 29 minutes
                - **Session ID**: 20261016_153045
                """
            ),
            date="2026-10-16",
            topics=("start_the_service", "publish_the_ten"),
        ),
        note="Two sessions on the same CI speed-up; complementary, no clash.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Dependency update bot",
            body=_md(
                """
                Renovate keeps our Python and JavaScript dependencies current:

                - Routine updates are grouped into one pull request per ecosystem, opened on
                  Monday mornings.
                - Patch updates of dev tools merge automatically once CI is green.
                - Major versions always get their own pull request with the upstream changelog
                  linked.
                - Security updates are opened straight away, outside the weekly schedule.

                Whoever is on support rotation that week reviews the bot's pull requests.
                """
            ),
            date="2026-03-26",
            topics=("dependencies", "renovate"),
        ),
        second=Text(
            title="Critical vulnerabilities",
            body=(
                "A dependency with a known critical vulnerability must be upgraded in production"
                " within 48 hours of the advisory."
            ),
            date="2026-03-26",
            topics=("dependencies", "security"),
        ),
        note="The bot opens security updates at once; the deadline is a separate, compatible rule.",
    ),
    # ------------------------------------------------------------------ unrelated
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Admin access",
            body="The Django admin is reachable only from the office network and the VPN.",
            date=None,
            topics=("django", "admin"),
        ),
        second=Text(
            title="Notebook outputs",
            body=(
                "A pre-commit hook strips the outputs from Jupyter notebooks before they are"
                " committed."
            ),
            date=None,
            topics=("python", "notebooks"),
        ),
        note="Admin network access versus notebook hygiene.",
    ),
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Rate limit responses",
            body="Answer with HTTP 429 and a Retry-After header when a client goes over its limit.",
            date="2026-06-04",
            topics=("api", "http"),
        ),
        second=Text(
            title="Installing git hooks",
            body="The git hooks are installed by running make hooks once, right after cloning.",
            date="2026-06-04",
            topics=("git", "hooks"),
        ),
        note="HTTP behaviour versus developer setup.",
    ),
    Pair(
        label="unrelated",
        kind="number",
        first=Text(
            title="Function length",
            body="Keep Python functions under 50 lines where you can; split them when they grow.",
            date=None,
            topics=("python", "style"),
        ),
        second=Text(
            title="Workflow file size",
            body="Keep each workflow file under 50 lines by moving long steps into scripts.",
            date=None,
            topics=("ci", "workflows"),
        ),
        note="Same 'under 50 lines' wording about different things.",
    ),
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Decision: Celery with Redis for background jobs",
            body=_md(
                """
                ## Context

                Sending invoices and webhooks inside the request made checkout slow and lost work
                when a container restarted.

                ## Decision

                Background work runs in Celery, with Redis as the broker and results disabled.
                Tasks must be idempotent and take only ids as arguments.

                ## Consequences

                - A worker deployment to run and monitor next to the web containers.
                - Checkout no longer waits for email or webhook delivery.
                - Task arguments stay small and serialisable.
                """
            ),
            date="2026-04-29",
            topics=("celery", "architecture"),
        ),
        second=Text(
            title="Decision: Conventional commits for the SDK repo",
            body=_md(
                """
                ## Context

                The SDK changelog was written by hand at release time and regularly forgot
                breaking changes.

                ## Decision

                Commits in the SDK repository follow the conventional commits format (feat, fix,
                chore, with `!` for breaking changes), checked by a commit-msg hook and in CI.

                ## Consequences

                - The changelog and the version bump are generated from the history.
                - Contributors need to learn the prefixes; the hook explains a rejected message.
                """
            ),
            date="2026-04-29",
            topics=("git", "changelog"),
        ),
        note="Same ADR headings, unrelated decisions.",
    ),
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Staging API host",
            body="The staging API is reachable at api.staging.example.internal from the VPN only.",
            date=None,
            topics=("web", "staging"),
        ),
        second=Text(
            title="Internal wheels",
            body=(
                "Wheels for our internal Python packages are published to the private package"
                " index when a tag is pushed."
            ),
            date=None,
            topics=("python", "packaging"),
        ),
        note="Environment address versus package publishing.",
    ),
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Rotating the JWT signing key",
            body=_md(
                """
                Rotation of the JWT signing key, every six months:

                1. Generate the new key pair in the secrets manager and add its public key to the
                   JWKS endpoint next to the current one.
                2. Wait one hour so every client has refreshed its JWKS cache.
                3. Switch the auth service to sign with the new key.
                4. After the longest token lifetime (24 hours) has passed, remove the old public
                   key from the JWKS.

                Never skip the waiting steps, or clients reject valid tokens.
                """
            ),
            date="2026-07-28",
            topics=("auth", "runbook"),
        ),
        second=Text(
            title="Cutting a release branch",
            body=_md(
                """
                How to cut a release branch of the monorepo:

                1. Announce the cut in #releases an hour ahead so people can land what is ready.
                2. Create release/YYYY.MM from the latest green commit on main.
                3. Bump the calendar version on main so new work gets the next version.
                4. Only bug fixes are cherry-picked to the release branch afterwards, each with a
                   link to its pull request on main.

                The release manager of the month does this; the rota is in the wiki.
                """
            ),
            date="2026-07-28",
            topics=("git", "runbook"),
        ),
        note="Two numbered runbooks, unrelated subjects.",
    ),
    Pair(
        label="unrelated",
        kind="session_analysis",
        first=Text(
            title="Session Analysis - 2026-09-02",
            body=_md(
                """
                ## Overview

                Added cursor-based pagination to the orders list endpoint of the REST API. The
                cursor encodes the created_at and id of the last row, so pages stay stable while
                new orders arrive.

                ## Key Decisions

                - Opaque base64 cursor holding created_at and id
                - Offset pagination stays for the admin endpoints only

                ## Key Learnings

                - A composite index on (created_at, id) is needed or the query scans

                ## User Preferences & Working Style

                - Wants a failing test before each change

                ## Session Metadata

                - **Workspace**: /home/ines/api/orders
                - **Duration**: 71 minutes
                - **Session ID**: 20260902_134500
                """
            ),
            date="2026-09-02",
            topics=("opaque_base64_cursor", "offset_pagination_stays"),
        ),
        second=Text(
            title="Session Analysis - 2026-09-04",
            body=_md(
                """
                ## Overview

                Cleaned up the git history of the infra-scripts repo before open-sourcing it:
                removed a committed key file from every commit with git filter-repo and rotated
                the key.

                ## Key Decisions

                - Rewrite history with git filter-repo rather than BFG
                - Rotate the exposed key even though the repo was private

                ## Patterns & Insights

                - The user double-checks rewritten history with a fresh clone

                ## Action Items

                - [ ] Add a secret-scanning hook to the repo

                ## Session Metadata

                - **Workspace**: /home/ines/ops/infra-scripts
                - **Duration**: 24 minutes
                - **Session ID**: 20260904_091530
                """
            ),
            date="2026-09-04",
            topics=("rewrite_history_with", "rotate_the_exposed"),
        ),
        note="Different sessions, workspaces and subjects; metadata differs.",
    ),
    Pair(
        label="unrelated",
        kind="session_analysis",
        first=Text(
            title="Session Analysis - 2026-11-17",
            body=_md(
                """
                ## Overview

                Migrated the test suite of the CLI tool from unittest classes to plain pytest
                functions with fixtures, keeping coverage at the same level.

                ## Key Decisions

                - Plain pytest functions and fixtures instead of TestCase classes
                - tmp_path for every test that writes files

                ## Key Learnings

                - Class-level setUp hid shared state that made two tests order-dependent

                ## Session Metadata

                - **Workspace**: /home/tom/code/cli-tool
                - **Duration**: 83 minutes
                - **Session ID**: 20261117_084010
                """
            ),
            date="2026-11-17",
            topics=("plain_pytest_functions", "tmp_path_for_every"),
        ),
        second=Text(
            title="Session Analysis - 2026-11-17",
            body=_md(
                """
                ## Overview

                Reviewed the webhook delivery code of the notifications service and added HMAC
                signatures to outgoing webhooks, with a timestamp to stop replays.

                ## Key Decisions

                - Sign the body and timestamp with HMAC-SHA256
                - Receivers reject signatures older than five minutes

                ## User Preferences & Working Style

                - Asks for a short written design before touching security code

                ## Action Items

                - [ ] Document signature checking for webhook consumers

                ## Session Metadata

                - **Workspace**: /home/tom/code/notifications
                - **Duration**: 56 minutes
                - **Session ID**: 20261117_141205
                """
            ),
            date="2026-11-17",
            topics=("sign_the_body", "receivers_reject_signatures"),
        ),
        note="Same day and heading, different sessions about unrelated work.",
    ),
    Pair(
        label="unrelated",
        kind="session_analysis",
        first=Text(
            title="Session Analysis - 2026-05-25",
            body=_md(
                """
                ## Overview

                Set up a pre-commit configuration for the data-tools repository with ruff, mypy
                and a check for large files, and fixed the 140 lint findings it reported.

                ## Key Decisions

                - Large-file check at 500 KB
                - Mypy runs only on the package, not on the notebooks

                ## Patterns & Insights

                - The user fixes lint findings in small batches grouped by rule

                ## Session Metadata

                - **Workspace**: /home/yuki/work/data-tools
                - **Duration**: 44 minutes
                - **Session ID**: 20260525_102030
                """
            ),
            date="2026-05-25",
            topics=("large-file_check_at", "mypy_runs_only"),
        ),
        second=Text(
            title="Session Analysis - 2026-05-26",
            body=_md(
                """
                ## Overview

                Designed the schema for the new webhooks settings page in the customer API:
                endpoints to list, create and disable webhook subscriptions, with secrets shown
                only once at creation.

                ## Key Decisions

                - Subscriptions are disabled, never deleted, to keep the delivery history
                - The signing secret is returned once and stored hashed

                ## Key Learnings

                - The existing permission model has no scope for webhooks yet

                ## Session Metadata

                - **Workspace**: /home/yuki/work/customer-api
                - **Duration**: 102 minutes
                - **Session ID**: 20260526_133015
                """
            ),
            date="2026-05-26",
            topics=("subscriptions_are_disabled", "the_signing_secret"),
        ),
        note="Consecutive days, different workspaces and subjects.",
    ),
)


def pairs() -> tuple[Pair, ...]:
    """The tuning pairs: rules may be tuned on these (never on `meaning_heldout.py`)."""
    return _PAIRS


def test_meaning_tuning_extra_is_well_formed() -> None:
    from . import meaning_heldout

    meaning_heldout.check_set("tuning", pairs(), meaning_heldout.pairs(), scale=0.6)
