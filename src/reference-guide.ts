// What the API reference (/docs, over /v1/openapi.json) explains beyond single operations: the state
// machines of payouts, Beneficiaries and collection links, and how the sandbox and the production simulator
// behave, with every magic value and timing. The simulator tables are generated from the simulator's own
// scenario list, so they cannot drift from what it does.
import type { Config } from "./config.js";
import { SIMULATOR_ENROLLMENT, SIMULATOR_SCENARIOS, SIMULATOR_TIMINGS } from "./rails/production-simulator.js";

export interface ReferenceTag {
  readonly name: string;
  readonly description: string;
}

export const PAYOUT_STATE_DIAGRAM = `\`\`\`
                   approve                     disbursed                  return window closes
 pending_approval ─────────▶ approved ──────────────────▶ disbursed ──────────────────────▶ settled
   │        │                 │    │                         │                                 │
   │ reject │ cancel          │    │ failed                  │ returned                        │ returned
   ▼        │ (production)    │    ▼                         ▼                                 │ (late)
 rejected   │                 │  failed                   returned ◀───────────────────────────┘
            ▼                 │ cancel before dispatch (Business),
         canceled ◀───────────┘ or canceled by the rail (production)

 approved | disbursed ── compliance hold ──▶ compliance_hold ── cleared ──▶ back to the state it was held from
 compliance_hold (held from approved)  ── failed | canceled ──▶ failed | canceled
 compliance_hold (held from disbursed) ── returned ──▶ returned
\`\`\``;

const PAYOUT_STATES = [
  "**States.** `pending_approval`: created, waiting for a Decision (or decided at once by an approval-policy rule). `approved`: the disbursement is dispatched to the rail after the approval commits; it stays `approved` while the rail acknowledges it. `disbursed`: the rail sent the money. `settled` (production): the return window (PAYOUT_RETURN_WINDOW_HOURS, 72 h by default) closed without a return. `returned` (production): the receiving bank sent the money back, inside the window or late after settlement. `rejected`, `failed`, `canceled`, `returned` are final. `compliance_hold`: the rail holds the payout for review; `held_from_status` says where it returns when cleared.",
  PAYOUT_STATE_DIAGRAM,
  "**Events.** `payout.rejected`, `payout.disbursement_submitted` (the rail took it; `rail_ref` recorded), `payout.acknowledged`, `payout.estimated_arrival_at` (when the estimate changes), `payout.disbursed`, `payout.delivered` (production; the money arrived, at any point after dispatch, without changing the state; a later one with another `delivered_at` is a correction), `payout.settled`, `payout.returned`, `payout.failed`, `payout.canceled`. Approval itself records no event (the Decision is the record), and neither do compliance holds (the state is visible on reads). Sandbox payouts never reach `settled`, `returned` or `canceled`, and never fire `payout.delivered`.",
].join("\n\n");

export const BENEFICIARY_STATUS_DIAGRAM = `\`\`\`
 created ──▶ pending_details ── identity complete ──▶ pending_kyc ── acknowledge ──▶ action_required ──▶ ready
             (a required identity                     (compliance      (no payout-usable destination,
              field is missing)                        pending)          or the rail refused enrollment)

 any status ── compliance suspended ──▶ suspended
 compliant  ── a trigger identity field changes ──▶ reacknowledgment_required ── acknowledge ──▶ back down the line above
\`\`\``;

const BENEFICIARY_STATES = [
  "**Beneficiary `status`** is derived when read, never stored: the first of these that holds is the status. 1 `suspended`: compliance is suspended. 2 `reacknowledgment_required`: a field the compliance check was about (name, date of birth, country, registration number, tax id) changed after acknowledgment; payouts are blocked until `POST /v1/beneficiaries/{id}/acknowledge`. 3 `pending_details`: an identity field required for its type (IDENTITY_REQUIRED_PERSON, IDENTITY_REQUIRED_BUSINESS) is missing; supply it with `PUT /v1/beneficiaries/{id}` or a `full_onboarding` collection link. 4 `pending_kyc`: identity complete, compliance acknowledgment not given yet. 5 `action_required`: compliant, but no payout-usable destination, or the rail refused enrollment (`enrollment_status` `rejected`). 6 `ready`: a payout can be created.",
  BENEFICIARY_STATUS_DIAGRAM,
  "`compliance_status` is `pending` until acknowledged, then `compliant`; `suspended` blocks everything. `collection_status` moves from `not_invited` to `invited` when a `full_onboarding` link is minted, and to `details_submitted` when the Beneficiary submits that form (event `beneficiary.details_submitted`). `enrollment_status` is null until the Beneficiary is enrolled with the payout rail, then `pending` during an attempt, `verified`, or `rejected` (event `beneficiary.enrollment_rejected`) until re-enrollment succeeds.",
].join("\n\n");

export const COLLECTION_REQUEST_DIAGRAM = `\`\`\`
            ┌── the Beneficiary submits the form ───────────▶ consumed
 minted ────┼── DELETE .../collection-requests/{requestId} ──▶ cancelled
 (live,     ├── a new link is minted for the Beneficiary ────▶ superseded
  7 days)   ├── the Beneficiary is archived ─────────────────▶ closed (archived)
            └── 7 days pass ─────────────────────────────────▶ expired
\`\`\``;

const COLLECTION_STATES = [
  "**Collection links** (collection requests) let a Beneficiary enter their own details on a hosted page, `{PUBLIC_BASE_URL}/collect/{token}`. A link is live from minting for 7 days and works once; it is listed in the Beneficiary's `pending_requests` only while live. Every other state is final, and the page then answers that the link is closed.",
  COLLECTION_REQUEST_DIAGRAM,
  "A Beneficiary has at most one live link: minting a new one supersedes the old. Un-archiving does not reopen a link closed by archiving.",
].join("\n\n");

function duration(ms: number): string {
  if (ms === 0) return "at once";
  const parts: string[] = [];
  const units: Array<[number, string]> = [
    [86_400_000, "d"],
    [3_600_000, "h"],
    [60_000, "min"],
    [1000, "s"],
  ];
  let rest = ms;
  for (const [size, unit] of units) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    }
  }
  return parts.join(" ");
}

function simulatorReference(config: Config): string {
  const scenarios = SIMULATOR_SCENARIOS.map((scenario) => {
    const amount = scenario.amountMinor === null ? "any other amount" : `\`${scenario.amountMinor}\``;
    const refusal = scenario.refusal === undefined ? "" : ` Reason: "${scenario.refusal}"`;
    return `- ${amount} (${scenario.name}): ${scenario.description}.${refusal}`;
  }).join("\n");
  const accounts = Object.entries(SIMULATOR_ENROLLMENT.accountRefusals)
    .map(([last4, reason]) => `a destination whose last four characters are \`${last4}\` is refused naming it ("${reason}")`)
    .join("; ");
  return [
    "**Sandbox** (keys `pok_sandbox_…`): no money moves. Every approved payout is acknowledged and `disbursed` at once by the worker (events `payout.disbursement_submitted`, `payout.acknowledged`, `payout.disbursed`) and stays `disbursed`; enrollment always verifies. E-mail to anyone but the Business's own verified people is captured in the sandbox mailbox (`GET /v1/sandbox/emails`).",
    `**Production simulator** (keys \`pok_production_…\` while PRODUCTION_RAIL is \`simulator\`, the only rail so far): a simulator that moves no money and calls nobody, so every transition can be tried before going live. The exact \`amount_minor\` picks the scenario (\`100001\` is 1,000.01 in a two-decimal currency, 100,001 in JPY); delays count from the submission to the rail, right after approval. The default estimated arrival is ${duration(SIMULATOR_TIMINGS.estimatedArrivalOffset)} after submission. Settlement comes when the return window closes (PAYOUT_RETURN_WINDOW_HOURS, ${config.payouts.returnWindowHours} h here); the late return of \`100005\` comes after the larger of ${duration(SIMULATOR_TIMINGS.lateReturn)} and the window plus one day.`,
    scenarios,
    `**Simulator enrollment:** a Beneficiary whose e-mail has \`${SIMULATOR_ENROLLMENT.personRefusalEmailTag}\` in its local part (any case, e.g. \`ana${SIMULATOR_ENROLLMENT.personRefusalEmailTag}@example.com\`) is refused ("The payee's identity could not be verified against the name and country given."), whatever the destination; ${accounts}; anything else is \`verified\`.`,
    '**Operator control:** with SIMULATOR_CONTROL_TOKEN set, `POST /operator/simulator/payouts/{payoutId}/outcomes` (bearer the token, not an API key) pushes any outcome to a production payout, e.g. `{"type":"compliance_hold_cleared"}` for a payout held by `100007`.',
  ].join("\n\n");
}

/** The document's tags, in the order the reference shows them, each explaining its part of the API. */
export function referenceTags(config: Config): ReferenceTag[] {
  return [
    {
      name: "Registration",
      description:
        "Self-registration of a Business in two steps: `POST /v1/registration` e-mails a verification token; `POST /v1/registration/verification` with it creates the Business and answers with its first keys, one per environment (sandbox and production).",
    },
    {
      name: "Sign-in and sessions",
      description:
        "A person's dashboard session: sign-in and sign-out, the second factor, confirmations (step-up), password changes and resets. A session request names its environment in `X-Environment` and sends `X-CSRF-Token` on every write.",
    },
    {
      name: "Team",
      description:
        "The people of the Business: members and their roles, invitations, the security settings and the audit log. Roles: `business_admin`, `business_approver`, `business_read_only` (see each operation's `x-roles`).",
    },
    {
      name: "Business",
      description:
        "The caller's Business profile: display name, legal identity, contact and home time zone. One profile for the whole Business (both environments); admins change it.",
    },
    { name: "API keys", description: "Keys of the caller's Business and environment. The secret is shown once, at creation." },
    { name: "Beneficiaries", description: `Payees of the Business: people and companies.\n\n${BENEFICIARY_STATES}` },
    {
      name: "Destinations",
      description:
        "Bank accounts and cards of a Beneficiary, always masked to their last four characters; the full number is never returned. Under the destination policy's `require_approval`, new and changed bank details wait for a second person's approval (`approval_status`), and `cooling_off_hours` delay the first payout (`usable_from`).",
    },
    {
      name: "Destination policy",
      description:
        "Controls on where money goes, per Business and environment: approval of new and changed bank details by a second person, a cooling-off before a destination may be paid, the payee name check and sanctions screening. A control: admins change it, and relaxing it is refused to API keys and e-mailed to every admin.",
    },
    { name: "Collection links", description: COLLECTION_STATES },
    {
      name: "Payouts",
      description: `Payouts, their Decisions (approve or reject) and the approval policy.\n\n${PAYOUT_STATES}\n\n${simulatorReference(config)}`,
    },
    {
      name: "Bank rails",
      description:
        "SEPA credit transfers (pain.001) and US ACH credits (NACHA) by bank file, per Business and production only: the rail configurations, and the files built at each cut-off with what the bank answered. A Business with no bank rail pays production payouts through the production simulator.",
    },
    {
      name: "Funding accounts",
      description:
        "Where payouts take their money from, one per source and currency (a bank rail's debtor account, the production simulator, sandbox), on a double-entry ledger: approval holds the amount (`pending_minor`), `disbursed` posts it, `failed`/`canceled`/`rejected` void it, `returned` (also after `settled`) credits it back. `available_minor` = `posted_minor` - `pending_minor`. With `enforcement` `track_only` (the default) every posting is kept and no payout ever waits; with `enforce` an approval not covered waits (`funding_status` `awaiting_funds`, event `payout.awaiting_funds`, nothing sent) until funds arrive, in approval order (`payout.funds_reserved`), or fails after `awaiting_funds_expiry_hours` in production with a reason starting `insufficient_funds`. Every transfer is immutable, names its cause, and carries the balances just after it.",
    },
    {
      name: "Top-ups",
      description:
        "Money a Business moved into a funding account's bank account, recorded by an admin and credited to the account (a ledger transfer) only when a different person approves it: maker-checker by person, always on. Events `top_up.approved` and `top_up.rejected`.",
    },
    {
      name: "Payout limits",
      description:
        "Per environment and currency: `per_payout_max_minor`, checked at creation (422 `PAYOUT_LIMIT_EXCEEDED`), and `daily_max_minor`, the most one day's approvals may total (days in the Business's time zone, UTC when unset), checked at approval by a person or the approval policy (409 `DAILY_LIMIT_EXCEEDED`; the payout stays pending). A payout canceled or failed after its approval gives its amount back to its day; a returned one does not. Raising or removing a limit weakens a control (see Control changes).",
    },
    {
      name: "Control changes",
      description:
        "Four eyes on weakening a control. While maker-checker is on (the approval policy), raising or removing a payout limit, turning maker-checker off, loosening the approval rules and switching a funding account's enforcement off (or raising its overdraft) are not applied: the request answers 202 with a pending control change, which a second admin approves (applied then, as proposed, unless the control changed since: `CONTROL_CHANGE_STALE`) or any admin discards. Proposals and approvals are refused to API keys, audited and e-mailed to every admin. Tightening a control applies at once.",
    },
    {
      name: "Reconciliation",
      description:
        "Bank statements (camt.053 `.001.02`/`.001.08`, camt.052, BAI2), uploaded or read from a bank rail's inbound folder, each of a funding account by its account. Every booked line is matched, in order, by `end_to_end_id` (one payout), `batch` (a payment block's PmtInfId: the block less its rejected transfers), `return` (the original EndToEndId or ACH trace: the payout is returned, what did not come back posts to fees), `top_up` (its reference) and `amount_date` (the exact amount, one payout sent within RECONCILIATION_WINDOW_BUSINESS_DAYS): a matched debit disburses the payout at the booking date when not yet and marks it `reconciled` (`payout.reconciled`). More than one possible answer is `needs_review` with its candidates (`statement_line.needs_review`), never a guess. A credit matching nothing funds the account (`funding_account.credited`); a debit matching nothing goes to suspense, lowering `available_minor`. Each statement's closing booked balance is proved against the ledger; a difference or missing statements raise `funding_account.balance_mismatch`. A line is recorded once (the bank's reference, else a fingerprint of its facts): statements sent again, overlapping intraday and end-of-day reports and out-of-order files add nothing. Pending entries move no money.",
    },
    {
      name: "Sanctions screening",
      description:
        "With the destination policy's `screening` on and lists loaded by the operator (US OFAC SDN, EU consolidated), every Beneficiary is screened at creation, when its name or country changes, and again whenever a list changes. A name at or above SCREENING_THRESHOLD (default 0.9; normalised, transliterated, word order ignored, Jaro-Winkler per word) is a hit: `screening_status` `potential_match`, new payouts refused (422 `SANCTIONS_REVIEW_REQUIRED`), approved ones not yet sent held, until an admin other than the person whose change was screened clears (false positive) or confirms it. Events `beneficiary.screening_hit` and `beneficiary.screening_cleared`.",
    },
    { name: "Webhooks", description: "The webhook endpoint of the environment, and the delivery log." },
    {
      name: "Events",
      description:
        "Every event recorded in the environment, in the webhook envelope shape, kept whether or not a webhook was sent (ours, beyond the specification). List mode pages newest first; feed mode (`after`) returns events oldest first after a cursor and can wait up to 30 s for new ones (long polling): a consumer that keeps the last `next_cursor` and asks again with it and `wait` receives every event exactly once, in an order that never skips an event committed late by a slow transaction, and continues after a restart of either side from the cursor it kept. Start with `after=now` (events from now on) or `after=start` (everything kept).",
    },
    {
      name: "Webhook events",
      description:
        "What the service POSTs to the webhook endpoint, per event type. Deliveries may repeat and arrive out of order: deduplicate on `id`, and order events of one payout, Beneficiary or top-up by (`occurred_at`, `sequence`). New fields may be added to any event without notice; ignore the ones you do not know.",
    },
    {
      name: "Sandbox mailbox",
      description: "E-mail the service would have sent in sandbox, captured for the Business to read instead of delivered.",
    },
    {
      name: "Sanctions lists (operator)",
      description:
        "The installation operator loads the sanctions lists (also SANCTIONS_LISTS at start), with OPERATOR_TOKEN; present only when it is set.",
    },
    {
      name: "Production simulator (operator)",
      description: "The operator's control of the production simulator rail; present only when SIMULATOR_CONTROL_TOKEN is set.",
    },
  ];
}
