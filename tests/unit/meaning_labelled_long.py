"""A labelled set of long memories, in the style of the demo tree's (a `# ` title, a `topics:`
line, paragraphs, `## ` sections, bullet lists, code spans; 8-16 lines each): what the
thresholds for long texts were chosen on, with the short set of meaning_labelled.py, and what
the floors of test_meaning_labelled.py hold for them.

PARAPHRASES are one memory written twice (rewritten throughout, or a merge copy with a few
sentences reworded); CONTRADICTIONS change one setting, version, rule or choice of an otherwise
like memory; DISTINCT are two memories on one subject that say different things: the pairs that
score 0.78-0.85 and must give no pair at all. As in a real tree, where a lesson repeats the
runbook it came from, most second memories of DISTINCT end with a section of the first's
("## Also: ...", "## Context"), which brings their cosines up from 0.46-0.79 into that band.
"""

# ruff: noqa: E501  (memories are written as their files are: one line a paragraph)
from __future__ import annotations

PARAPHRASES: tuple[tuple[str, str], ...] = (
    (
        """# Celery Tasks Must Be Idempotent
topics: [celery, queues, reliability]

A task that charged a card ran twice after a worker was killed mid-run, because `acks_late=True` redelivers anything not acknowledged. Every task now checks an idempotency key before it acts.

## How
- The key is `f"{task_name}:{order_id}"`, stored in Redis with `SET NX` and a 24 h expiry.
- A task that finds its key already set logs `duplicate delivery` and returns.
- `visibility_timeout` stays at 3600 s so long exports are not redelivered halfway.

## Check
Kill a worker with `kill -9` during `charge_order` in staging; the order is charged once.""",
        """# Make Every Celery Task Idempotent
topics: [celery, queues, reliability]

With `acks_late=True`, a task that is not acknowledged gets delivered again, and a card charge ran a second time when its worker died halfway. So each task now looks up an idempotency key first.

## In practice
- Key format `f"{task_name}:{order_id}"`, written to Redis with `SET NX`, expiring after 24 h.
- If the key exists, the task logs `duplicate delivery` and returns without doing anything.
- `visibility_timeout` remains 3600 s, so long-running exports are not handed out twice.

## Verify
In staging, `kill -9` a worker while `charge_order` runs: the card is charged only once.""",
    ),
    (
        """# Terraform: Plan File Before Every Apply

Applies run only from a saved plan: `terraform plan -out=tfplan` in CI, reviewed in the pull request, then `terraform apply tfplan` after merge. An apply without a plan file once replaced the production load balancer because a provider default had changed.

## Steps
- `terraform plan -out=tfplan -lock-timeout=120s` on the PR branch.
- The plan summary is posted as a PR comment; any `destroy` line needs a second reviewer.
- After merge, the pipeline applies the same `tfplan` artifact, never a fresh plan.
- Plans older than 24 h are discarded and made again.""",
        """# Apply Terraform Only From a Reviewed Plan

We never run a bare `terraform apply`. CI makes `terraform plan -out=tfplan`, the pull request shows it, and once merged the pipeline runs `terraform apply tfplan`. The one time someone applied without a plan, a changed provider default swapped out the production load balancer.

## Procedure
- On the PR branch: `terraform plan -out=tfplan -lock-timeout=120s`.
- A bot comments the plan summary on the PR; a plan that destroys anything needs two reviewers.
- The merge pipeline applies that exact `tfplan` artifact rather than planning again.
- A plan more than 24 h old is thrown away and redone.""",
    ),
    (
        """# Session Cache TTL in Redis
topics: [redis, sessions, auth]

Sessions live in Redis under `sess:<id>` with a sliding TTL of 30 minutes: each authenticated request refreshes it with `EXPIRE`. Absolute lifetime is capped at 12 hours by a `created_at` field checked in the middleware.

## Why
The old fixed TTL logged people out in the middle of long forms. Sliding expiry fixed the complaints without keeping idle sessions around.

## Notes
- `maxmemory-policy volatile-ttl` so sessions are evicted before the rate-limit keys.
- Logout deletes the key; it does not wait for expiry.""",
        """# Session Cache TTL in Redis
topics: [redis, sessions, auth]

Sessions are kept in Redis as `sess:<id>` and expire 30 minutes after the last authenticated request, which renews the key with `EXPIRE`. A `created_at` field, checked by the middleware, limits any session to 12 hours in total.

## Why
With a fixed TTL users were signed out halfway through long forms. The sliding expiry ended those complaints and idle sessions still go away.

## Notes
- `maxmemory-policy volatile-ttl` so sessions are evicted before the rate-limit keys.
- Logout deletes the key; it does not wait for expiry.""",
    ),
    (
        """# Weekly Dependabot Triage
topics: [dependencies, security, process]

Dependabot PRs are handled every Monday, not as they arrive; they arrive in bursts and broke focus.

## Routine
- Security updates first: merge once CI is green, same day.
- Patch and minor bumps: group them with `groups:` in `.github/dependabot.yml`, one PR per ecosystem.
- Major bumps: read the changelog, open a ticket if code must change, close the PR with a link.
- Anything red for two weeks gets an owner in the Monday notes.

The config limits `open-pull-requests-limit: 5` per ecosystem.""",
        """# Dependabot Pull Requests Are Triaged on Mondays
topics: [dependencies, security, process]

We go through Dependabot PRs once a week on Monday instead of one by one: they come in bursts and kept interrupting work.

## How
- Security fixes come first and are merged the same day when CI passes.
- Patch and minor updates are grouped per ecosystem with `groups:` in `.github/dependabot.yml`.
- For a major version, read the changelog; if code has to change, open a ticket and close the PR with a link to it.
- A PR failing for two weeks is given an owner in the Monday notes.

`open-pull-requests-limit: 5` per ecosystem is set in the config.""",
    ),
    (
        """# PgBouncer in Transaction Mode
topics: [postgres, pgbouncer, database]

The API talks to Postgres through PgBouncer with `pool_mode = transaction` and `default_pool_size = 20`. Server-side prepared statements break in this mode, so the driver runs with `prepare_threshold=None`.

## Gotchas
- `SET` outside a transaction leaks to the next client; use `SET LOCAL` inside one.
- Advisory locks must be transaction-scoped (`pg_advisory_xact_lock`).
- `LISTEN/NOTIFY` needs a direct connection on port 5432, not the bouncer on 6432.""",
        """# Postgres Access Goes Through PgBouncer (Transaction Pooling)
topics: [postgres, pgbouncer, database]

Our API connects via PgBouncer using `pool_mode = transaction` with `default_pool_size = 20`. Because prepared statements on the server do not survive transaction pooling, the driver is configured with `prepare_threshold=None`.

## Pitfalls
- A `SET` run outside a transaction carries over to whoever gets the connection next; inside a transaction use `SET LOCAL`.
- Take advisory locks per transaction with `pg_advisory_xact_lock`.
- For `LISTEN/NOTIFY` connect straight to Postgres on 5432 rather than to PgBouncer on 6432.""",
    ),
    (
        """# Remove Feature Flags Within Two Sprints

Every flag gets a removal ticket when it is created, due two sprints after full rollout. Stale flags piled up to 140 in `flags.yaml` and nobody knew which were safe to delete.

## Rules
- Flag names carry the ticket: `checkout_v2__TW-812`.
- A flag at 100% for two sprints is removed with its dead code path in one PR.
- `make flags-report` lists flags older than 30 days; it runs in the Friday CI job.""",
        """# Feature Flags Are Deleted Two Sprints After Rollout

When a flag is added, a ticket to remove it is opened too, due two sprints after it reaches everyone. We once had 140 stale flags in `flags.yaml` and no idea which could go.

## Rules
- The ticket is part of the flag name, as in `checkout_v2__TW-812`.
- Once a flag has been at 100% for two sprints, one PR deletes it together with the unused code path.
- The Friday CI job runs `make flags-report`, which lists every flag more than 30 days old.""",
    ),
    (
        """# Postmortem Format
topics: [incidents, process]

Every SEV1 or SEV2 gets a written postmortem within five working days, blameless, in `docs/postmortems/YYYY-MM-DD-slug.md`.

## Sections
- Summary: what users saw, for how long.
- Timeline in UTC, from first signal to all-clear.
- Contributing factors, not a single root cause.
- Action items, each with an owner and a ticket.

The draft is read aloud in the Thursday review; action items are tracked until closed.""",
        """# How We Write Postmortems
topics: [incidents, process]

A blameless postmortem is written for each SEV1 and SEV2 incident, at most five working days later, saved as `docs/postmortems/YYYY-MM-DD-slug.md`.

## Contents
- A summary of the user impact and its duration.
- A UTC timeline from the first alert to the all-clear.
- The contributing factors rather than one root cause.
- Action items, every one with a ticket and an owner.

We read the draft together at the Thursday review and follow the action items until they are done.""",
    ),
    (
        """# Docker Layer Cache in CI
topics: [docker, ci, build]

Image builds in CI use BuildKit with a registry cache: `--cache-from type=registry,ref=ghcr.io/tw/api:buildcache` and `--cache-to ...,mode=max`. Builds went from 9 minutes to under 2.

## Dockerfile order
- Copy `pyproject.toml` and `uv.lock` first, install dependencies, then copy the source.
- `RUN --mount=type=cache,target=/root/.cache/uv` keeps the download cache between builds.

## Gotcha
The cache tag is per branch for PRs (`buildcache-pr-<n>`), falling back to main's.""",
        """# CI Docker Builds Reuse the Layer Cache
topics: [docker, ci, build]

CI builds images with BuildKit and a cache kept in the registry, `--cache-from type=registry,ref=ghcr.io/tw/api:buildcache` with `--cache-to ...,mode=max`; a build takes under 2 minutes instead of 9.

## Dockerfile order
- First copy `pyproject.toml` and `uv.lock` and install the dependencies; copy the source after.
- A `RUN --mount=type=cache,target=/root/.cache/uv` keeps downloads cached from one build to the next.

## Gotcha
Pull requests get their own cache tag (`buildcache-pr-<n>`) and fall back to the one of main.""",
    ),
    (
        """# Redact Personal Data in Logs
topics: [logging, privacy, compliance]

Emails and phone numbers appeared in gateway access logs through query strings. Logs now pass through a redaction processor before they leave the service.

## What is redacted
- `email`, `phone`, `address` fields, and any query parameter of those names.
- Card numbers matched by a Luhn check, replaced with `****1234`.
- Authorization headers entirely.

## Where
`structlog` processor `redact_pii` in `tw_common.logging`, added to every service's config; a unit test feeds it sample records.""",
        """# Personal Data Is Redacted From Logs
topics: [logging, privacy, compliance]

Query strings leaked email addresses and phone numbers into the gateway's access logs, so every log record now goes through a redaction step inside the service.

## Redacted
- The `email`, `phone` and `address` fields, also as query parameters.
- Card numbers that pass a Luhn check, shown as `****1234`.
- The whole Authorization header.

## Where
The `redact_pii` processor for `structlog` lives in `tw_common.logging` and is in each service's config; its unit test runs it over sample records.""",
    ),
    (
        """# On-Call Handoff
topics: [on-call, process]

The outgoing on-call writes a handoff note in `#oncall` every Monday at 10:00 before the rotation switches.

## The note
- Open incidents and their state.
- Alerts that fired more than twice, and whether they were noise.
- Anything deployed late Friday that is still being watched.
- Silences in Alertmanager with their expiry.

The incoming on-call acknowledges with a thread reply; until then the pager stays with the outgoing person.""",
        """# Handing Over On-Call
topics: [on-call, process]

Each Monday at 10:00, before the rotation changes, whoever is leaving on-call posts a handoff note in `#oncall`.

## It covers
- Incidents still open, and where they stand.
- Alerts that fired more than twice, noisy or not.
- Late Friday deploys that are still under watch.
- Alertmanager silences and when they expire.

The person taking over replies in the thread to acknowledge; the pager moves to them only then.""",
    ),
)

CONTRADICTIONS: tuple[tuple[str, str], ...] = (
    (
        """# httpx Client Timeout for Upstream Calls
topics: [python, httpx, api-gateway]

The shared `httpx.AsyncClient` in `tw_common.http` is built with `timeout=30` seconds for every upstream call. The library default of 5 s cut off the slow `quotes-svc` exports.

## Notes
- One client per process, created at startup and closed on shutdown.
- `limits=httpx.Limits(max_connections=100)`.
- Retries are left to the gateway, not the client.""",
        """# httpx Client Timeout for Upstream Calls
topics: [python, httpx, api-gateway]

The shared `httpx.AsyncClient` in `tw_common.http` is built with `timeout=60` seconds for every upstream call. The library default of 5 s cut off the slow `quotes-svc` exports.

## Notes
- One client per process, created at startup and closed on shutdown.
- `limits=httpx.Limits(max_connections=100)`.
- Retries are left to the gateway, not the client.""",
    ),
    (
        """# Updating Feature Branches
topics: [git, workflow]

Always rebase feature branches on `main` before asking for review, so the history stays linear and bisect works.

## How
- `git fetch origin && git rebase origin/main`.
- Resolve conflicts commit by commit; run the tests after.
- Push with `--force-with-lease`.""",
        """# Updating Feature Branches
topics: [git, workflow]

Never rebase feature branches; merge `main` into them before asking for review, so reviewers keep their comments and nobody has to force-push.

## How
- `git fetch origin && git merge origin/main`.
- Resolve conflicts once in the merge commit; run the tests after.
- Push normally.""",
    ),
    (
        """# Package Manager for the Web App
topics: [node, tooling, web]

Use pnpm for the web app: `pnpm install --frozen-lockfile` in CI, `pnpm-lock.yaml` committed.

## Why
Workspaces for the design system and the app share one store, and installs in CI dropped from 4 minutes to 70 seconds.

## Notes
- Node version comes from `.nvmrc`.
- `corepack enable` on a fresh machine.""",
        """# Package Manager for the Web App
topics: [node, tooling, web]

Use npm for the web app: `npm ci` in CI, `package-lock.json` committed. Do not use pnpm here.

## Why
The hosting platform's build image only caches npm, and the design system is now a published package, so workspaces are not needed.

## Notes
- Node version comes from `.nvmrc`.
- `corepack enable` on a fresh machine.""",
    ),
    (
        """# Python Version of the Services
topics: [python, docker]

All services build on `python:3.11-slim` and `requires-python = ">=3.11"`.

## Why
The profiling we did showed 3.11's faster CPython; the C extensions we need all ship wheels for it.

## Upgrading
Bump the base image and `requires-python` together, and run the full test matrix before merging.""",
        """# Python Version of the Services
topics: [python, docker]

All services build on `python:3.12-slim` and `requires-python = ">=3.12"`.

## Why
The profiling we did showed the faster CPython; the C extensions we need all ship wheels for it now.

## Upgrading
Bump the base image and `requires-python` together, and run the full test matrix before merging.""",
    ),
    (
        """# Kafka Consumer Poll Settings
topics: [kafka, events, consumers]

The `shipment-events` consumers run with `max.poll.records: 500` and `max.poll.interval.ms: 300000`. Batches are committed after processing, never before.

## Why
Smaller batches could not keep up with the evening peak and lag grew past 200k.

## Watch
Consumer lag per partition in the `kafka-consumers` dashboard; alert at 50k for 10 minutes.""",
        """# Kafka Consumer Poll Settings
topics: [kafka, events, consumers]

The `shipment-events` consumers run with `max.poll.records: 100` and `max.poll.interval.ms: 300000`. Batches are committed after processing, never before.

## Why
Large batches made a single slow record stall the whole poll and triggered rebalances.

## Watch
Consumer lag per partition in the `kafka-consumers` dashboard; alert at 50k for 10 minutes.""",
    ),
    (
        """# Merging Pull Requests
topics: [git, github, review]

Always squash pull requests when merging: `main` gets one commit per PR, titled like the PR.

## Why
Work-in-progress commits (`fix`, `wip`, `address review`) made `git log` useless and bisect slow.

## Settings
Only "Squash and merge" is enabled in the repository settings; the PR description becomes the commit body.""",
        """# Merging Pull Requests
topics: [git, github, review]

Never squash pull requests when merging; use a merge commit so every commit of the branch stays on `main`.

## Why
Squashing lost the small, reviewed commits that explained each step, and `git blame` pointed at huge commits.

## Settings
Only "Create a merge commit" is enabled in the repository settings; the PR description becomes the merge commit body.""",
    ),
    (
        """# mypy Configuration
topics: [python, typing, ci]

Enable strict mode for mypy in every package: `strict = true` in `[tool.mypy]`, and CI fails on any error.

## Exceptions
- Third-party modules without stubs go under `[[tool.mypy.overrides]]` with `ignore_missing_imports`.
- Tests are checked too.

## Why
Two production bugs last quarter were `None` passed where a string was expected.""",
        """# mypy Configuration
topics: [python, typing, ci]

Disable strict mode for mypy: `strict = false` in `[tool.mypy]`, with only `check_untyped_defs`; CI fails on any error.

## Exceptions
- Third-party modules without stubs go under `[[tool.mypy.overrides]]` with `ignore_missing_imports`.
- Tests are checked too.

## Why
Strict mode on the legacy packages produced thousands of errors and people started adding ignores everywhere.""",
    ),
    (
        """# Node Version in CI
topics: [node, ci]

CI and local development run on Node 18; `.nvmrc` says `18` and the `setup-node` step reads it.

## Notes
- The Lambda runtime is `nodejs18.x` as well.
- Upgrade all three together.""",
        """# Node Version in CI
topics: [node, ci]

CI and local development run on Node 20; `.nvmrc` says `20` and the `setup-node` step reads it.

## Notes
- The Lambda runtime is `nodejs20.x` as well.
- Upgrade all three together.""",
    ),
    (
        """# Python Packaging Tool
topics: [python, packaging, tooling]

Prefer Poetry for the Python services: `poetry install` locally and in CI, `poetry.lock` committed.

## Why
Its dependency groups keep dev tools out of the images, and everyone already knows it.

## Notes
- `poetry export` feeds the Docker build.
- Pin Poetry itself in CI.""",
        """# Python Packaging Tool
topics: [python, packaging, tooling]

Avoid Poetry for the Python services; use uv: `uv sync` locally and in CI, `uv.lock` committed.

## Why
Poetry's resolver took minutes on the monorepo; uv resolves it in seconds.

## Notes
- `uv export` feeds the Docker build.
- Pin uv itself in CI.""",
    ),
    (
        """# Connection Pool per Worker
topics: [postgres, sqlalchemy, database]

Each API worker's SQLAlchemy engine uses `pool_size: 10` with `max_overflow: 5` and `pool_pre_ping=True`.

## Why
Four workers per pod and twelve pods have to stay under the 600 connections PgBouncer allows.

## Check
`SELECT count(*) FROM pg_stat_activity` during the load test.""",
        """# Connection Pool per Worker
topics: [postgres, sqlalchemy, database]

Each API worker's SQLAlchemy engine uses `pool_size: 25` with `max_overflow: 5` and `pool_pre_ping=True`.

## Why
Under the load test the workers waited on the pool; PgBouncer's limit was raised to cover it.

## Check
`SELECT count(*) FROM pg_stat_activity` during the load test.""",
    ),
)

DISTINCT: tuple[tuple[str, str], ...] = (
    (
        """# pytest Fixtures for the Database
topics: [python, testing, pytest, postgres]

Database fixtures in `tests/conftest.py` are `scope="session"`: one Postgres container per test run, started with `testcontainers`. Each test runs inside a transaction that is rolled back after it, so tests never see each other's rows.

## Notes
- Never use `scope="module"` for a fixture that writes; the order of modules then matters.
- `autouse` only for the rollback fixture.
- The container takes 4 s to start; keep it to one per run.""",
        """# pytest Under xdist With Postgres
topics: [python, testing, pytest, postgres]

With `pytest -n 4` every xdist worker gets its own Postgres schema, `test_gw0` to `test_gw3`, created by a session fixture in `tests/conftest.py` from `PYTEST_XDIST_WORKER`. Sharing one schema made tests fail when two workers inserted the same ids.

## Notes
- The schema is dropped at the end of the session, not after each test.
- Use `-n 4` in CI; more workers than cores slowed the run down.
- A test that needs an empty table truncates only its own schema.
## Also: Notes
- Never use `scope="module"` for a fixture that writes; the order of modules then matters.
- `autouse` only for the rollback fixture.
- The container takes 4 s to start; keep it to one per run.""",
    ),
    (
        """# Commit Messages
topics: [git, conventions, review]

Commit subjects are imperative and under 72 characters: "Add retry budget to quotes route", not "added stuff". The body says why the change is made, wrapped at 72.

## Rules
- Reference the ticket at the end of the body: `Refs: TW-812`.
- No emoji prefixes.
- Fixups are squashed before review with `git rebase -i --autosquash`.""",
        """# Commits During Review
topics: [git, conventions, review]

Once a pull request is in review, new commits are added on top instead of rewriting the branch, so reviewers see what changed since their last pass. Each commit message still says why, with the ticket in the body as `Refs: TW-812`.

## Rules
- `fixup!` commits are fine during review; they are squashed with `git rebase -i --autosquash` just before merge.
- Do not force-push while a review is in progress.
## Also: Rules
- Reference the ticket at the end of the body: `Refs: TW-812`.
- No emoji prefixes.
- Fixups are squashed before review with `git rebase -i --autosquash`.""",
    ),
    (
        """# Creating Indexes on Large Postgres Tables
topics: [postgres, database, migrations, alembic]

On tables over a million rows, create indexes with `CREATE INDEX CONCURRENTLY` so writes are not blocked. It cannot run inside a transaction, so the Alembic migration uses `autocommit_block()`.

## Steps
- Check the table size with `pg_total_relation_size`.
- A failed concurrent build leaves an `INVALID` index: drop it and run the migration again.
- Never add two concurrent indexes in one migration.""",
        """# Adding Columns to Large Postgres Tables
topics: [postgres, database, migrations, alembic]

On tables over a million rows, add a column as nullable without a default, backfill it in batches of 10,000 rows, then add the `NOT NULL` constraint as `NOT VALID` and validate it in a second Alembic migration. A column with a volatile default rewrites the whole table under a lock.

## Steps
- Check the table size with `pg_total_relation_size`.
- The backfill runs as a script, not inside the migration.
- `lock_timeout = '5s'` at the top of every migration.""",
    ),
    (
        """# JWT Signing Key Rotation
topics: [jwt, auth, api-gateway, security]

The auth service signs tokens with RS256 keys published at `/.well-known/jwks.json`. A new key is added every 90 days and becomes the signing key a week later; the old one stays in the JWKS for 48 h after that.

## Why
Gateways cache the JWKS for up to 24 h; removing a key sooner would reject valid tokens.

## Runbook
`make rotate-jwt-key` in `auth-svc`, then check the `kid` of a fresh token at the gateway.""",
        """# JWT Validation at the Gateway
topics: [jwt, auth, api-gateway, security]

The gateway's `jwt_authn` filter validates every token against the JWKS of `auth-svc` at `/.well-known/jwks.json`, cached for 24 h, and forwards the verified claims to services in `X-Tw-Claims`. Services do not fetch the JWKS themselves.

## Checks
- Signature (RS256 only), `exp` and `nbf`, and the issuer.
- A token whose `kid` is not in the cached JWKS triggers one refetch before it is rejected.
- Rejections are logged with the `kid` and the reason.
## Also: Runbook
`make rotate-jwt-key` in `auth-svc`, then check the `kid` of a fresh token at the gateway.""",
    ),
    (
        """# Docker Compose Profiles for Local Services
topics: [docker, compose, local-dev]

`docker-compose.yml` puts optional services behind profiles: `kafka` and `elastic` start only with `--profile events` or `--profile search`. A plain `docker compose up` brings up Postgres and Redis in 10 seconds instead of 2 minutes.

## Notes
- `make up-all` starts every profile.
- Do not add a profile to Postgres; every service needs it.""",
        """# Docker Compose Overrides for Local Development
topics: [docker, compose, local-dev]

`docker-compose.override.yml` is ignored by git and holds each developer's local changes: bind mounts of the source, debug ports, a different Postgres port when 5432 is taken. `docker compose up` reads it automatically on top of `docker-compose.yml`.

## Notes
- `docker-compose.override.example.yml` in the repo shows the usual settings.
- Never put secrets in either file; they come from `.env`.
## Also: Notes
- `make up-all` starts every profile.
- Do not add a profile to Postgres; every service needs it.""",
    ),
    (
        """# Terraform State Locking
topics: [terraform, infrastructure, ci]

State lives in S3 with a DynamoDB lock table, `tw-terraform-locks`. A stuck lock after a cancelled CI job is released with `terraform force-unlock <id>`, only after checking that no apply is running.

## Steps
- Find the lock holder in the DynamoDB item: who and when.
- Ask in `#infra` before unlocking.
- Never delete the DynamoDB item by hand.""",
        """# Terraform State per Environment
topics: [terraform, infrastructure, ci]

Each environment has its own state file in S3, `tw-terraform-state/<env>/terraform.tfstate`, and its own CI job; a plan for staging can never touch production. Workspaces were dropped because a wrong `terraform workspace select` applied staging changes to production.

## Steps
- The backend config is passed with `-backend-config=envs/<env>.hcl`.
- State files are versioned in S3; a bad apply can be rolled back from a previous version.
## Also: Steps
- Find the lock holder in the DynamoDB item: who and when.
- Ask in `#infra` before unlocking.
- Never delete the DynamoDB item by hand.

## Context
State lives in S3 with a DynamoDB lock table, `tw-terraform-locks`. A stuck lock after a cancelled CI job is released with `terraform force-unlock <id>`, only after checking that no apply is running.""",
    ),
    (
        """# Kafka Consumer Lag Alerts
topics: [kafka, monitoring, alerts, consumers]

Lag alerts fire per consumer group, not per partition: `sum(kafka_consumergroup_lag) > 50000 for 10m`. Per-partition alerts paged three times a night on a single slow partition.

## Response
- Check the consumer's error rate first; a poison message shows as lag on one partition.
- Scale consumers only up to the partition count.
- Silence for at most 2 h, with a ticket.""",
        """# Kafka Poison Messages
topics: [kafka, monitoring, alerts, consumers]

A message the consumer cannot process is retried three times and then sent to the topic's dead-letter topic, `<topic>.dlq`, with the error in a header. Before the DLQ, one bad message stopped its partition and lag grew until someone skipped the offset by hand.

## Response
- An alert fires when a DLQ receives any message.
- Fix the consumer, then replay the DLQ with `make replay-dlq topic=<topic>`.

## Context
Lag alerts fire per consumer group, not per partition: `sum(kafka_consumergroup_lag) > 50000 for 10m`. Per-partition alerts paged three times a night on a single slow partition.""",
    ),
    (
        """# Redis Eviction Policy for the Cache
topics: [redis, caching, operations]

The shared cache runs with `maxmemory 4gb` and `maxmemory-policy allkeys-lru`. With `noeviction`, the cache filled up during a sale and every write failed with OOM errors.

## Notes
- Session keys live in a separate Redis with `volatile-ttl`; never put them in the cache instance.
- `INFO memory` and `evicted_keys` are on the Redis dashboard.""",
        """# Redis Cache Key Expiry
topics: [redis, caching, operations]

Every key written to the shared cache has a TTL: product data 10 minutes, exchange rates 1 hour. Keys written without a TTL stayed forever and crowded out fresh data until the cache was flushed by hand.

## Notes
- The `cache_set` helper in `tw_common.cache` requires a `ttl` argument.
- A nightly job counts keys without a TTL with `SCAN` and reports them on the Redis dashboard.
## Also: Notes
- Session keys live in a separate Redis with `volatile-ttl`; never put them in the cache instance.
- `INFO memory` and `evicted_keys` are on the Redis dashboard.""",
    ),
    (
        """# CI Dependency Cache Keys
topics: [ci, github-actions, caching]

The dependency cache key is `deps-${{ runner.os }}-${{ hashFiles('uv.lock') }}`. It used to hash `pyproject.toml`, so a lock update kept the stale cache and tests ran against old packages.

## Notes
- `restore-keys: deps-${{ runner.os }}-` gives a partial hit on a new lock.
- The cache is saved only on `main`, never from pull requests.""",
        """# CI Cache Size Limits
topics: [ci, github-actions, caching]

GitHub Actions keeps 10 GB of caches per repository and evicts the oldest first. Every pull request saving its own cache pushed out the cache of `main`, and every run started cold.

## Notes
- Pull requests restore the cache of `main` and do not save their own.
- The weekly cleanup workflow deletes caches of closed pull requests with `gh cache delete`.
## Also: Notes
- `restore-keys: deps-${{ runner.os }}-` gives a partial hit on a new lock.
- The cache is saved only on `main`, never from pull requests.""",
    ),
    (
        """# Rate Limiting Algorithm at the Gateway
topics: [rate-limiting, api-gateway, redis]

The public API uses a sliding window counter per API key, in Redis: the current and previous minute's counts, weighted by how far into the minute we are. Fixed windows let clients send double the limit at a minute boundary.

## Limits
- 600 requests a minute for standard keys, 3000 for partners.
- Limits are read from `rate_limits.yaml` at startup.""",
        """# Rate Limiting When Redis Is Down
topics: [rate-limiting, api-gateway, redis]

If the gateway cannot reach the rate-limit Redis within 50 ms, it lets the request through and counts it locally, per instance, at a tenth of the limit. Failing closed turned a Redis failover into a full API outage for four minutes.

## Notes
- The `ratelimit_fail_open_total` counter shows how often it happens.
- An alert fires when it is above zero for 5 minutes.
## Also: Limits
- 600 requests a minute for standard keys, 3000 for partners.
- Limits are read from `rate_limits.yaml` at startup.""",
    ),
    (
        """# Naming Alembic Migrations
topics: [alembic, database, migrations]

Revision files are named `YYYYMMDD_HHMM_<slug>.py` with `file_template` in `alembic.ini`, so they sort by date in the `migrations/versions` folder. The slug says what changes: `add_shipment_eta_index`.

## Notes
- One change per migration.
- The message passed to `alembic revision -m` becomes the slug.""",
        """# Alembic Migration Conflicts
topics: [alembic, database, migrations]

Two branches that each add a migration on the same head give Alembic two heads, and `alembic upgrade head` fails on `main` after the second merge. CI now runs `alembic heads` and fails when there is more than one.

## Fix
- Rebase the later branch and point its migration's `down_revision` at the new head.
- Or `alembic merge heads -m merge_<slug>` when both must stay as they are.

## Context
Revision files are named `YYYYMMDD_HHMM_<slug>.py` with `file_template` in `alembic.ini`, so they sort by date in the `migrations/versions` folder. The slug says what changes: `add_shipment_eta_index`.""",
    ),
    (
        """# React Server State
topics: [react, frontend, web]

Server state goes through TanStack Query; only UI state (open panels, form drafts) lives in React state or a small Zustand store. The old Redux store duplicated server data and went stale.

## Rules
- Query keys are arrays starting with the resource: `["shipments", id]`.
- Mutations invalidate the queries they affect.
- No global store for anything the server owns.""",
        """# React Query Stale Times
topics: [react, frontend, web]

TanStack Query refetches on every window focus by default, and the shipments list hit the API a dozen times a minute per open tab. Queries now set `staleTime`: 30 seconds for lists, 5 minutes for reference data such as countries.

## Rules
- `refetchOnWindowFocus` stays on; with a stale time it costs little.
- After a mutation, invalidate the affected queries instead of waiting for the stale time.
## Also: Rules
- Query keys are arrays starting with the resource: `["shipments", id]`.
- Mutations invalidate the queries they affect.
- No global store for anything the server owns.

## Context
Server state goes through TanStack Query; only UI state (open panels, form drafts) lives in React state or a small Zustand store. The old Redux store duplicated server data and went stale.""",
    ),
    (
        """# Code Review Etiquette
topics: [review, process, team]

Review comments say what and why, and mark their weight: `nit:`, `question:`, `blocking:`. Only blocking comments hold a merge.

## Habits
- Review within one working day; say so if you cannot.
- Approve with nits rather than another round.
- Never rewrite someone's pull request yourself; suggest, and let them push.""",
        """# Code Review Assignments
topics: [review, process, team]

Reviewers are assigned by `CODEOWNERS` for each directory, and a round-robin bot picks one of the owners so the same person is not asked every time. A pull request that touches two areas needs a review from each.

## Habits
- The author picks a second reviewer by hand for risky changes.
- Review requests older than one working day are pinged in the team channel.
## Also: Habits
- Review within one working day; say so if you cannot.
- Approve with nits rather than another round.
- Never rewrite someone's pull request yourself; suggest, and let them push.

## Context
Review comments say what and why, and mark their weight: `nit:`, `question:`, `blocking:`. Only blocking comments hold a merge.""",
    ),
    (
        """# Prometheus Metric Naming
topics: [observability, metrics, prometheus]

Metrics follow Prometheus conventions: `<service>_<thing>_<unit>_total` for counters, base units only (seconds, bytes). Labels never carry ids: a `user_id` label once made 2 million series.

## Rules
- Histograms for latency, with the shared bucket set from `tw_common.metrics`.
- Every metric has a `help` string.""",
        """# Prometheus Alert Rules
topics: [observability, metrics, prometheus]

Alert rules live next to the service in `deploy/alerts.yaml` and are tested with `promtool test rules` in CI. Every alert has a `runbook_url` annotation and a `for:` of at least 5 minutes, so a single scrape does not page anyone.

## Rules
- Page only on symptoms users feel (errors, latency); causes go to a ticket.
- Severity labels are `page` or `ticket`, nothing else.
## Also: Rules
- Histograms for latency, with the shared bucket set from `tw_common.metrics`.
- Every metric has a `help` string.

## Context
Metrics follow Prometheus conventions: `<service>_<thing>_<unit>_total` for counters, base units only (seconds, bytes). Labels never carry ids: a `user_id` label once made 2 million series.""",
    ),
    (
        """# Offline-First Sync on Mobile
topics: [mobile, sync, offline]

The app writes every change to the local SQLite `outbox` table first and syncs it in the background when online. The UI never waits on the network for a write.

## Lessons
- Outbox entries carry a client-generated UUID, so a retried sync does not create duplicates.
- Sync runs on app start, on reconnect and every 15 minutes.
- Show a small "not synced" badge, not an error.""",
        """# Mobile Sync Conflicts
topics: [mobile, sync, offline]

When two devices edit the same record offline, the server keeps the last write per field, not per record, using the field's `client_ts`. Whole-record last-write-wins lost a driver's delivery note when the dispatcher changed the address.

## Lessons
- Deletions win over edits.
- The app shows which fields were overwritten after a sync.
- Clocks on devices drift; the server rejects timestamps more than a day in the future.
## Also: Lessons
- Outbox entries carry a client-generated UUID, so a retried sync does not create duplicates.
- Sync runs on app start, on reconnect and every 15 minutes.
- Show a small "not synced" badge, not an error.

## Context
The app writes every change to the local SQLite `outbox` table first and syncs it in the background when online. The UI never waits on the network for a write.""",
    ),
)


GROUPS = (
    ("paraphrases", PARAPHRASES),
    ("contradictions", CONTRADICTIONS),
    ("distinct", DISTINCT),
)
