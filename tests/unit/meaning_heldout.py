"""Held-out labelled memory pairs for judging the "meaning" verdicts. NEVER tune rules on this set.

Written on 2026-12-07 by the `heldout` helper session, blind to the rules: its author did not open
the meaning package (`samantha_tui/core/views/meaning/`), the other labelled sets or the meaning
bench before writing these pairs. The pairs are here to measure the rules on text that was not
shaped to them, so a rule change must never be tuned on this file, and the file must not be edited
to fit results: a pair the rules get wrong stays as it is. If a label is plainly a mistake, fix it
in its own commit whose message says why, before looking at any result for that pair.

Domains here (data pipelines, mobile apps, infra/ops, databases, security, docs/writing, team
process, frontend, ML, embedded) differ on purpose from the tuning set in `meaning_tuning_extra.py`
(web backends, CI, git, Python tooling), and no sentence is shared between the two files.

Each `Pair` holds two memories as samantha-llm would store them (title = the first `# ` heading,
body = the Markdown after it, frontmatter `date` and `topics`) and the label a careful reader would
give: duplicate (merge loses nothing), conflict (incompatible guidance, nothing orders them),
supersession (same setting, different value, dates order them and the newer replaces the older),
related (same topic, claims that do not clash) or unrelated (different topics).
"""

from __future__ import annotations

import math
import re
import textwrap
from collections import Counter
from dataclasses import dataclass

LABELS = frozenset({"duplicate", "conflict", "supersession", "related", "unrelated"})
KINDS = frozenset(
    {
        "paraphrase",
        "number",
        "version",
        "unit",
        "negation",
        "before_after",
        "allow_forbid",
        "always_never",
        "enable_disable",
        "safe_unsafe",
        "may_maynot",
        "antonym",
        "limit_raised",
        "near_identical_opposite",
        "same_topic",
        "session_analysis",
        "other",
    }
)


@dataclass(frozen=True)
class Text:
    """One memory: its title (first `# ` heading), Markdown body, frontmatter date and topics."""

    title: str
    body: str
    date: str | None
    topics: tuple[str, ...]


@dataclass(frozen=True)
class Pair:
    """Two memories and the verdict a careful reader gives them, with the reason in one line."""

    label: str
    kind: str
    first: Text
    second: Text
    note: str


def _md(text: str) -> str:
    """A Markdown body written indented in this file, as it would sit in the memory file."""
    return textwrap.dedent(text).strip()


_PAIRS: tuple[Pair, ...] = (
    # ------------------------------------------------------------------ duplicates
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Decision: Idempotent nightly loads",
            body=(
                "Every nightly load job must be safe to re-run: it deletes the target partition"
                " before writing it again."
            ),
            date="2026-02-11",
            topics=("data-pipeline", "loads"),
        ),
        second=Text(
            title="Nightly loaders can run twice",
            body=(
                "We made the nightly loaders idempotent by replacing the whole partition they"
                " write, so running one a second time does no harm."
            ),
            date="2026-04-03",
            topics=("etl", "idempotency"),
        ),
        note="Same rule (rerunnable loads by replacing the partition), said two ways.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Location permission timing",
            body=(
                "On Android we request the location permission only when the user opens the map"
                " screen, never at app launch."
            ),
            date="2026-01-20",
            topics=("android", "permissions"),
        ),
        second=Text(
            title="Ask for location lazily",
            body=(
                "The app asks for location access the first time someone opens the map, not on"
                " startup."
            ),
            date="2026-05-14",
            topics=("mobile", "ux"),
        ),
        note="Both say: prompt for location on first map open, not at launch.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Where Terraform state lives",
            body=(
                "Terraform state lives in the S3 bucket infra-tfstate with DynamoDB locking;"
                " nobody keeps local state files."
            ),
            date="2026-03-09",
            topics=("terraform", "infra"),
        ),
        second=Text(
            title="Remote state only",
            body=(
                "Our Terraform state is kept remotely, in the infra-tfstate bucket, and a DynamoDB"
                " table provides the lock. No local state."
            ),
            date=None,
            topics=("terraform",),
        ),
        note="Same backend, bucket and lock; the second only reorders.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Adding a column to a large Postgres table",
            body=_md(
                """
                When a table has more than a few million rows, add columns in three steps so the
                deploy never holds a long lock.

                - Add the column as nullable with no default.
                - Backfill it in batches of about 10,000 rows from a background job, sleeping
                  between batches.
                - Only then set the default and, if needed, NOT NULL, using a CHECK constraint
                  created NOT VALID first and validated separately.

                This keeps ALTER TABLE fast because Postgres does not have to rewrite the table.
                """
            ),
            date="2026-02-02",
            topics=("postgres", "migrations"),
        ),
        second=Text(
            title="Staged column additions on big tables",
            body=_md(
                """
                Big tables (millions of rows) get new columns in stages; one ALTER carrying a
                default and NOT NULL can block writes for minutes.

                1. ADD COLUMN, nullable, no default: a metadata-only change.
                2. Fill existing rows from a background worker, roughly 10k rows per batch with a
                   pause in between.
                3. Add the default afterwards. For NOT NULL, create a NOT VALID check constraint,
                   then run VALIDATE CONSTRAINT as its own step.

                Deploys that follow these stages do not block writers.
                """
            ),
            date="2026-06-17",
            topics=("postgres", "schema-changes"),
        ),
        note="The same three-stage procedure with the same batch size, reworded and renumbered.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="No secrets in env files",
            body=(
                "Secrets never go in environment files committed to the repo; they come from"
                " Vault when the container starts."
            ),
            date="2026-01-08",
            topics=("security", "secrets"),
        ),
        second=Text(
            title="Secrets come from Vault",
            body=(
                "We fetch secrets from Vault at container boot. Committing .env files with"
                " credentials in them is not allowed."
            ),
            date="2026-03-30",
            topics=("vault", "secrets"),
        ),
        note="Same rule; both carry a negation on the same side, so nothing opposes.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Voice and tense in user docs",
            body=(
                "In user docs, write instructions in the second person and present tense: 'You"
                " click Save', not 'The user will click Save'."
            ),
            date="2026-04-21",
            topics=("docs", "style"),
        ),
        second=Text(
            title="Docs style: address the reader",
            body=(
                "Address the reader directly as 'you' and keep verbs in the present tense rather"
                " than the future."
            ),
            date="2026-04-29",
            topics=("writing", "style-guide"),
        ),
        note="One style rule restated; the first only adds an example.",
    ),
    Pair(
        label="duplicate",
        kind="number",
        first=Text(
            title="Async standup",
            body=(
                "Standup is asynchronous: everyone posts yesterday, today and blockers in"
                " #team-daily before 10:00."
            ),
            date="2026-02-16",
            topics=("team", "standup"),
        ),
        second=Text(
            title="No live standup meeting",
            body=(
                "By 10 a.m. each person writes what they did, what they plan and what blocks them"
                " in the #team-daily channel."
            ),
            date="2026-07-06",
            topics=("process", "standup"),
        ),
        note="10:00 and 10 a.m. are the same deadline; same written-standup practice.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Modal dialogs and focus",
            body=_md(
                """
                Rules we agreed for modal dialogs in the web app:

                - When a dialog opens, move focus to its first interactive element (or the dialog
                  heading if there is none).
                - Trap Tab and Shift+Tab inside the dialog while it is open.
                - Escape closes the dialog unless it holds unsaved form input; then it asks first.
                - On close, return focus to the element that opened it.

                Screen reader users lost their place constantly before we did this, which is what
                the March audit flagged.
                """
            ),
            date="2026-03-25",
            topics=("frontend", "accessibility"),
        ),
        second=Text(
            title="Focus handling checklist for dialogs",
            body=_md(
                """
                Checklist for any new dialog component, from the accessibility audit in March:

                1. Opening: focus lands on the first focusable control inside, falling back to the
                   title.
                2. While open: keyboard focus cannot leave the dialog with Tab or Shift+Tab.
                3. Closing: focus goes back to whatever triggered the dialog.
                4. Esc dismisses it, except that a form with unsaved changes prompts for
                   confirmation first.

                Without this, assistive technology users end up stranded at the top of the page.
                """
            ),
            date="2026-04-10",
            topics=("a11y", "components"),
        ),
        note="The same four focus rules, reordered into a numbered checklist.",
    ),
    Pair(
        label="duplicate",
        kind="always_never",
        first=Text(
            title="Seed every training run",
            body=(
                "Always fix the random seed (Python, NumPy, PyTorch) at the top of every training"
                " script so runs are reproducible."
            ),
            date="2026-05-02",
            topics=("ml", "reproducibility"),
        ),
        second=Text(
            title="Repeatable training",
            body=(
                "Training scripts set one seed for Python's random module, NumPy and PyTorch"
                " before anything else, to make results repeatable."
            ),
            date="2026-08-19",
            topics=("training", "seeds"),
        ),
        note="'Always' in one and a plain statement in the other: same practice.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Watchdog feeding",
            body=(
                "The firmware watchdog is kicked only from the main loop, never from an interrupt"
                " handler, so a hung loop still resets the board."
            ),
            date="2026-02-27",
            topics=("firmware", "watchdog"),
        ),
        second=Text(
            title="Where to feed the watchdog",
            body=(
                "Feed the watchdog from the main loop alone. Kicking it inside an ISR would hide a"
                " stuck main loop and the board would never reset."
            ),
            date="2026-02-27",
            topics=("embedded", "reliability"),
        ),
        note="Same rule and same reason; 'never' appears on the same side in both.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="On-call handoff",
            body=_md(
                """
                Weekly on-call rotation changes hands on Monday at 11:00 local time.

                Outgoing engineer:
                - writes a short handoff note in the incident channel: open incidents, flapping
                  alerts, anything silenced and why;
                - reassigns open pages in PagerDuty.

                Incoming engineer:
                - reads the note and the last seven days of alerts;
                - confirms in the channel that they have the pager.

                If the incoming person has not confirmed by noon, the outgoing person keeps the
                pager and escalates to the team lead.
                """
            ),
            date="2026-01-12",
            topics=("on-call", "ops"),
        ),
        second=Text(
            title="How we hand over the pager",
            body=_md(
                """
                Handover happens Mondays at 11am. The person coming off duty posts a note in the
                incident channel covering what is still open, which alerts are noisy and what has
                been silenced (with the reason), then moves their open PagerDuty pages over.

                The person coming on duty reads that note plus the past week of alerts and says in
                the channel that they now hold the pager. No confirmation by 12:00 means the
                previous on-call keeps it and pings the team lead.
                """
            ),
            date="2026-06-01",
            topics=("pagerduty", "rotation"),
        ),
        note="Same handoff procedure as prose instead of bullets; noon and 12:00 agree.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Reads after writes",
            body=(
                "Read replicas can lag; anything that reads its own write right after a request"
                " must query the primary."
            ),
            date="2026-03-03",
            topics=("databases", "replication"),
        ),
        second=Text(
            title="Read-your-writes goes to the primary",
            body=(
                "Code paths that need to see their own writes talk to the primary database, since"
                " replicas may be a few seconds behind."
            ),
            date=None,
            topics=("postgres", "replicas"),
        ),
        note="Same routing rule for read-your-own-writes, with the same reason.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Password hashing",
            body="User passwords are hashed with Argon2id before they are stored anywhere.",
            date="2026-01-30",
            topics=("security", "auth"),
        ),
        second=Text(
            title="Decision: Argon2id for passwords",
            body=(
                "Store user passwords only as Argon2id hashes; keeping them in plaintext or with"
                " reversible encryption is never acceptable."
            ),
            date="2026-02-04",
            topics=("auth", "passwords"),
        ),
        note="The second restates the first and spells out what it already excludes.",
    ),
    Pair(
        label="duplicate",
        kind="negation",
        first=Text(
            title="Landing bucket is append-only",
            body=(
                "Raw event files in the landing bucket are immutable; transformations write to a"
                " separate curated bucket."
            ),
            date="2026-04-14",
            topics=("data-lake", "storage"),
        ),
        second=Text(
            title="Do not touch raw files",
            body=(
                "Never modify files in the landing bucket. Cleaned and transformed data goes to"
                " the curated bucket instead."
            ),
            date="2026-04-22",
            topics=("data-lake",),
        ),
        note="'Immutable' and 'never modify' say the same; no opposition.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Retro format",
            body=_md(
                """
                Our sprint retrospective runs for 45 minutes every other Friday.

                - 10 minutes of silent writing on the board: what went well, what did not, what
                  puzzled us.
                - 15 minutes of grouping and dot voting (three votes each).
                - 20 minutes on the top two topics, each ending with one owner and one concrete
                  action.

                Action items go into the next sprint's backlog, and the next retro opens by
                checking them.
                """
            ),
            date="2026-02-20",
            topics=("retro", "team-process"),
        ),
        second=Text(
            title="How retrospectives work here",
            body=_md(
                """
                Every second Friday we hold a 45-minute retro. It opens with a check on last
                time's actions, which live in the sprint backlog.

                Then ten minutes of writing sticky notes quietly (good, bad, confusing), fifteen
                minutes to cluster them and vote with three dots per person, and the final twenty
                minutes discussing the two most-voted clusters. Each discussion must end with a
                single action that has a named owner.
                """
            ),
            date="2026-09-11",
            topics=("retrospective",),
        ),
        note="Same schedule, same time boxes in digits and in words, same outcome.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Image loading",
            body=(
                'Images below the fold use loading="lazy"; the hero image is loaded eagerly with'
                ' fetchpriority="high".'
            ),
            date="2026-05-05",
            topics=("frontend", "performance"),
        ),
        second=Text(
            title="Lazy images, eager hero",
            body=(
                "Lazy-load every image that is not visible on first paint, but give the hero"
                " image eager loading and high fetch priority."
            ),
            date="2026-05-19",
            topics=("web-perf", "images"),
        ),
        note="Same loading strategy, attribute names versus plain words.",
    ),
    Pair(
        label="duplicate",
        kind="before_after",
        first=Text(
            title="Test split discipline",
            body=(
                "Evaluate on the frozen test split only once per model family, after"
                " hyperparameters are chosen on validation."
            ),
            date="2026-06-08",
            topics=("ml", "evaluation"),
        ),
        second=Text(
            title="When the test split is touched",
            body=(
                "Hyperparameters are picked on the validation split first; the frozen test split"
                " is used a single time per model family, at the end."
            ),
            date="2026-06-30",
            topics=("evaluation", "datasets"),
        ),
        note="Same order (validation, then one test run), phrased from opposite ends.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="iOS release signing",
            body=(
                "Release builds for iOS are signed by the CI runner with the distribution"
                " certificate; nobody signs on a laptop."
            ),
            date="2026-03-17",
            topics=("ios", "release"),
        ),
        second=Text(
            title="Who holds the distribution certificate",
            body=(
                "Only the build runner has the iOS distribution certificate and signs release"
                " builds; developer machines never do."
            ),
            date="2026-08-02",
            topics=("ios", "signing"),
        ),
        note="Same signing rule from the certificate's side.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Sensor bus wiring notes",
            body=_md(
                """
                The environmental sensor board talks to the MCU over I2C at 400 kHz.

                - Pull-ups are 2.2 kΩ to 3.3 V on both SDA and SCL; the breakout's own pull-ups
                  are removed (solder jumpers cut).
                - The humidity sensor sits at address 0x40 and the pressure sensor at 0x77.
                - After a bus error the driver toggles SCL nine times to release a stuck device,
                  then re-initialises the peripheral.

                Do not run the bus at 1 MHz: the long ribbon cable makes the edges too slow.
                """
            ),
            date="2026-04-07",
            topics=("embedded", "i2c"),
        ),
        second=Text(
            title="I2C setup for the env board",
            body=_md(
                """
                I2C between the microcontroller and the sensors runs in fast mode, 400 kHz,
                because the ribbon cable is too long for fast-mode plus: at 1 MHz the edges get
                too slow.

                Addresses: humidity 0x40, pressure 0x77.
                Pull-ups: 2.2k on SDA and SCL to the 3.3 V rail; the breakout's on-board pull-ups
                are disabled by cutting their jumpers.
                Recovery: on a bus error, clock SCL nine times so any stuck device lets go of SDA,
                then re-init the I2C peripheral.
                """
            ),
            date="2026-07-23",
            topics=("hardware", "sensors"),
        ),
        note="Same bus speed, addresses, pull-ups and recovery, in a different layout.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Docstrings with examples",
            body="Every public API function gets a docstring with at least one runnable example.",
            date="2026-05-26",
            topics=("docs", "api-reference"),
        ),
        second=Text(
            title="Document exported functions",
            body=(
                "Each function we export must document itself with a docstring that includes a"
                " working usage example."
            ),
            date=None,
            topics=("documentation",),
        ),
        note="Same documentation rule, different words.",
    ),
    Pair(
        label="duplicate",
        kind="unit",
        first=Text(
            title="Log retention",
            body="Loki keeps our logs for 30 days before they are deleted.",
            date="2026-02-13",
            topics=("logging", "observability"),
        ),
        second=Text(
            title="Central log store retention",
            body=(
                "Retention on the central Loki log store is set to 720h, after which log chunks"
                " are dropped."
            ),
            date="2026-02-13",
            topics=("loki", "retention"),
        ),
        note="30 days is exactly 720 hours: same value in another unit.",
    ),
    Pair(
        label="duplicate",
        kind="number",
        first=Text(
            title="Orders service pool size",
            body=(
                "The connection pool for the orders service is capped at 40 connections per"
                " instance."
            ),
            date="2026-03-12",
            topics=("databases", "pooling"),
        ),
        second=Text(
            title="Pool cap per instance",
            body=(
                "Each orders-service instance opens at most forty database connections through"
                " its pool."
            ),
            date="2026-03-12",
            topics=("orders-service",),
        ),
        note="40 and forty: the same cap.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="SSH access to production",
            body=_md(
                """
                Nobody has standing SSH access to production hosts.

                To get a shell:
                1. Request access through the access portal with a ticket number and a reason.
                2. A second engineer approves; the grant lasts four hours.
                3. The bastion records the whole session, and recordings are kept for a year.

                Break-glass keys exist in the vault for when the portal itself is down; using them
                opens a security incident automatically.
                """
            ),
            date="2026-01-26",
            topics=("security", "access"),
        ),
        second=Text(
            title="Getting a production shell",
            body=_md(
                """
                Production shells are granted just in time, never permanently. You file a request
                in the access portal citing a ticket and why you need it; another engineer has to
                approve, and the access expires after 4 hours. Everything you type goes through
                the bastion, which records sessions and keeps the recordings for twelve months.

                If the portal is unavailable there are break-glass keys in the vault, but touching
                them automatically raises a security incident.
                """
            ),
            date="2026-05-11",
            topics=("bastion", "production"),
        ),
        note="Same access process; four hours = 4 hours, a year = twelve months.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Feature flags on mobile",
            body=_md(
                """
                Remote feature flags in the mobile apps:

                - Flags are fetched at launch and cached on the device; the cached values are used
                  until the next successful fetch.
                - A flag that has never been fetched falls back to the default compiled into the
                  build, which must always be the safe, old behaviour.
                - Flags are removed from the code within two releases after reaching 100%.

                This way an offline first launch still works and dead flags do not pile up.
                """
            ),
            date="2026-06-15",
            topics=("mobile", "feature-flags"),
        ),
        second=Text(
            title="How the apps read flags",
            body=_md(
                """
                The iOS and Android apps download their remote flags when they start and keep a
                copy on the phone, which they keep using until a newer download succeeds. If the
                app has no copy yet (say, first launch with no network), it uses the built-in
                default, and that default is always the existing behaviour, never the new one.

                Once a flag is fully rolled out, its code path is cleaned up within two releases.
                """
            ),
            date="2026-10-02",
            topics=("ios", "android", "flags"),
        ),
        note="Same three flag rules in prose; 'never the new one' restates 'the safe, old one'.",
    ),
    Pair(
        label="duplicate",
        kind="paraphrase",
        first=Text(
            title="Annotation guidelines for the ticket classifier",
            body=_md(
                """
                How annotators label support tickets:

                - Read the whole ticket thread, not only the first message; the customer's real
                  problem is often in a reply.
                - Pick exactly one category. If two fit, pick the one that decides who has to act
                  (billing wins when a refund is involved).
                - Mark a ticket 'unclear' rather than guessing; unclear tickets are reviewed by a
                  second person.
                - Never label tickets you wrote or answered yourself.

                About 5% of each batch is labelled twice to measure agreement.
                """
            ),
            date="2026-07-20",
            topics=("ml", "labelling"),
        ),
        second=Text(
            title="Labelling support tickets",
            body=_md(
                """
                Each ticket gets a single category, chosen after reading every message in the
                thread, because the opening message often misses the actual issue. When two
                categories seem right, choose the one that tells us which team must act; a refund
                request makes it billing even if a bug caused it.

                If you cannot tell, use 'unclear' instead of guessing, and a second annotator will
                look at it. Skip tickets you were involved in yourself. Roughly one ticket in
                twenty is labelled by two people so we can track agreement.
                """
            ),
            date="2026-10-30",
            topics=("annotation", "support-tickets"),
        ),
        note="Same labelling rules in prose; 5% and one in twenty agree.",
    ),
    # ------------------------------------------------------------------ conflicts
    Pair(
        label="conflict",
        kind="negation",
        first=Text(
            title="Late events",
            body=(
                "Late-arriving events are reprocessed into the partition of the day they happened."
            ),
            date="2026-05-07",
            topics=("data-pipeline", "late-data"),
        ),
        second=Text(
            title="Handling late-arriving events",
            body=(
                "Late-arriving events are not reprocessed into the day they happened; they land"
                " in the partition of the day they arrive."
            ),
            date="2026-05-07",
            topics=("data-pipeline", "partitions"),
        ),
        note="Same day, opposite rule for late events.",
    ),
    Pair(
        label="conflict",
        kind="before_after",
        first=Text(
            title="Dedupe before the join",
            body=(
                "Run deduplication before joining events with the users table, so duplicate"
                " events do not multiply rows."
            ),
            date=None,
            topics=("etl", "joins"),
        ),
        second=Text(
            title="Join first",
            body=(
                "Join events with the users table first and deduplicate afterwards, on the joined"
                " rows."
            ),
            date=None,
            topics=("etl", "dedup"),
        ),
        note="Opposite order of the same two steps, no dates.",
    ),
    Pair(
        label="conflict",
        kind="allow_forbid",
        first=Text(
            title="Analytics in the kids' edition",
            body=(
                "Analytics SDKs are allowed in the kids' edition of the app as long as they run in"
                " their COPPA mode."
            ),
            date="2026-08-04",
            topics=("mobile", "privacy"),
        ),
        second=Text(
            title="Kids' edition SDK policy",
            body=(
                "No third-party analytics SDK is permitted in the kids' edition of the app, COPPA"
                " mode or not."
            ),
            date="2026-08-04",
            topics=("privacy", "sdk"),
        ),
        note="One allows analytics SDKs under a condition, the other forbids them outright.",
    ),
    Pair(
        label="conflict",
        kind="always_never",
        first=Text(
            title="Kernel patching",
            body="Always drain a Kubernetes node with kubectl drain before patching its kernel.",
            date=None,
            topics=("kubernetes", "patching"),
        ),
        second=Text(
            title="Kernel patches without draining",
            body=(
                "Never drain nodes for kernel patches; the live-patching agent applies them"
                " without a reboot."
            ),
            date=None,
            topics=("kubernetes", "ops"),
        ),
        note="Always versus never drain for the same operation, undated.",
    ),
    Pair(
        label="conflict",
        kind="enable_disable",
        first=Text(
            title="synchronous_commit on payments",
            body=(
                "Enable synchronous_commit on the payments database; losing an acknowledged"
                " transaction is not acceptable."
            ),
            date="2026-09-15",
            topics=("postgres", "payments"),
        ),
        second=Text(
            title="Write latency on payments",
            body=(
                "Disable synchronous_commit on the payments database to cut write latency; we"
                " accept losing the last few milliseconds on a crash."
            ),
            date="2026-09-15",
            topics=("postgres", "latency"),
        ),
        note="Enable versus disable of the same setting on the same database, same date.",
    ),
    Pair(
        label="conflict",
        kind="safe_unsafe",
        first=Text(
            title="Access log fields",
            body=(
                "It is safe to log request IDs and user IDs together in the access log; neither"
                " is personal data on its own."
            ),
            date=None,
            topics=("logging", "privacy"),
        ),
        second=Text(
            title="User IDs in access logs",
            body=(
                "Logging user IDs next to request IDs in the access log is unsafe: it lets anyone"
                " with log access follow individual people."
            ),
            date=None,
            topics=("security", "logging"),
        ),
        note="Safe versus unsafe for the same logging practice.",
    ),
    Pair(
        label="conflict",
        kind="may_maynot",
        first=Text(
            title="Contractors on call",
            body="Contractors may join the on-call rotation once they have been here a month.",
            date="2026-07-13",
            topics=("on-call", "team"),
        ),
        second=Text(
            title="On-call eligibility",
            body=(
                "Contractors may not be put on the on-call rotation, however long they have been"
                " with us."
            ),
            date="2026-07-13",
            topics=("on-call", "staffing"),
        ),
        note="May versus may not for the same people and rotation.",
    ),
    Pair(
        label="conflict",
        kind="antonym",
        first=Text(
            title="Checkout validation",
            body="Form validation in the checkout runs synchronously on every keystroke.",
            date=None,
            topics=("frontend", "forms"),
        ),
        second=Text(
            title="Checkout validation timing",
            body=(
                "Checkout form validation runs asynchronously, debounced, once the user stops"
                " typing."
            ),
            date=None,
            topics=("frontend", "checkout"),
        ),
        note="Synchronous per keystroke against asynchronous after typing stops.",
    ),
    Pair(
        label="conflict",
        kind="near_identical_opposite",
        first=Text(
            title="Learning rate on plateau",
            body=(
                "When validation loss plateaus for three epochs, increase the learning rate by a"
                " factor of ten."
            ),
            date="2026-10-20",
            topics=("ml", "training"),
        ),
        second=Text(
            title="Learning rate schedule",
            body=(
                "When validation loss plateaus for three epochs, decrease the learning rate by a"
                " factor of ten."
            ),
            date="2026-10-20",
            topics=("ml", "training"),
        ),
        note="One word differs and it reverses the instruction.",
    ),
    Pair(
        label="conflict",
        kind="before_after",
        first=Text(
            title="Bootloader update order",
            body=(
                "The bootloader verifies the new firmware's signature before it erases the old"
                " image."
            ),
            date=None,
            topics=("bootloader", "ota"),
        ),
        second=Text(
            title="Bootloader flashing sequence",
            body=(
                "The bootloader erases the old image first and verifies the new firmware's"
                " signature after that."
            ),
            date=None,
            topics=("bootloader", "firmware"),
        ),
        note="Opposite order of erase and verify.",
    ),
    Pair(
        label="conflict",
        kind="negation",
        first=Text(
            title="Changelog policy",
            body=_md(
                """
                How we write the changelog for the public docs site:

                - One entry per user-visible change, written for users, not for developers.
                - Internal refactors and dependency bumps are listed too, under a collapsed
                  'Maintenance' heading, so integrators can see everything that changed.
                - Each entry links the issue it closes.

                The changelog is updated in the same pull request as the change it describes, not
                in a batch at release time.
                """
            ),
            date="2026-03-04",
            topics=("docs", "changelog"),
        ),
        second=Text(
            title="Changelog rules",
            body=_md(
                """
                Guidelines for the public changelog:

                - Write each entry for the people using the product, one per visible change.
                - Internal refactors and dependency bumps are not listed at all; they are noise to
                  users, and the history of the repository already has them.
                - Link the closed issue from every entry.
                - Update the changelog in the same PR that makes the change.
                """
            ),
            date="2026-03-04",
            topics=("docs", "release-notes"),
        ),
        note="Long lists agree except one point: maintenance entries listed versus not listed.",
    ),
    Pair(
        label="conflict",
        kind="allow_forbid",
        first=Text(
            title="Third-party scripts on the marketing site",
            body=_md(
                """
                The marketing site can load third-party scripts (chat widget, analytics, A/B
                testing) straight from their vendors' CDNs, provided that:

                - each vendor domain is listed in the Content-Security-Policy script-src list;
                - security reviews every vendor once a year.

                Subresource integrity hashes are not required for these scripts, because vendors
                change them without notice and a hash would break the page. We do not use a tag
                manager either: each script tag is added by a developer in a reviewed change.
                """
            ),
            date=None,
            topics=("security", "marketing-site"),
        ),
        second=Text(
            title="Marketing site script policy",
            body=_md(
                """
                Loading JavaScript from vendor CDNs is forbidden on the marketing site. Every
                script we run, including the chat widget and analytics, is copied into our own
                static bucket, pinned to a version, and served with a subresource integrity hash.

                A vendor that cannot be self-hosted is not used. The Content-Security-Policy
                script-src therefore lists only our own origin. Vendor updates are pulled in on
                purpose, by a reviewed change that bumps the pinned copy and its hash.
                """
            ),
            date=None,
            topics=("security", "csp"),
        ),
        note="One allows vendor-CDN scripts, the other forbids them; no dates to order them.",
    ),
    Pair(
        label="conflict",
        kind="always_never",
        first=Text(
            title="Rating prompt timing",
            body=(
                "Always show the native rating prompt right after a user completes their first"
                " order."
            ),
            date="2026-06-22",
            topics=("mobile", "app-store"),
        ),
        second=Text(
            title="When to ask for a rating",
            body=(
                "Never trigger the rating prompt after the first order; wait until the user has"
                " completed three."
            ),
            date="2026-06-22",
            topics=("mobile", "ratings"),
        ),
        note="Always versus never at the same moment.",
    ),
    Pair(
        label="conflict",
        kind="enable_disable",
        first=Text(
            title="Production source maps",
            body=(
                "Source maps are enabled in production builds so that error reports show the"
                " original code."
            ),
            date=None,
            topics=("frontend", "build"),
        ),
        second=Text(
            title="Source maps off in prod",
            body=(
                "Production builds ship with source maps disabled; we do not expose our original"
                " source to the public."
            ),
            date=None,
            topics=("frontend", "security"),
        ),
        note="Enabled versus disabled for the same builds.",
    ),
    Pair(
        label="conflict",
        kind="safe_unsafe",
        first=Text(
            title="VACUUM FULL on events",
            body=(
                "Running VACUUM FULL on the events table during business hours is safe; it only"
                " takes a few seconds."
            ),
            date="2026-04-28",
            topics=("postgres", "maintenance"),
        ),
        second=Text(
            title="Events table maintenance window",
            body=(
                "VACUUM FULL on the events table is unsafe during business hours: it takes an"
                " exclusive lock and blocks every write."
            ),
            date="2026-04-28",
            topics=("postgres", "locks"),
        ),
        note="Safe versus unsafe for the same operation at the same time of day.",
    ),
    Pair(
        label="conflict",
        kind="antonym",
        first=Text(
            title="Worker pool scaling",
            body=(
                "Scale the worker pool horizontally: add more small instances rather than bigger"
                " ones."
            ),
            date=None,
            topics=("infra", "scaling"),
        ),
        second=Text(
            title="How to grow the workers",
            body=(
                "Scale the worker pool vertically: move to bigger instances instead of adding more."
            ),
            date=None,
            topics=("infra", "capacity"),
        ),
        note="Horizontal versus vertical scaling of the same pool.",
    ),
    Pair(
        label="conflict",
        kind="may_maynot",
        first=Text(
            title="Fine-tuning data",
            body=(
                "Production user data may be used to fine-tune the support-chat model if it is"
                " anonymised first."
            ),
            date="2026-11-03",
            topics=("ml", "privacy"),
        ),
        second=Text(
            title="Training data policy",
            body=(
                "Production user data may not be used to fine-tune any model, anonymised or not."
            ),
            date="2026-11-03",
            topics=("ml", "data-governance"),
        ),
        note="May versus may not for the same data and purpose.",
    ),
    Pair(
        label="conflict",
        kind="near_identical_opposite",
        first=Text(
            title="Offline edits",
            body=(
                "When the phone comes back online, the server copy wins if the same note was"
                " edited in both places."
            ),
            date=None,
            topics=("mobile", "sync"),
        ),
        second=Text(
            title="Offline edits (sync rule)",
            body=(
                "When the phone comes back online, the local copy wins if the same note was edited"
                " in both places."
            ),
            date=None,
            topics=("mobile", "sync"),
        ),
        note="Near-identical sentences naming opposite winners.",
    ),
    Pair(
        label="conflict",
        kind="antonym",
        first=Text(
            title="Incident comms",
            body=_md(
                """
                During a customer-facing incident, the incident commander owns communication:

                - The status page is updated every 30 minutes, even when there is nothing new.
                - Updates are written publicly and early: we post as soon as we know customers
                  are affected, before the cause is understood.
                - Support gets the same wording as the status page, so nobody improvises.

                After resolution, a public summary follows within five working days.
                """
            ),
            date="2026-09-01",
            topics=("incidents", "communication"),
        ),
        second=Text(
            title="Incident communication rules",
            body=_md(
                """
                The incident commander is responsible for all outside communication while an
                incident is open.

                - Status page updates go out every 30 minutes, including "no change" updates.
                - We stay quiet publicly until the cause is understood; a premature post that
                  turns out wrong does more harm than a late one.
                - Support copies the status page wording exactly.

                A public summary is published within five working days of resolution.
                """
            ),
            date="2026-09-01",
            topics=("incidents", "status-page"),
        ),
        note="Long and otherwise equal, but 'post early' against 'stay quiet until the cause'.",
    ),
    # near-identical wording, one value differs, nothing orders them
    Pair(
        label="conflict",
        kind="number",
        first=Text(
            title="Reporting role timeout",
            body=(
                "Queries from the reporting role are cancelled by a statement timeout of 30"
                " seconds."
            ),
            date="2026-06-11",
            topics=("postgres", "reporting"),
        ),
        second=Text(
            title="Statement timeout for reporting",
            body=(
                "Queries from the reporting role are cancelled by a statement timeout of 300"
                " seconds."
            ),
            date="2026-06-11",
            topics=("postgres", "reporting"),
        ),
        note="Same setting, 30 versus 300 seconds, same date.",
    ),
    Pair(
        label="conflict",
        kind="version",
        first=Text(
            title="Android SDK levels",
            body="The Android app targets API level 34 and sets minSdk to 26.",
            date=None,
            topics=("android", "build"),
        ),
        second=Text(
            title="Android SDK levels (build config)",
            body="The Android app targets API level 34 and sets minSdk to 24.",
            date=None,
            topics=("android", "build"),
        ),
        note="minSdk 26 versus 24, no dates.",
    ),
    Pair(
        label="conflict",
        kind="unit",
        first=Text(
            title="Accelerometer sampling",
            body=(
                "The sensor task samples the accelerometer every 10 ms and pushes the readings to"
                " the ring buffer."
            ),
            date=None,
            topics=("firmware", "sensors"),
        ),
        second=Text(
            title="Accelerometer sampling period",
            body=(
                "The sensor task samples the accelerometer every 10 s and pushes the readings to"
                " the ring buffer."
            ),
            date=None,
            topics=("firmware", "sensors"),
        ),
        note="Same number, different unit (ms versus s): a thousandfold difference.",
    ),
    Pair(
        label="conflict",
        kind="version",
        first=Text(
            title="Cluster version",
            body=(
                "Production clusters run Kubernetes 1.29; upgrades go one minor release at a time."
            ),
            date="2026-08-25",
            topics=("kubernetes", "upgrades"),
        ),
        second=Text(
            title="Cluster version policy",
            body=(
                "Production clusters run Kubernetes 1.28; upgrades go one minor release at a time."
            ),
            date="2026-08-25",
            topics=("kubernetes", "upgrades"),
        ),
        note="1.29 versus 1.28 on the same day.",
    ),
    Pair(
        label="conflict",
        kind="number",
        first=Text(
            title="Account lockout",
            body="Account lockout kicks in after 5 failed login attempts within 15 minutes.",
            date="2026-02-09",
            topics=("security", "auth"),
        ),
        second=Text(
            title="Lockout threshold",
            body="Account lockout kicks in after 10 failed login attempts within 15 minutes.",
            date="2026-02-09",
            topics=("security", "auth"),
        ),
        note="5 versus 10 attempts, same date.",
    ),
    Pair(
        label="conflict",
        kind="unit",
        first=Text(
            title="Compaction file size",
            body="Parquet files written by the compaction job target a size of 512 MB each.",
            date=None,
            topics=("data-lake", "parquet"),
        ),
        second=Text(
            title="Compaction target",
            body="Parquet files written by the compaction job target a size of 512 KB each.",
            date=None,
            topics=("data-lake", "parquet"),
        ),
        note="MB versus KB for the same target.",
    ),
    Pair(
        label="conflict",
        kind="number",
        first=Text(
            title="Search suggestions debounce",
            body=(
                "The search box waits 300 ms after the last keystroke before it calls the"
                " suggestions API."
            ),
            date="2026-07-30",
            topics=("frontend", "search"),
        ),
        second=Text(
            title="Suggestions debounce",
            body=(
                "The search box waits 150 ms after the last keystroke before it calls the"
                " suggestions API."
            ),
            date="2026-07-30",
            topics=("frontend", "search"),
        ),
        note="300 versus 150 ms, same date.",
    ),
    Pair(
        label="conflict",
        kind="number",
        first=Text(
            title="OTA staged rollout",
            body=_md(
                """
                Firmware updates reach the fleet in stages:

                1. Internal devices in the lab, 24 hours.
                2. 5% of customer devices, chosen at random, for 48 hours.
                3. 25% of devices for another 48 hours.
                4. Everyone else.

                A stage is halted automatically if the crash-reboot rate of updated devices rises
                above twice the fleet baseline. Halting pauses the rollout; it does not roll
                devices back.
                """
            ),
            date=None,
            topics=("ota", "firmware", "rollout"),
        ),
        second=Text(
            title="OTA staged rollout (runbook)",
            body=_md(
                """
                Firmware updates reach the fleet in stages:

                1. Internal devices in the lab, 24 hours.
                2. 1% of customer devices, chosen at random, for 48 hours.
                3. 25% of devices for another 48 hours.
                4. Everyone else.

                A stage is halted automatically if the crash-reboot rate of updated devices rises
                above twice the fleet baseline. Halting pauses the rollout; it does not roll
                devices back.
                """
            ),
            date=None,
            topics=("ota", "firmware", "rollout"),
        ),
        note="Long and word for word the same except the first customer stage: 5% versus 1%.",
    ),
    # ------------------------------------------------------------------ supersessions
    Pair(
        label="supersession",
        kind="limit_raised",
        first=Text(
            title="Primary connection limit",
            body="max_connections on the primary database is set to 200 in the parameter group.",
            date="2026-02-10",
            topics=("postgres", "connections"),
        ),
        second=Text(
            title="Connection limit raised",
            body=(
                "Raised max_connections on the primary from 200 to 400 after the March connection"
                " storms, with PgBouncer in front."
            ),
            date="2026-04-02",
            topics=("postgres", "connections"),
        ),
        note="Same setting, newer memory raises it and says when and why.",
    ),
    Pair(
        label="supersession",
        kind="version",
        first=Text(
            title="iOS deployment target",
            body="The minimum deployment target for the iOS app is iOS 15.",
            date="2026-01-15",
            topics=("ios", "support-matrix"),
        ),
        second=Text(
            title="Dropped iOS 15",
            body=(
                "The minimum deployment target is now iOS 16; fewer than one percent of users"
                " were left on 15."
            ),
            date="2026-07-01",
            topics=("ios", "support-matrix"),
        ),
        note="Minimum iOS version moved up; the later memory replaces the earlier.",
    ),
    Pair(
        label="supersession",
        kind="other",
        first=Text(
            title="Host configuration",
            body=(
                "Host configuration is managed with the Ansible playbooks in the ops repository."
            ),
            date="2026-02-18",
            topics=("config-management", "ansible"),
        ),
        second=Text(
            title="Moved off Ansible",
            body=(
                "Host configuration is now declared in NixOS modules; the old Ansible playbooks"
                " are archived and no longer run."
            ),
            date="2026-09-07",
            topics=("config-management", "nixos"),
        ),
        note="Tool replaced; the newer memory says the old one is retired.",
    ),
    Pair(
        label="supersession",
        kind="unit",
        first=Text(
            title="Clickstream topic retention",
            body="The clickstream Kafka topic keeps messages for 7 days.",
            date="2026-03-05",
            topics=("kafka", "retention"),
        ),
        second=Text(
            title="Clickstream retention cut",
            body=(
                "Cut clickstream topic retention to 48 hours to save broker disk; the lake holds"
                " a full copy anyway."
            ),
            date="2026-06-24",
            topics=("kafka", "retention"),
        ),
        note="Retention changed (days to hours), later memory replaces it.",
    ),
    Pair(
        label="supersession",
        kind="number",
        first=Text(
            title="Fraud review threshold lowered",
            body=(
                "The review threshold for fraud scores moved down to 0.65 after the Q2"
                " calibration; 0.80 missed too many cases."
            ),
            date="2026-06-20",
            topics=("ml", "fraud"),
        ),
        second=Text(
            title="Fraud review threshold",
            body="Flag a transaction for manual review when the fraud model's score is above 0.80.",
            date="2026-03-03",
            topics=("ml", "fraud"),
        ),
        note="Newer memory comes first here; it replaces the 0.80 threshold with 0.65.",
    ),
    Pair(
        label="supersession",
        kind="limit_raised",
        first=Text(
            title="Login rate limit",
            body="The login endpoint allows 10 requests per minute per IP address.",
            date="2026-01-22",
            topics=("security", "rate-limiting"),
        ),
        second=Text(
            title="Login rate limit raised",
            body=(
                "Raised the login limit to 30 requests per minute per IP, because corporate NATs"
                " put whole offices behind one address."
            ),
            date="2026-05-28",
            topics=("security", "rate-limiting"),
        ),
        note="Limit raised with a reason, later date.",
    ),
    Pair(
        label="supersession",
        kind="number",
        first=Text(
            title="Landing page bundle budget",
            body="The JavaScript budget for the landing page is 170 KB gzipped.",
            date="2026-02-24",
            topics=("frontend", "performance-budget"),
        ),
        second=Text(
            title="Tighter bundle budget",
            body=(
                "Tightened the landing page JavaScript budget to 120 KB gzipped now that the old"
                " carousel is gone."
            ),
            date="2026-08-31",
            topics=("frontend", "performance-budget"),
        ),
        note="Budget lowered later; same size limit, new value.",
    ),
    Pair(
        label="supersession",
        kind="version",
        first=Text(
            title="Training image versions",
            body="Our GPU training images use CUDA 11.8 with PyTorch 2.0.",
            date="2026-01-19",
            topics=("ml", "infra"),
        ),
        second=Text(
            title="New training images",
            body=(
                "Training images moved to CUDA 12.4 and PyTorch 2.3; the 11.8 images are"
                " deprecated and will be deleted."
            ),
            date="2026-05-06",
            topics=("ml", "infra"),
        ),
        note="Versions bumped, the older images explicitly retired.",
    ),
    Pair(
        label="supersession",
        kind="number",
        first=Text(
            title="Database backup schedule",
            body=_md(
                """
                Backups of the main Postgres cluster:

                - Full base backup every night at 01:00 UTC with pgBackRest.
                - WAL archived continuously to object storage.
                - Backups are retained for 14 days.
                - Once a month someone restores the latest backup into a scratch instance and runs
                  the smoke queries, to prove the backups are usable.

                The backup host also keeps the last three base backups on local disk, for quick
                restores. Owner: the database on-call. Failures page them.
                """
            ),
            date="2026-02-01",
            topics=("postgres", "backups"),
        ),
        second=Text(
            title="Backup schedule after the audit",
            body=_md(
                """
                Following the August audit the backup policy for the main Postgres cluster
                changed:

                - Retention goes from 14 to 35 days, to cover a full monthly close.
                - The restore test is now weekly instead of monthly, and it runs automatically in
                  the scheduler rather than by hand.
                - The nightly base backup moves to 02:00 UTC, after the batch jobs finish.

                WAL archiving and the paging on failure stay as they were.
                """
            ),
            date="2026-08-12",
            topics=("postgres", "backups"),
        ),
        note="Long: the later memory changes retention, restore cadence and time, and says so.",
    ),
    Pair(
        label="supersession",
        kind="other",
        first=Text(
            title="Where design docs live",
            body="Design docs are written in Google Docs and linked from the ticket.",
            date="2026-01-06",
            topics=("docs", "design-docs"),
        ),
        second=Text(
            title="Design docs in the repo",
            body=(
                "Design docs now live as Markdown in the repository's docs folder and are reviewed"
                " like code; we stopped using Google Docs for them."
            ),
            date="2026-05-18",
            topics=("docs", "design-docs"),
        ),
        note="Tool and place replaced; the newer one says the old practice stopped.",
    ),
    Pair(
        label="supersession",
        kind="before_after",
        first=Text(
            title="Nightly pipeline order",
            body="The nightly pipeline runs: ingest, load into staging, validate, publish.",
            date="2026-03-16",
            topics=("data-pipeline", "orchestration"),
        ),
        second=Text(
            title="Validation moved earlier",
            body=(
                "Since July the nightly job validates right after ingest, before anything is"
                " loaded into staging; then it loads and publishes."
            ),
            date="2026-07-08",
            topics=("data-pipeline", "orchestration"),
        ),
        note="Step order changed at a stated time; the later order replaces the earlier.",
    ),
    Pair(
        label="supersession",
        kind="limit_raised",
        first=Text(
            title="OTA image size limit",
            body="OTA images may be at most 1.5 MB, the size of one flash slot.",
            date="2026-02-06",
            topics=("ota", "flash"),
        ),
        second=Text(
            title="Bigger OTA slots",
            body=(
                "With the new 8 MB flash part, each OTA slot is 3 MB, so images up to 3 MB are now"
                " accepted."
            ),
            date="2026-10-14",
            topics=("ota", "flash"),
        ),
        note="Size limit raised when the hardware changed.",
    ),
    Pair(
        label="supersession",
        kind="number",
        first=Text(
            title="Faster escalation",
            body=(
                "Pages now escalate to the secondary after 5 minutes unacknowledged; 15 was too"
                " slow during the May outage."
            ),
            date="2026-05-30",
            topics=("on-call", "pagerduty"),
        ),
        second=Text(
            title="Escalation policy",
            body=(
                "PagerDuty escalates to the secondary on-call after 15 minutes without an"
                " acknowledgement."
            ),
            date="2026-01-09",
            topics=("on-call", "pagerduty"),
        ),
        note="Newer memory first; 5 minutes replaces 15.",
    ),
    Pair(
        label="supersession",
        kind="version",
        first=Text(
            title="TLS policy for public endpoints",
            body=_md(
                """
                Public endpoints accept TLS 1.2 and 1.3.

                - Cipher suites: the Mozilla "intermediate" list, reviewed every quarter.
                - Certificates are bought from DigiCert with a one-year lifetime; the platform
                  team renews them by hand, with a calendar reminder a month ahead.
                - HSTS is sent with a max-age of one year.

                TLS 1.0 and 1.1 are refused everywhere. OCSP stapling is on for every listener,
                and internal endpoints follow the same rules.
                """
            ),
            date="2026-01-20",
            topics=("security", "tls"),
        ),
        second=Text(
            title="TLS policy, October revision",
            body=_md(
                """
                From this revision on, public endpoints accept TLS 1.3 only; 1.2 is switched off
                now that the last partner integration has upgraded.

                Certificates come from Let's Encrypt with 90-day lifetimes and are renewed
                automatically by cert-manager, so the manual DigiCert renewals and their calendar
                reminders are gone.

                HSTS stays at one year. The cipher list follows Mozilla's "modern" profile, which
                is all TLS 1.3 allows anyway, and OCSP stapling stays on.
                """
            ),
            date="2026-10-05",
            topics=("security", "tls", "certificates"),
        ),
        note="Long: minimum TLS version and certificate provider both replaced, later date.",
    ),
    Pair(
        label="supersession",
        kind="version",
        first=Text(
            title="Postgres in production",
            body="Production runs PostgreSQL 14 on the managed database service.",
            date="2026-03-21",
            topics=("postgres", "versions"),
        ),
        second=Text(
            title="Postgres upgraded",
            body=(
                "Upgraded production to PostgreSQL 16 over the weekend of 12 September; nothing"
                " runs 14 any more."
            ),
            date="2026-09-14",
            topics=("postgres", "versions"),
        ),
        note="Major version replaced, later date says the old one is gone.",
    ),
    Pair(
        label="supersession",
        kind="unit",
        first=Text(
            title="Telemetry upload interval",
            body="Devices upload their telemetry batch once every hour over the cellular modem.",
            date="2026-04-01",
            topics=("embedded", "telemetry"),
        ),
        second=Text(
            title="Telemetry interval shortened",
            body=(
                "Telemetry uploads now happen every 15 minutes, since the new data plan charges"
                " per megabyte rather than per connection."
            ),
            date="2026-11-10",
            topics=("embedded", "telemetry"),
        ),
        note="Interval changed (hour to minutes), newer memory gives the reason.",
    ),
    Pair(
        label="supersession",
        kind="limit_raised",
        first=Text(
            title="Upload size limit",
            body=_md(
                """
                Attachments in the mobile app:

                - Photos are resized on the device to 2048 px on the long edge before upload.
                - The upload limit per attachment is 10 MB; larger files are refused with a message
                  that suggests sharing a link instead.
                - Uploads resume after a dropped connection, using chunks of 1 MB.

                The 10 MB limit matches what the API gateway accepts in a single request body.
                """
            ),
            date="2026-03-10",
            topics=("mobile", "uploads"),
        ),
        second=Text(
            title="Attachment limit raised to 50 MB",
            body=_md(
                """
                Since the gateway moved to direct-to-storage signed uploads in June, the request
                body limit no longer applies to attachments. The per-attachment limit in the
                mobile app is raised from 10 MB to 50 MB, so short videos can be attached.

                Photo resizing on the device and resumable 1 MB chunks are unchanged. Both apps
                ship the new limit in release 5.8; older releases keep refusing files above 10 MB
                until people update.
                """
            ),
            date="2026-06-26",
            topics=("mobile", "uploads"),
        ),
        note="Long: the same limit raised with the reason, later date.",
    ),
    # ------------------------------------------------------------------ related
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Orders pipeline source",
            body=(
                "The orders pipeline reads changes from the Postgres primary through a logical"
                " replication slot."
            ),
            date="2026-04-09",
            topics=("data-pipeline", "orders"),
        ),
        second=Text(
            title="Orders pipeline output layout",
            body=(
                "Orders pipeline output is partitioned by order date in the lake, one folder per"
                " day."
            ),
            date="2026-04-09",
            topics=("data-pipeline", "orders"),
        ),
        note="Same pipeline: its input and its output layout, different facts.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Android crash reporting",
            body=(
                "Crash reports from the Android app go to Sentry, tagged with the release version."
            ),
            date="2026-02-12",
            topics=("android", "crashes"),
        ),
        second=Text(
            title="ANR budget",
            body=(
                "The Android app's ANR rate has to stay under 0.47%, or Google Play starts showing"
                " it less."
            ),
            date="2026-05-21",
            topics=("android", "stability"),
        ),
        note="Both about Android stability; different facts that do not clash.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Staging scales to zero",
            body="Staging clusters scale down to zero worker nodes at night and on weekends.",
            date=None,
            topics=("staging", "cost"),
        ),
        second=Text(
            title="Staging uses spot",
            body=(
                "All worker nodes in staging are spot instances, with on-demand only for the"
                " control plane."
            ),
            date=None,
            topics=("staging", "cost"),
        ),
        note="Two cost measures for staging that coexist.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Indexing guidelines",
            body=_md(
                """
                Before adding an index to a production table:

                - Check pg_stat_statements for the queries it is meant to help, and note their
                  current mean time.
                - Prefer a composite index matching the query's WHERE and ORDER BY over several
                  single-column ones.
                - Always build it with CREATE INDEX CONCURRENTLY, from a migration marked as
                  non-transactional.

                After a week, check pg_stat_user_indexes; an index with no scans gets dropped.
                """
            ),
            date="2026-03-19",
            topics=("postgres", "indexes"),
        ),
        second=Text(
            title="Index bloat alert",
            body=(
                "An alert fires when any index's estimated bloat passes 40%; the fix is REINDEX"
                " CONCURRENTLY in a quiet hour."
            ),
            date="2026-06-03",
            topics=("postgres", "indexes", "alerts"),
        ),
        note="Both about indexes: how to add them, and how bloat is watched. No overlap.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Service-to-service auth",
            body=(
                "Internal services authenticate to each other with mTLS certificates issued by"
                " the internal CA."
            ),
            date="2026-01-14",
            topics=("security", "mtls"),
        ),
        second=Text(
            title="Internal CA keys",
            body=(
                "The internal CA's root key is kept offline in an HSM; the intermediate"
                " certificates are rotated every year."
            ),
            date="2026-01-14",
            topics=("security", "pki"),
        ),
        note="Same PKI, different facts (who uses it, how its keys are kept).",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Docs screenshots",
            body="Screenshots in the docs are taken at 1280x800 in the light theme.",
            date="2026-05-12",
            topics=("docs", "screenshots"),
        ),
        second=Text(
            title="Review date on docs pages",
            body="Every docs page shows the date it was last reviewed, in its footer.",
            date="2026-05-12",
            topics=("docs", "maintenance"),
        ),
        note="Two independent docs conventions.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Code freeze",
            body="The code freeze starts on the Wednesday before each monthly release.",
            date=None,
            topics=("release", "process"),
        ),
        second=Text(
            title="Release notes authorship",
            body=(
                "Release notes are drafted by the product manager and reviewed by the tech lead"
                " before publishing."
            ),
            date=None,
            topics=("release", "process"),
        ),
        note="Both about releases; separate responsibilities, no clash.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Dark mode colours",
            body=(
                "Dark mode colours come from the design tokens package; nobody hard-codes hex"
                " values in components."
            ),
            date="2026-06-05",
            topics=("frontend", "design-tokens"),
        ),
        second=Text(
            title="Publishing design tokens",
            body=(
                "The design tokens package is published to the internal npm registry on every"
                " merge to its main branch."
            ),
            date="2026-07-17",
            topics=("design-tokens", "npm"),
        ),
        note="Same package: how it is used and how it is published.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Feature store conventions",
            body=_md(
                """
                Features for the ranking models live in the feature store, not in ad-hoc tables.

                - Every feature has an owner, a description and a freshness expectation.
                - Online features are served from Redis with a TTL equal to twice their refresh
                  interval, so a stalled job shows up as missing values rather than stale ones.
                - Offline features are materialised daily to the lake, and training reads them
                  with point-in-time joins to avoid leakage.

                New features go through a short review in #ml-platform before they are used by a
                production model.
                """
            ),
            date="2026-04-16",
            topics=("ml", "feature-store"),
        ),
        second=Text(
            title="Model promotion",
            body=(
                "A ranking model is promoted in the model registry only after a week-long shadow"
                " run that beats the current model offline and online."
            ),
            date="2026-08-06",
            topics=("ml", "model-registry"),
        ),
        note="Same ML platform, different stages (features versus promotion).",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="RTOS task layout",
            body=(
                "The MCU runs FreeRTOS with four tasks: sensors, radio, storage and a supervisor"
                " that feeds the watchdog."
            ),
            date="2026-03-27",
            topics=("firmware", "freertos"),
        ),
        second=Text(
            title="Radio task priority",
            body=(
                "The radio task has the highest priority so acknowledgements go out within the"
                " LoRa receive window."
            ),
            date="2026-03-27",
            topics=("firmware", "lora"),
        ),
        note="Same firmware; task list and one task's priority.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Timestamps in storage",
            body="Store every timestamp in the database as UTC.",
            date=None,
            topics=("databases", "time"),
        ),
        second=Text(
            title="Timestamps on screen",
            body=(
                "Show timestamps to people in their own local time zone, with the zone"
                " abbreviation next to the time."
            ),
            date=None,
            topics=("frontend", "time"),
        ),
        note="UTC in storage and local time on screen are compatible, not opposite.",
    ),
    Pair(
        label="related",
        kind="before_after",
        first=Text(
            title="Migrations before deploy",
            body=(
                "Run additive database migrations before the new application version is deployed."
            ),
            date="2026-02-25",
            topics=("databases", "deploys"),
        ),
        second=Text(
            title="Dropping columns",
            body=(
                "Drop an old column only after the app version that stops reading it has been"
                " fully rolled out."
            ),
            date="2026-02-25",
            topics=("databases", "deploys"),
        ),
        note="Both are ordering rules of expand/contract; they apply to different steps.",
    ),
    Pair(
        label="related",
        kind="always_never",
        first=Text(
            title="No load tests on production",
            body="Never point a load test at production, not even a small one.",
            date=None,
            topics=("performance", "testing"),
        ),
        second=Text(
            title="Nightly load test",
            body="A load test runs every night at 02:00 against the staging cluster.",
            date=None,
            topics=("performance", "staging"),
        ),
        note="The nightly load test targets staging, so it respects the production rule.",
    ),
    Pair(
        label="related",
        kind="allow_forbid",
        first=Text(
            title="Intern deploy rights: staging",
            body="Interns are allowed to deploy to the staging environment on their own.",
            date="2026-06-29",
            topics=("deploys", "permissions"),
        ),
        second=Text(
            title="Intern deploy rights: production",
            body=(
                "Interns are not allowed to deploy to production without a senior engineer present."
            ),
            date="2026-06-29",
            topics=("deploys", "permissions"),
        ),
        note="Allowed and not allowed, but for different environments.",
    ),
    Pair(
        label="related",
        kind="enable_disable",
        first=Text(
            title="HTTP/2 at the edge",
            body="Enable HTTP/2 on the public load balancer listeners.",
            date="2026-09-22",
            topics=("networking", "http2"),
        ),
        second=Text(
            title="Backend protocol",
            body=(
                "Disable HTTP/2 between the load balancer and the backends, which only speak"
                " HTTP/1.1."
            ),
            date="2026-09-22",
            topics=("networking", "load-balancer"),
        ),
        note="Enable on one hop, disable on another: compatible.",
    ),
    Pair(
        label="related",
        kind="number",
        first=Text(
            title="Gateway upstream timeout",
            body="The API gateway times out calls to upstream services after 30 seconds.",
            date="2026-04-23",
            topics=("api-gateway", "timeouts"),
        ),
        second=Text(
            title="Mobile request timeout",
            body=(
                "The mobile app gives up on a request after 15 seconds and shows a retry button."
            ),
            date="2026-04-23",
            topics=("mobile", "timeouts"),
        ),
        note="Two different timeouts on different layers; not one setting.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Onboarding buddy",
            body=(
                "Every new hire gets an onboarding buddy from a different team for their first"
                " six weeks."
            ),
            date="2026-01-28",
            topics=("onboarding", "team"),
        ),
        second=Text(
            title="First-week checklist",
            body=_md(
                """
                What a new engineer should have done by the end of week one:

                - laptop set up from the bootstrap script, with disk encryption checked by IT;
                - access to the code host, the chat, the wiki and the on-call tool requested;
                - one small change shipped to production with their buddy, end to end;
                - a 30-minute chat with their manager about expectations for the first quarter.

                Nobody is expected to take on-call shifts in their first two months, and nobody is
                expected to know the whole system: asking is part of the job.
                """
            ),
            date="2026-03-02",
            topics=("onboarding",),
        ),
        note="Both onboarding; the buddy rule fits with the checklist.",
    ),
    Pair(
        label="related",
        kind="session_analysis",
        first=Text(
            title="Session Analysis - 2026-09-14",
            body=_md(
                """
                ## Overview

                Worked on the clickstream ingestion job: moved the Spark job from full daily
                reloads to incremental loads keyed on the event time watermark, and added a
                check that fails the run when the row count drops by more than half.

                ## Key Decisions

                - Incremental loads keyed on event-time watermark instead of full reloads
                - Fail the run on a row-count drop above 50%

                ## Patterns & Insights

                - The user verifies each change against yesterday's numbers before moving on

                ## Key Learnings

                - Spark's watermark does not drop late rows in batch mode; that must be done
                  explicitly

                ## Action Items

                - [ ] Backfill the last 30 days with the incremental job

                ## Session Metadata

                - **Workspace**: /home/dana/src/clickstream-etl
                - **Duration**: 52 minutes
                - **Session ID**: 20260914_093012
                """
            ),
            date="2026-09-14",
            topics=("incremental_loads_keyed", "fail_the_run"),
        ),
        second=Text(
            title="Session Analysis - 2026-09-15",
            body=_md(
                """
                ## Overview

                Continued on the clickstream ingestion job. Ran the 30-day backfill with the new
                incremental loader, found two days with duplicated sessions caused by a replayed
                Kafka partition, and added a dedup step on the event id.

                ## Key Decisions

                - Deduplicate on event id right after reading from the landing bucket
                - Keep the backfill script in the repo for the next schema change

                ## Key Learnings

                - Replayed partitions show up as identical event ids with different offsets

                ## User Preferences & Working Style

                - Prefers small commits with the numbers that justify them in the message

                ## Session Metadata

                - **Workspace**: /home/dana/src/clickstream-etl
                - **Duration**: 87 minutes
                - **Session ID**: 20260915_101544
                """
            ),
            date="2026-09-15",
            topics=("deduplicate_on_event", "keep_the_backfill"),
        ),
        note="Consecutive sessions on the same job; they build on each other, nothing clashes.",
    ),
    Pair(
        label="related",
        kind="session_analysis",
        first=Text(
            title="Session Analysis - 2026-10-06",
            body=_md(
                """
                ## Overview

                Investigated slow cold starts of the iOS app. Profiling with Instruments showed
                most of the time in synchronous font registration and an analytics SDK that
                initialised on the main thread.

                ## Key Decisions

                - Register custom fonts lazily on first use
                - Initialise the analytics SDK on a background queue after the first frame

                ## Patterns & Insights

                - Measure on the oldest supported device, not the simulator

                ## Key Learnings

                - App launch time counts until the first frame is drawn, not until data loads

                ## Session Metadata

                - **Workspace**: /Users/kenji/work/shop-ios
                - **Duration**: 64 minutes
                - **Session ID**: 20261006_141002
                """
            ),
            date="2026-10-06",
            topics=("register_custom_fonts", "initialise_the_analytics"),
        ),
        second=Text(
            title="Session Analysis - 2026-10-09",
            body=_md(
                """
                ## Overview

                Follow-up on iOS launch performance. Added a launch-time test in XCTest that
                fails when cold start on the iPhone SE exceeds 1.2 seconds, and wired it into the
                nightly device farm run.

                ## Key Decisions

                - Launch-time regression test with a 1.2 s budget on the oldest device
                - Run it nightly on the device farm, not on every pull request

                ## Key Learnings

                - XCTApplicationLaunchMetric needs at least five iterations for a stable median

                ## Action Items

                - [ ] Post the first week of launch numbers in #mobile

                ## Session Metadata

                - **Workspace**: /Users/kenji/work/shop-ios
                - **Duration**: 41 minutes
                - **Session ID**: 20261009_161530
                """
            ),
            date="2026-10-09",
            topics=("launch-time_regression_test", "run_it_nightly"),
        ),
        note="Same project and theme (launch time), different sessions with compatible steps.",
    ),
    Pair(
        label="related",
        kind="same_topic",
        first=Text(
            title="Phishing reports",
            body=_md(
                """
                If you receive a suspicious email:

                - Do not click links or open attachments, and do not forward it to colleagues to
                  ask what they think.
                - Use the 'Report phishing' button in the mail client; it sends the full headers
                  to the security mailbox and removes the message from your inbox.
                - If you already clicked or typed a password, say so in #security straight away.
                  Nobody gets in trouble for clicking; the damage comes from waiting.

                The security team answers every report within one working day.
                """
            ),
            date="2026-04-06",
            topics=("security", "phishing"),
        ),
        second=Text(
            title="Lost or stolen laptop",
            body=_md(
                """
                What to do when a company laptop is lost or stolen:

                1. Tell #security and IT within the hour, with where and when you last had it.
                2. IT locks and wipes the device remotely from the device management console;
                   disk encryption keeps the data unreadable in the meantime.
                3. Your sessions and tokens are revoked, and you sign in again on a loaner.
                4. For a theft, file a police report and send the reference to IT for the
                   insurer.

                There is no blame for losing a device; hiding the loss is the problem.
                """
            ),
            date="2026-04-06",
            topics=("security", "devices"),
        ),
        note="Two staff security procedures; same area, different events, no clash.",
    ),
    # ------------------------------------------------------------------ unrelated
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Consumer lag alert",
            body=(
                "The Kafka consumer lag alert fires when lag stays above 50,000 messages for ten"
                " minutes."
            ),
            date="2026-05-04",
            topics=("kafka", "alerts"),
        ),
        second=Text(
            title="Heading case in the user guide",
            body="Use sentence case for every heading in the user guide, including page titles.",
            date="2026-05-04",
            topics=("docs", "style"),
        ),
        note="Alerting threshold versus a writing convention.",
    ),
    Pair(
        label="unrelated",
        kind="number",
        first=Text(
            title="Credential rotation",
            body="Rotate the database credentials every 90 days through Vault's database engine.",
            date=None,
            topics=("security", "vault"),
        ),
        second=Text(
            title="App Store screenshots",
            body=(
                "Refresh the App Store screenshots every 90 days so the store listing matches the"
                " current design."
            ),
            date=None,
            topics=("mobile", "app-store"),
        ),
        note="Shared 'every 90 days' but about unrelated things.",
    ),
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Decision: ClickHouse for product analytics",
            body=_md(
                """
                ## Context

                Product analytics queries on Postgres take minutes and compete with the
                application for I/O.

                ## Decision

                Event data for analytics goes to a ClickHouse cluster fed from Kafka. Dashboards
                query ClickHouse only; the application database is not used for analytics.

                ## Consequences

                - A second database to operate, with its own backups.
                - Dashboards become interactive (sub-second on 90 days of events).
                - Analysts learn ClickHouse SQL dialect differences.
                """
            ),
            date="2026-02-19",
            topics=("analytics", "clickhouse"),
        ),
        second=Text(
            title="Decision: React Native for the field app",
            body=_md(
                """
                ## Context

                The field technicians' app must run on both Android tablets and iPhones, and we
                have two mobile developers.

                ## Decision

                The field app is written in React Native with TypeScript, sharing the API client
                with the web dashboard.

                ## Consequences

                - One codebase for both platforms.
                - Bluetooth printer support needs a small native module per platform.
                - Upgrades of React Native itself need care and a budget of a few days each year.
                """
            ),
            date="2026-02-19",
            topics=("mobile", "react-native"),
        ),
        note="Same ADR template and headings, different decisions in different areas.",
    ),
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Serial console settings",
            body="The debug serial console on the gateway boards runs at 115200 baud, 8N1.",
            date=None,
            topics=("embedded", "debugging"),
        ),
        second=Text(
            title="Beta builds",
            body="Beta testers receive new builds through TestFlight every Thursday afternoon.",
            date=None,
            topics=("ios", "beta"),
        ),
        note="Hardware console settings versus beta distribution.",
    ),
    Pair(
        label="unrelated",
        kind="number",
        first=Text(
            title="Payment gateway client timeout",
            body="The HTTP client used for the payment gateway times out after 10 seconds.",
            date="2026-07-21",
            topics=("payments", "http"),
        ),
        second=Text(
            title="VPN idle timeout",
            body="The office VPN disconnects idle sessions after 10 hours.",
            date="2026-07-21",
            topics=("it", "vpn"),
        ),
        note="Both 'timeout after 10', but different systems and units.",
    ),
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="GPU quota",
            body="Each ML project gets a quota of eight A100 GPUs on the shared training cluster.",
            date="2026-03-23",
            topics=("ml", "gpu"),
        ),
        second=Text(
            title="Docs site build",
            body=(
                "The documentation site is built with MkDocs Material and deployed to GitHub Pages."
            ),
            date="2026-03-23",
            topics=("docs", "site"),
        ),
        note="GPU quota versus docs tooling.",
    ),
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Restoring a Redis replica",
            body=_md(
                """
                Steps when a Redis replica falls out of sync:

                1. Remove it from the read pool in the load balancer config.
                2. Run REPLICAOF NO ONE, flush it, then REPLICAOF the primary again.
                3. Watch master_link_status in INFO replication until it says up and the offset
                   catches up.
                4. Put it back in the read pool.

                Do this one replica at a time; the primary can only stream one full sync
                comfortably.
                """
            ),
            date="2026-08-18",
            topics=("redis", "runbook"),
        ),
        second=Text(
            title="Publishing a docs release",
            body=_md(
                """
                Steps to publish the docs for a new product version:

                1. Create the version branch from main and bump the version in mkdocs.yml.
                2. Run the link checker locally and fix anything it reports.
                3. Build with mike so the version selector gets the new entry.
                4. Set the new version as the default alias.

                Do this the morning after the product release, once the release notes are
                final.
                """
            ),
            date="2026-08-18",
            topics=("docs", "runbook"),
        ),
        note="Two numbered runbooks with similar structure about unrelated systems.",
    ),
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Hiring loop",
            body=(
                "Our hiring loop has four interviews: a take-home review, system design, a coding"
                " pairing session and a values chat."
            ),
            date="2026-10-27",
            topics=("hiring", "team"),
        ),
        second=Text(
            title="Model drift alert",
            body=(
                "A drift alert fires when the population stability index of any top-ten feature"
                " exceeds 0.2 for three days."
            ),
            date="2026-10-27",
            topics=("ml", "monitoring"),
        ),
        note="Hiring process versus model monitoring.",
    ),
    Pair(
        label="unrelated",
        kind="session_analysis",
        first=Text(
            title="Session Analysis - 2026-08-03",
            body=_md(
                """
                ## Overview

                Set up alerting for the new ingestion cluster: Prometheus rules for disk usage,
                consumer lag and broker under-replicated partitions, routed to the data on-call
                in PagerDuty.

                ## Key Decisions

                - Alert on under-replicated partitions after 5 minutes, not immediately
                - Route ingestion alerts to the data on-call, not the platform on-call

                ## Patterns & Insights

                - The user wants every alert to link a runbook section

                ## Key Learnings

                - Broker restarts cause a short burst of under-replicated partitions that is
                  harmless

                ## Session Metadata

                - **Workspace**: /home/ops/ingest-cluster
                - **Duration**: 38 minutes
                - **Session ID**: 20260803_083015
                """
            ),
            date="2026-08-03",
            topics=("alert_on_under-replicated", "route_ingestion_alerts"),
        ),
        second=Text(
            title="Session Analysis - 2026-08-05",
            body=_md(
                """
                ## Overview

                Rewrote the contributor guide for the public SDK documentation: a shorter
                quick-start, a section on building the docs locally and a style checklist for
                code samples.

                ## Key Decisions

                - Quick-start fits on one screen and ends with a working request
                - Code samples are tested by the docs build, not copied by hand

                ## User Preferences & Working Style

                - Likes plain words and short paragraphs; dislikes marketing tone

                ## Action Items

                - [ ] Ask two new contributors to follow the guide and note where they get stuck

                ## Session Metadata

                - **Workspace**: /home/ops/sdk-docs
                - **Duration**: 95 minutes
                - **Session ID**: 20260805_140230
                """
            ),
            date="2026-08-05",
            topics=("quick-start_fits_on", "code_samples_are"),
        ),
        note="Two worker session memories, different workspaces and subjects; metadata differs.",
    ),
    Pair(
        label="unrelated",
        kind="session_analysis",
        first=Text(
            title="Session Analysis - 2026-11-02",
            body=_md(
                """
                ## Overview

                Debugged intermittent resets on the soil-moisture sensor nodes. Brown-out on the
                3.3 V rail during LoRa transmit bursts was the cause; the brown-out detector
                threshold was set too high.

                ## Key Decisions

                - Lower the brown-out threshold to 2.7 V
                - Add a 470 µF bulk capacitor next to the radio module on the next board spin

                ## Key Learnings

                - Reset-cause registers must be read and logged at boot before they are cleared

                ## Action Items

                - [ ] Log the reset cause in the telemetry packet

                ## Session Metadata

                - **Workspace**: /home/lena/firmware/soil-node
                - **Duration**: 122 minutes
                - **Session ID**: 20261102_190405
                """
            ),
            date="2026-11-02",
            topics=("lower_the_brown-out", "add_a_470"),
        ),
        second=Text(
            title="Session Analysis - 2026-11-02",
            body=_md(
                """
                ## Overview

                Planned the quarter's roadmap for the billing team: grouped requests from sales
                and support into themes, estimated them roughly in weeks and picked three themes
                for the quarter.

                ## Key Decisions

                - Focus the quarter on invoicing for annual plans, tax handling and dunning
                - Defer usage-based pricing to next quarter

                ## Patterns & Insights

                - The user prefers rough week estimates over story points

                ## Session Metadata

                - **Workspace**: /home/lena/notes/billing-planning
                - **Duration**: 47 minutes
                - **Session ID**: 20261102_093310
                """
            ),
            date="2026-11-02",
            topics=("focus_the_quarter", "defer_usage-based_pricing"),
        ),
        note="Same date and same heading, different sessions about unrelated work.",
    ),
    Pair(
        label="unrelated",
        kind="session_analysis",
        first=Text(
            title="Session Analysis - 2026-06-18",
            body=_md(
                """
                ## Overview

                Reviewed the web app's signup form for accessibility. Added visible labels,
                linked error messages with aria-describedby and fixed the colour contrast of the
                placeholder text.

                ## Key Decisions

                - Visible labels on every field; placeholders are never used as labels
                - Error text is announced by screen readers when it appears

                ## Key Learnings

                - axe reports contrast issues on placeholders only when they contain text

                ## User Preferences & Working Style

                - Tests every change with VoiceOver before committing

                ## Session Metadata

                - **Workspace**: /home/sam/web/signup
                - **Duration**: 58 minutes
                - **Session ID**: 20260618_110520
                """
            ),
            date="2026-06-18",
            topics=("visible_labels_on", "error_text_is"),
        ),
        second=Text(
            title="Session Analysis - 2026-06-20",
            body=_md(
                """
                ## Overview

                Tuned autovacuum for the orders database after table bloat grew to 60% on the
                order_items table. Lowered the scale factor for the hot tables and added a
                dashboard for dead tuples.

                ## Key Decisions

                - autovacuum_vacuum_scale_factor 0.02 on order_items and payments
                - Dashboard panel for dead tuples per table

                ## Key Learnings

                - The default scale factor of 0.2 is far too lazy for tables with 100M rows

                ## Action Items

                - [ ] Revisit the cost limit if vacuum still falls behind

                ## Session Metadata

                - **Workspace**: /home/sam/db/orders
                - **Duration**: 73 minutes
                - **Session ID**: 20260620_150045
                """
            ),
            date="2026-06-20",
            topics=("dashboard_panel_for",),
        ),
        note="Same person's sessions, two days apart, on unrelated work.",
    ),
    Pair(
        label="unrelated",
        kind="session_analysis",
        first=Text(
            title="Session Analysis - 2026-07-27",
            body=_md(
                """
                ## Overview

                Trained a first baseline for the support-ticket classifier: TF-IDF with logistic
                regression on 40k labelled tickets, macro F1 of 0.71 on the validation split.

                ## Key Decisions

                - Keep the TF-IDF baseline as the bar any transformer model must beat
                - Merge the two smallest classes, which had fewer than 200 examples each

                ## Patterns & Insights

                - The user asks for a confusion matrix before any summary number

                ## Action Items

                - [ ] Label 2,000 more tickets for the rare classes

                ## Session Metadata

                - **Workspace**: /home/ana/ml/ticket-router
                - **Duration**: 110 minutes
                - **Session ID**: 20260727_091200
                """
            ),
            date="2026-07-27",
            topics=("keep_the_tf-idf", "merge_the_two"),
        ),
        second=Text(
            title="Session Analysis - 2026-07-29",
            body=_md(
                """
                ## Overview

                Moved the team wiki's incident postmortems into one template and archived the
                ones older than two years. Agreed a blameless wording guide with examples.

                ## Key Decisions

                - One postmortem template with timeline, impact, causes and follow-ups
                - Postmortems older than two years move to the archive space

                ## Key Learnings

                - Half the old follow-up actions had no owner, which is why they never closed

                ## User Preferences & Working Style

                - Wants examples of good and bad wording side by side

                ## Session Metadata

                - **Workspace**: /home/ana/notes/wiki-cleanup
                - **Duration**: 35 minutes
                - **Session ID**: 20260729_160010
                """
            ),
            date="2026-07-29",
            topics=("one_postmortem_template", "postmortems_older_than"),
        ),
        note="Worker memories from different sessions and subjects; durations and ids differ.",
    ),
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Network segmentation",
            body=(
                "Office Wi-Fi and the production network are separate VLANs; only the bastion"
                " bridges them."
            ),
            date="2026-09-29",
            topics=("networking", "security"),
        ),
        second=Text(
            title="Pairing days",
            body="Tuesdays are pairing days: nobody books meetings between 10:00 and 16:00.",
            date="2026-09-29",
            topics=("team", "pairing"),
        ),
        note="Network layout versus a team habit.",
    ),
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Embedding model for search",
            body=_md(
                """
                The help-centre search uses a small sentence-embedding model served on CPU.

                - Articles are embedded when they are published and again when edited.
                - Queries are embedded on the fly; p95 latency for an embedding is about 20 ms.
                - Results mix the embedding score with BM25, weighted 0.6 to 0.4, because pure
                  vector search missed exact product names.

                We re-evaluate the mix each quarter against the labelled query set.
                """
            ),
            date="2026-10-12",
            topics=("ml", "search"),
        ),
        second=Text(
            title="Buttons in the design system",
            body=_md(
                """
                The design system has three button variants: primary, secondary and quiet.

                - A screen has at most one primary button.
                - Destructive actions use the secondary variant with the danger colour and always
                  ask for confirmation.
                - Icon-only buttons need an accessible label and a tooltip.

                Button text is a verb, in sentence case, two words at most where possible. While
                an action runs, a spinner replaces the text but the button keeps its width, so the
                layout does not jump.
                """
            ),
            date="2026-10-12",
            topics=("frontend", "design-system"),
        ),
        note="Long memories on search ranking versus button guidelines.",
    ),
    Pair(
        label="unrelated",
        kind="other",
        first=Text(
            title="Firmware version string",
            body="The firmware version string is written into the last 32 bytes of the image.",
            date=None,
            topics=("firmware", "versioning"),
        ),
        second=Text(
            title="Retention of access reviews",
            body="Quarterly access review records are kept for seven years for the auditors.",
            date=None,
            topics=("compliance", "security"),
        ),
        note="Firmware layout versus compliance record keeping.",
    ),
)


def pairs() -> tuple[Pair, ...]:
    """The held-out pairs. Measure on them; never tune on them."""
    return _PAIRS


# ---------------------------------------------------------------------- self-test

_CONFLICT_KINDS = frozenset(
    {
        "negation",
        "before_after",
        "allow_forbid",
        "always_never",
        "enable_disable",
        "safe_unsafe",
        "may_maynot",
        "antonym",
        "near_identical_opposite",
    }
)
# The brief's coverage for this set; the tuning set needs about 0.6 of each count.
_MINIMUMS = {
    "duplicate": 20,
    "conflict": 12,
    "supersession": 12,
    "related": 12,
    "unrelated": 10,
    "unrelated_sessions": 4,
    "value_conflicts": 6,
    "long_duplicates": 3,
}
_SHORT = range(8, 26)
_LONG = range(60, 201)


def _words(text: Text) -> int:
    return sum(1 for token in text.body.split() if any(ch.isalnum() for ch in token))


def _sentences(text: Text) -> set[str]:
    """Sentences and list items of the body worth comparing across files (four words or more)."""
    pieces = re.split(r"(?<=[.!?;:])\s+|\n+", text.body)
    found = set()
    for piece in pieces:
        words = re.findall(r"[\w']+", piece.lower())
        if len(words) >= 4 and not piece.lstrip().startswith(("#", "- **")):
            found.add(" ".join(words))
    return found


def check_set(name: str, these: tuple[Pair, ...], others: tuple[Pair, ...], scale: float) -> None:
    """Assert one labelled set is well formed, shares nothing with the other, and covers enough.

    Both sets use it (the tuning set with scale 0.6); it reads only attributes, so each file keeps
    its own `Text` and `Pair` classes.
    """
    texts = [text for pair in these for text in (pair.first, pair.second)]
    keys = [(text.title, text.body) for text in texts]
    assert len(set(keys)) == len(keys), f"{name}: a text appears twice"
    other_keys = {(t.title, t.body) for p in others for t in (p.first, p.second)}
    assert not set(keys) & other_keys, f"{name}: a text is shared with the other set"
    other_sentences = set().union(*(_sentences(t) for p in others for t in (p.first, p.second)))
    shared = set().union(*(_sentences(t) for t in texts)) & other_sentences
    assert not shared, f"{name}: sentences shared with the other set: {sorted(shared)[:3]}"

    for pair in these:
        assert pair.label in LABELS, pair
        assert pair.kind in KINDS, pair
        assert pair.note and "\n" not in pair.note, pair
        for text in (pair.first, pair.second):
            assert _words(text) in _SHORT or _words(text) in _LONG, (_words(text), text.title)
            assert text.topics, text.title
        if pair.label == "supersession":
            assert pair.first.date and pair.second.date, pair.note
            assert pair.first.date != pair.second.date, pair.note
        if pair.label == "conflict":
            # Nothing orders a conflict: no dates, one missing, or the same day.
            assert None in (pair.first.date, pair.second.date) or (
                pair.first.date == pair.second.date
            ), pair.note

    labels = Counter(pair.label for pair in these)
    counts = {
        **{label: labels[label] for label in LABELS},
        "unrelated_sessions": sum(
            1 for p in these if p.label == "unrelated" and p.kind == "session_analysis"
        ),
        "value_conflicts": sum(
            1 for p in these if p.label == "conflict" and p.kind in {"number", "version", "unit"}
        ),
        "long_duplicates": sum(
            1 for p in these if p.label == "duplicate" and _words(p.first) in _LONG
        ),
    }
    for key, minimum in _MINIMUMS.items():
        needed = math.ceil(round(minimum * scale, 6))
        assert counts[key] >= needed, f"{name}: {key} has {counts[key]}, needs {needed}"
    covered = {p.kind for p in these if p.label == "conflict"}
    assert covered >= _CONFLICT_KINDS, (
        f"{name}: conflict kinds missing: {_CONFLICT_KINDS - covered}"
    )
    long_texts = sum(1 for text in texts if _words(text) in _LONG)
    assert long_texts * 4 >= len(texts), f"{name}: only {long_texts} of {len(texts)} texts are long"


def test_meaning_heldout_is_well_formed() -> None:
    from . import meaning_tuning_extra

    check_set("heldout", pairs(), meaning_tuning_extra.pairs(), scale=1.0)
