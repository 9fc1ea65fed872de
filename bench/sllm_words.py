"""The words samantha_llm_like.py builds its memories from: projects, and sentence templates.

A session analysis in a real tree is an LLM's notes on one working session, so its sentences are
about one project's things (routes, invoices, migrations), tools and numbers. Each project below
is a workspace folder (its name is the memory's `project:`, as the worker takes it from the
workspace path) with its own things, files, tools, services and settings; the templates take a
slot from the session's project each time ({thing}, {file}, {tool}, ...) and numbers drawn anew,
so two sessions share the boilerplate and never the sentences.

A decision's first three words become the memory's topics and file name (the worker's rule), so
decision templates start with a plain verb and a thing whose first words are plain words: no
`/`, backtick or quote there, which would break the file name or the YAML of `topics:`.
"""

from __future__ import annotations

from typing import NamedTuple


class Project(NamedTuple):
    name: str
    """The workspace folder's name: `project:` of its sessions, and its current-task name."""
    things: tuple[str, ...]
    files: tuple[str, ...]
    tools: tuple[str, ...]
    services: tuple[str, ...]
    settings: tuple[str, ...]
    tags: tuple[str, ...]


def _split(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(";"))


def _p(name: str, *fields: str) -> Project:
    """A project from `;`-separated lists: things, files, tools, services, settings, tags."""
    return Project(name, *(_split(text) for text in fields))


DEMO_PROJECTS = (
    _p(
        "api-gateway-refactor",
        "route table; retry budget; prefix rewrites; jwt leeway; rate limit script;"
        " cluster definitions; health checks; config renderer; partner headers; cutover flags",
        "gateway/config/models.py; out/envoy.yaml; tests/routes/golden/; config/ratelimits.yaml;"
        " gateway/render.py; tests/ratelimit/test_window.py",
        "envoy; pydantic; redis; pytest; grafana; k6",
        "quotes-svc; tracking-svc; shipments-svc; auth-svc",
        "num_retries; per_try_timeout; retry_budget_ratio; window_seconds; jwt_leeway_seconds",
        "api-gateway; envoy; routing; rate-limiting; auth",
    ),
    _p(
        "billing-export",
        "invoice batch; ledger rows; export schedule; csv writer; currency rounding;"
        " netsuite import; credit notes; duplicate detection; finance report",
        "billing_export/writer.py; billing_export/schedule.py; sql/ledger_view.sql;"
        " tests/test_writer.py; docs/finance-handoff.md",
        "netsuite; postgres; pytest; pandas; cron",
        "billing-svc; ledger-db; finance-sftp",
        "batch_rows; export_hour_utc; decimal_places; max_retries",
        "billing; csv; finance; netsuite",
    ),
    _p(
        "tidewater-infra",
        "state lock; nat gateway; rds storage; module versions; iam roles; vpc peering;"
        " backup window; cost alerts; plan output",
        "modules/rds/main.tf; envs/staging/main.tf; envs/prod/backend.tf;"
        " .github/workflows/plan.yml; modules/network/nat.tf",
        "terraform; aws; dynamodb; tflint; infracost",
        "staging-rds; prod-rds; nat-gateway",
        "allocated_storage; backup_retention_period; instance_class; lock_timeout",
        "infrastructure; aws; terraform; ops",
    ),
    _p(
        "mobile-sync",
        "sync queue; conflict merge; tombstone retention; clock drift; depot rollout;"
        " sqlite schema; retry backoff; janitor job",
        "app/sync/queue.kt; app/sync/merge.kt; app/db/schema.sql; server/sync/handlers.py;"
        " docs/rollout.md",
        "sqlite; kotlin; android studio; sentry",
        "sync-api; depot-rollout; push-svc",
        "tombstone_days; max_batch; backoff_seconds",
        "mobile; sync; offline; sqlite",
    ),
)

MORE_PROJECTS = (
    _p(
        "search-rewrite",
        "query parser; ranking weights; index mapping; synonym list; typo tolerance;"
        " result cache; relevance tests; facet counts",
        "search/parser.py; search/ranking.py; mappings/products.json; tests/test_relevance.py",
        "opensearch; python; locust; pytest",
        "search-api; catalog-svc; indexer",
        "min_should_match; fuzziness; cache_ttl_seconds; shard_count",
        "search; ranking; opensearch; relevance",
    ),
    _p(
        "checkout-web",
        "payment form; address lookup; cart totals; promo codes; error banners;"
        " session storage; bundle size; form validation",
        "src/checkout/PaymentForm.tsx; src/cart/totals.ts; src/api/client.ts; vite.config.ts;"
        " tests/e2e/checkout.spec.ts",
        "react; vite; playwright; typescript; eslint",
        "checkout-api; payments-svc; address-svc",
        "debounce_ms; max_bundle_kb; retry_count",
        "frontend; react; checkout; payments",
    ),
    _p(
        "ledger-service",
        "double entry; balance snapshots; posting rules; idempotency keys; audit trail;"
        " month close; journal import",
        "ledger/posting.go; ledger/snapshot.go; migrations/0042_snapshots.sql; ledger/api.go",
        "go; postgres; sqlc; grpc",
        "ledger-api; ledger-db; reporting",
        "snapshot_interval; max_open_conns; statement_timeout",
        "ledger; accounting; go; postgres",
    ),
    _p(
        "data-pipeline",
        "nightly load; partition scheme; late events; schema drift; dedupe step;"
        " backfill job; warehouse costs",
        "dags/nightly_load.py; dbt/models/orders.sql; jobs/backfill.py; schemas/events.avsc",
        "airflow; dbt; bigquery; kafka; great expectations",
        "events-topic; warehouse; scheduler",
        "partition_days; max_active_runs; lateness_hours",
        "data; airflow; dbt; warehouse",
    ),
    _p(
        "auth-platform",
        "token refresh; session cookies; password reset; mfa enrollment; key rotation;"
        " login throttling; scope checks",
        "auth/tokens.py; auth/mfa.py; config/keys.yaml; tests/test_refresh.py",
        "keycloak; python; redis; jwt",
        "auth-api; identity-db; mailer",
        "access_ttl_seconds; refresh_ttl_days; max_attempts",
        "auth; security; tokens; mfa",
    ),
    _p(
        "notification-hub",
        "email templates; push fanout; delivery retries; quiet hours; bounce handling;"
        " template preview; rate caps",
        "hub/fanout.py; hub/templates/; hub/bounces.py; tests/test_quiet_hours.py",
        "sendgrid; firebase; celery; jinja",
        "notify-api; push-svc; mail-relay",
        "max_per_hour; retry_delay_seconds; batch_size",
        "notifications; email; push; celery",
    ),
    _p(
        "ml-forecasting",
        "demand forecast; feature store; training window; holiday effects; model registry;"
        " backtest report; drift alerts",
        "forecast/train.py; forecast/features.py; notebooks/backtest.ipynb; configs/model.yaml",
        "pandas; lightgbm; mlflow; jupyter",
        "feature-store; model-registry; scoring-api",
        "training_days; learning_rate; horizon_days",
        "ml; forecasting; features; mlflow",
    ),
    _p(
        "k8s-platform",
        "helm charts; pod budgets; node pools; ingress rules; resource limits;"
        " cluster upgrade; secret sync",
        "charts/api/values.yaml; clusters/prod/nodepools.tf; charts/api/templates/pdb.yaml;"
        " scripts/upgrade.sh",
        "kubernetes; helm; argocd; kubectl",
        "ingress-nginx; cert-manager; external-secrets",
        "max_unavailable; cpu_limit; replica_count",
        "kubernetes; helm; platform; ops",
    ),
    _p(
        "docs-site",
        "navigation tree; search index; code samples; version switcher; broken links;"
        " build time; style guide",
        "docs/conf.py; docs/index.md; mkdocs.yml; scripts/linkcheck.py",
        "mkdocs; sphinx; vale; netlify",
        "docs-build; search-index",
        "nav_depth; build_timeout; max_workers",
        "docs; writing; mkdocs; style",
    ),
    _p(
        "cli-tooling",
        "argument parser; config discovery; progress output; exit codes; shell completion;"
        " release packaging; plugin hooks",
        "cli/main.py; cli/config.py; pyproject.toml; tests/test_cli.py",
        "click; uv; pytest; ruff",
        "pypi; release-bot",
        "timeout_seconds; max_workers; log_level",
        "cli; python; packaging; ux",
    ),
    _p(
        "warehouse-scanner",
        "barcode decoding; offline queue; scan latency; label printing; pick lists;"
        " battery drain; camera focus",
        "scanner/decode.swift; scanner/queue.swift; api/picklists.py; docs/devices.md",
        "swift; xcode; zebra sdk; fastlane",
        "picklist-api; label-printer; device-mgmt",
        "scan_timeout_ms; queue_limit; retry_backoff",
        "mobile; ios; scanning; warehouse",
    ),
    _p(
        "observability",
        "trace sampling; log retention; alert routing; slo burn rates; dashboard panels;"
        " metric cardinality; on-call runbook",
        "otel/collector.yaml; alerts/slo.yaml; dashboards/api.json; docs/oncall.md",
        "opentelemetry; prometheus; grafana; loki",
        "collector; alertmanager; pagerduty",
        "sample_ratio; retention_days; burn_rate_threshold",
        "observability; monitoring; alerts; tracing",
    ),
)

ALL_PROJECTS = DEMO_PROJECTS + MORE_PROJECTS

VERBS = (
    "Use", "Keep", "Move", "Split", "Drop", "Replace", "Pin", "Cache", "Batch", "Gate",
    "Defer", "Adopt", "Inline", "Rename", "Extract", "Validate", "Log", "Stream", "Shard",
    "Document", "Limit", "Vendor", "Parallelize", "Deprecate", "Guard", "Precompute",
    "Reject", "Simplify", "Version", "Test", "Measure", "Backfill", "Retire", "Lock",
)  # fmt: skip

DECISIONS = (
    "{Verb} {thing} {where}: {why}",
    "**{Verb} {thing} {where}**: {why}",
    "{Verb} {thing} instead of {thing2}: {why}",
    "**{Verb} {thing}**: {why}",
    "{Verb} {thing} behind {setting}, default {value}",
    "{Verb} {thing} in {file} rather than in {service}: {why}",
    "Decided to {verb} {thing} {where}: {why}",
    "Agreed to {verb} {thing} before touching {thing2}",
    "{Verb} {thing} only for {service}; the rest waits for {thing2}",
)
WHERE = (
    "per request", "at startup", "in one place", "per tenant", "in CI only", "for now",
    "before the cutover", "behind a flag", "in the nightly job", "per environment",
    "on the write path", "in staging first",
)  # fmt: skip
WHY = (
    "it removes {n} code paths and nobody could explain the second one",
    "the old way cost about {ms} ms at p95 on {service}",
    "{tool} already does this and we keep fighting it",
    "the {n} incidents this quarter all started there",
    "{person} wants to review it in one small PR",
    "it makes {file} testable without {tool}",
    "the numbers from {env} showed a {pct}% drop in errors",
    "rolling back is one config change instead of a deploy",
    "it keeps {setting} in a single file that {tool} validates",
    "the team already knows {tool}, and the alternative needs {n} new services",
    "we measured {big} rows a day and the current shape will not last the quarter",
    "the failure mode is louder: {service} refuses instead of silently retrying",
)  # fmt: skip
PATTERNS = (
    "Recurring trouble with {thing} whenever {thing2} changes shape",
    "Most of the session went into {thing}; the actual fix in {file} was {n} lines",
    "{Tool} errors were misread twice as {thing2} problems before reading the logs",
    "The user tests a change against {env} before asking for a review",
    "Debugging followed the same loop: reproduce in {env}, bisect, write the failing test first",
    "Naming drift between {file} and {file2} keeps causing confusion",
    "Changes to {thing} are always paired with an update to {file}",
    "Work stalled about {n} times waiting on {service} to come back in {env}",
    "Implemented {thing} in small steps, each with a green run of {tool}",
    "Questions about {thing} come up in almost every session on this project",
    "The {service} logs were the fastest way to see what {thing} actually did",
    "A lot of back-and-forth on {setting}: the right value depends on traffic, not on taste",
)  # fmt: skip
LEARNINGS = (
    "{Tool} reads {setting} once at startup, so changing it needs a restart",
    "{thing} in {env} takes about {ms} ms at p95 with {n} workers",
    "`{setting}: {value}` is the value that held under {big} requests in the load test",
    "{Tool} silently ignores unknown keys in {file}; a typo there looks like a default",
    "The {service} client retries {n} times by default, which doubled the load during the outage",
    "Running {tool} with {n} workers cut the suite from {n2}0 to about {n} minutes",
    "{thing} fails closed when {service} is down, which is what we want",
    "Order matters in {file}: the first match wins, not the most specific",
    "{Tool} caches results for {n} minutes unless the key includes the version",
    "Only {pct}% of {thing} traffic comes from {service}; the rest is batch jobs",
    "The error message from {tool} points at {file}, but the cause is usually {thing}",
)  # fmt: skip
PREFERENCES = (
    "{person} prefers small PRs, one concern each, under about {n2}0 lines",
    "Wants the failing test shown before the fix",
    "Likes plain explanations first, then the code",
    "Prefers {tool} over {tool2} for anything new",
    "Wants commit messages that say why, not what",
    "Asks for a short summary at the end of the session for the standup",
    "Prefers to run {env} checks personally before anything is merged",
    "Does not want new dependencies without a reason written in the PR",
    "Likes numbers in the explanation: timings, counts, sizes",
    "Prefers config in {file} to environment variables",
)  # fmt: skip
TODOS = (
    "Update {file} with the new {setting} value",
    "Ask {person} whether {thing} can wait until after the release",
    "Write a test for {thing} with {n} concurrent clients",
    "Remove the old {thing2} code path once {service} is migrated",
    "Check {thing} in {env} after tomorrow's deploy",
    "Add an alert on {thing} above {n} per minute",
    "Document {thing} in the runbook",
    "Measure {thing} again with {tool} after the change",
    "Open a ticket for the {service} timeouts",
    "Clean up {file} (dead branches from the spike)",
)  # fmt: skip
SUMMARY_OPENERS = (
    "Worked on {thing} in {project} with {person}.",
    "Session focused on {thing} and its effect on {service}.",
    "Continued the {thing} work from the previous session.",
    "Debugging session: {thing} misbehaved in {env} after the last deploy.",
    "Short session to review {thing} before the {service} release.",
    "Pairing on {thing}; most time went into reading {file}.",
    "Planning session for {thing}, then a first implementation pass.",
    "Investigated why {thing} was slow in {env}.",
)  # fmt: skip
SUMMARY_MIDDLES = (
    "The root cause was {thing2}, not {thing} as first assumed.",
    "Changed {file} and added {n} tests; {tool} is green locally.",
    "{Tool} showed {ms} ms spent in {thing2} per request.",
    "The user decided to keep {setting} at {value} until more data comes in.",
    "Found {n} call sites that depended on the old behaviour of {thing2}.",
    "Compared two approaches for {thing2} and picked the simpler one.",
    "{service} needed a config change as well; prepared but not applied.",
    "About {pct}% of the failures came from a single caller.",
    "The load test reached {big} requests without errors after the change.",
    "A flaky test in {file} cost most of an hour before it was pinned down.",
)  # fmt: skip
SUMMARY_CLOSERS = (
    "Next step: roll it out to {env}.",
    "Left open: how {thing2} should behave when {service} is down.",
    "The change is ready for review.",
    "Work continues next session with {thing2}.",
    "All tests passing; merge is pending review.",
    "Phase {n} of the plan is done.",
)  # fmt: skip
PEOPLE = ("Dana", "Priya", "Marco", "Lena", "Tomasz", "Aiko", "Sam", "Noor", "Felix", "Ines")
ENVS = ("staging", "prod", "the dev stack", "CI", "the load-test cluster", "a local build")

# Hand-written short-term memories (the format's template), by type.
HAND_TITLES = {
    "decision": (
        "Decision: {Verb} {thing} {where}",
        "Chose {tool} for {thing}",
        "Rule: Always check {thing} before touching {service}",
    ),
    "learning": (
        "{Tool} and {thing}: what actually happens",
        "Why {thing} was slow in {env}",
        "Lesson: {thing} needs {setting} set explicitly",
    ),
    "interaction": (
        "{person} on {thing}",
        "How {person} wants {thing} handled",
        "Feedback from {person} about {thing}",
    ),
    "technical": (
        "How {thing} works in {file}",
        "{thing} internals and {setting}",
        "Notes on {service} and {thing}",
    ),
    "quick-reference": (
        "Checklist: releasing {thing}",
        "Commands for {thing} in {env}",
        "Quick reference: {tool} and {setting}",
    ),
}
