// Shared set-up for payout tests: a payable Beneficiary (compliant, one validated account), payout
// creation and decisions through the API, event reads, and a scripted rail for production tests.
import { and, asc, eq, sql } from "drizzle-orm";
import { PAYOUT_RAIL_OUTCOME_JOB } from "../../src/modules/payouts/index.js";
import type { Db } from "../../src/platform/db/client.js";
import { events } from "../../src/platform/events/events.schema.js";
import type { AppInstance } from "../../src/platform/http/types.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import type {
  PayoutRail,
  RailOutcome,
  RailPayoutRequest,
  RailRegistry,
  RailSubmitResult,
  ScheduledRailOutcome,
} from "../../src/rails/rail.js";
import { serializeRailOutcome } from "../../src/rails/rail.js";
import { createRailRegistry } from "../../src/rails/registry.js";
import { createSandboxRail } from "../../src/rails/sandbox-rail.js";
import { bearer, createBeneficiary, GERMAN_IBAN_ACCOUNT, registerBankAccount } from "../helpers/factories.js";

export const PERSON_IDENTITY = { first_name: "Jane", last_name: "Doe", country_of_residence: "DE" } as const;

/** A compliant Beneficiary with one validated EUR account (its only, hence resolved, destination). */
export async function payableBeneficiary(
  app: AppInstance,
  key: string,
  account: Readonly<Record<string, unknown>> = GERMAN_IBAN_ACCOUNT,
): Promise<{ beneficiaryId: string; destinationId: string; last4: string }> {
  const beneficiary = await createBeneficiary(app, key, PERSON_IDENTITY);
  const destination = await registerBankAccount(app, key, beneficiary.id, account);
  const ack = await app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(key) });
  if (ack.statusCode !== 200) throw new Error(`acknowledge failed: ${ack.statusCode} ${ack.body}`);
  return { beneficiaryId: beneficiary.id, destinationId: destination.id, last4: String(destination.last4) };
}

let keys = 0;
export function newKey(label = "key"): string {
  keys += 1;
  return `${label}-${process.pid}-${keys}-${Math.random().toString(36).slice(2, 10)}`;
}

export function postPayout(app: AppInstance, key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return app.inject({ method: "POST", url: "/v1/payouts", headers: { ...bearer(key), ...headers }, payload: body });
}

export async function createPayout(
  app: AppInstance,
  key: string,
  body: Record<string, unknown>,
): Promise<{ payout_id: string; status: string } & Record<string, unknown>> {
  const response = await postPayout(app, key, { amount_minor: 1234, currency: "EUR", idempotency_key: newKey(), ...body });
  if (response.statusCode !== 201) throw new Error(`payout creation failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

export function decide(app: AppInstance, key: string, payoutId: string, path: "approve" | "reject", body?: unknown) {
  return app.inject({
    method: "POST",
    url: `/v1/payouts/${payoutId}/${path}`,
    headers: bearer(key),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}

export async function getPayout(app: AppInstance, key: string, payoutId: string): Promise<Record<string, unknown>> {
  const response = await app.inject({ method: "GET", url: `/v1/payouts/${payoutId}`, headers: bearer(key) });
  if (response.statusCode !== 200) throw new Error(`payout read failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

export interface StoredEvent {
  type: string;
  data: Record<string, unknown>;
  occurredAt: Date;
  sequence: number;
}

/** The events recorded for one payout, in (occurred_at, sequence) order... or in sequence order. */
export async function payoutEvents(db: Db, payoutId: string): Promise<StoredEvent[]> {
  const rows = await db
    .select({ type: events.type, data: events.data, occurredAt: events.occurredAt, sequence: events.sequence })
    .from(events)
    .where(eq(events.subjectId, payoutId))
    .orderBy(asc(events.sequence));
  return rows.map((row) => ({ ...row, data: row.data as Record<string, unknown> }));
}

/** Enqueues a rail outcome for a payout as the simulator's control endpoint would. */
export async function enqueueOutcome(db: Db, payoutId: string, outcome: RailOutcome, runAt: Date): Promise<void> {
  await db.insert(jobs).values({
    id: crypto.randomUUID(),
    type: PAYOUT_RAIL_OUTCOME_JOB.type,
    payload: { payoutId, outcome: serializeRailOutcome(outcome) },
    status: "pending",
    runAt,
    maxAttempts: 5,
    createdAt: runAt,
    updatedAt: runAt,
  });
}

export async function jobCounts(db: Db, type: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: jobs.status, count: sql<number>`count(*)::int` })
    .from(jobs)
    .where(and(eq(jobs.type, type)))
    .groupBy(jobs.status);
  return Object.fromEntries(rows.map((row) => [row.status, row.count]));
}

/**
 * A rail for tests: records every submission, answers from a script (by default: accepted, no scheduled
 * outcomes, so the test drives outcomes itself), and repeats its answer for a repeated idempotency key.
 */
export interface ScriptedRail extends PayoutRail {
  readonly submissions: RailPayoutRequest[];
  script: (request: RailPayoutRequest) => RailSubmitResult | Promise<RailSubmitResult>;
}

export function createScriptedRail(scheduled: readonly ScheduledRailOutcome[] = [], name = "scripted_test_rail"): ScriptedRail {
  const rail: ScriptedRail = {
    name,
    submissions: [],
    script: (request) => ({ accepted: true, railRef: `ref_${request.idempotencyKey}`, scheduledOutcomes: scheduled }),
    async submit(request) {
      rail.submissions.push(request);
      return rail.script(request);
    },
    async enroll() {
      return { outcome: "verified" };
    },
  };
  return rail;
}

/** Sandbox rail for sandbox, the given rail for production. */
export function railsWithProduction(production: PayoutRail): RailRegistry {
  return createRailRegistry({ sandbox: createSandboxRail(), production });
}
