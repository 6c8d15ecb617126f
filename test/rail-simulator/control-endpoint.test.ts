// The production simulator's operator control endpoint: absent unless SIMULATOR_CONTROL_TOKEN is set, guarded
// by that token (never an API key), validating the outcome, and queueing a rail-outcome job for the payout.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYOUT_RAIL_OUTCOME_JOB } from "../../src/modules/payouts/index.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import { bearer, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { createPayout, payableBeneficiary } from "../payouts/payout-fixtures.js";

const TOKEN = "op-token-0123456789abcdef0123456789abcdef";
const url = (payoutId: string) => `/operator/simulator/payouts/${payoutId}/outcomes`;

describe("simulator control endpoint: off unless configured", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it("answers 404 exactly like an unknown path, even with a token", async () => {
    const id = randomUUID();
    const probe = await t.app.inject({
      method: "POST",
      url: url(id),
      headers: bearer(TOKEN),
      payload: { type: "acknowledged" },
    });
    const unknown = await t.app.inject({
      method: "POST",
      url: `/operator/nothing-here/${id}/outcomes`,
      headers: bearer(TOKEN),
      payload: { type: "acknowledged" },
    });
    const a = expectErrorEnvelope(probe, { status: 404, code: "not_found", actor: null });
    const b = expectErrorEnvelope(unknown, { status: 404, code: "not_found", actor: null });
    expect(a.message.replace(url(id), "<path>")).toBe(b.message.replace(`/operator/nothing-here/${id}/outcomes`, "<path>"));
    const rows = await t.runtime.deps.database.db.select().from(jobs).where(eq(jobs.type, PAYOUT_RAIL_OUTCOME_JOB.type));
    expect(rows).toEqual([]);
  });

  it("is not in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/v1/openapi.json" })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).some((p) => p.includes("simulator"))).toBe(false);
  });
});

describe("simulator control endpoint: configured", () => {
  let t: TestApp;
  let production: string;
  let sandbox: string;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SIMULATOR_CONTROL_TOKEN: TOKEN } });
    const business = await registerBusiness(t.app, "Operator tests");
    const payoutOf = async (key: string) => {
      const { beneficiaryId } = await payableBeneficiary(t.app, key);
      return (await createPayout(t.app, key, { beneficiary_id: beneficiaryId })).payout_id;
    };
    production = await payoutOf(business.keys.production);
    sandbox = await payoutOf(business.keys.sandbox);
  });
  afterAll(async () => t?.close());

  const outcomeJobs = async () =>
    t.runtime.deps.database.db.select().from(jobs).where(eq(jobs.type, PAYOUT_RAIL_OUTCOME_JOB.type));

  it("refuses a missing, malformed or wrong token with 401 and queues nothing", async () => {
    const before = (await outcomeJobs()).length;
    for (const headers of [{}, { authorization: TOKEN }, bearer(`${TOKEN}x`), bearer(TOKEN.slice(0, -1)), bearer("short")]) {
      const response = await t.app.inject({ method: "POST", url: url(randomUUID()), headers, payload: { type: "disbursed" } });
      expectErrorEnvelope(response, { status: 401, code: "unauthorized", actor: null });
    }
    expect((await outcomeJobs()).length).toBe(before);
  });

  it("refuses an API key, even a production admin key", async () => {
    const business = await registerBusiness(t.app, "Not an operator");
    const response = await t.app.inject({
      method: "POST",
      url: url(randomUUID()),
      headers: bearer(business.keys.production),
      payload: { type: "disbursed" },
    });
    expectErrorEnvelope(response, { status: 401, code: "unauthorized", actor: null });
  });

  it("checks the token before the body: a wrong token with a bad body is 401, not 400", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: url("not-a-uuid"),
      headers: bearer("wrong"),
      payload: { type: 1 },
    });
    expectErrorEnvelope(response, { status: 401, code: "unauthorized", actor: null });
  });

  it("with the right token, queues a rail-outcome job carrying the payout id and the outcome", async () => {
    const payoutId = production;
    const response = await t.app.inject({
      method: "POST",
      url: url(payoutId),
      headers: bearer(TOKEN),
      payload: { type: "delivered", delivered_at: "2026-05-27T10:30:00+02:00" },
    });
    expect(response.statusCode, response.body).toBe(202);
    const body = response.json() as { job_id: string; payout_id: string; outcome: unknown };
    expect(body.payout_id).toBe(payoutId);
    expect(body.outcome).toEqual({ type: "delivered", delivered_at: "2026-05-27T08:30:00.000Z" });
    const [row] = await t.runtime.deps.database.db.select().from(jobs).where(eq(jobs.id, body.job_id));
    expect(row?.type).toBe(PAYOUT_RAIL_OUTCOME_JOB.type);
    expect(row?.status).toBe("pending");
    expect(row?.runAt.toISOString()).toBe(t.clock.now().toISOString());
    expect(row?.payload).toEqual({ v: 1, payoutId, outcome: { type: "delivered", deliveredAt: "2026-05-27T08:30:00.000Z" } });
  });

  it("accepts every outcome type with the fields it needs", async () => {
    const bodies = [
      { type: "acknowledged" },
      { type: "estimated_arrival", estimated_arrival_at: "2026-06-01T00:00:00Z" },
      { type: "disbursed" },
      { type: "delivered", delivered_at: "2026-05-27T12:00:00Z" },
      { type: "returned", reason: "Account closed." },
      { type: "failed", reason: "Bank offline." },
      { type: "canceled", reason: "Withdrawn." },
      { type: "compliance_hold", reason: "Screening." },
      { type: "compliance_hold_cleared" },
    ];
    const jobIds: string[] = [];
    for (const payload of bodies) {
      const response = await t.app.inject({ method: "POST", url: url(production), headers: bearer(TOKEN), payload });
      expect(response.statusCode, `${payload.type}: ${response.body}`).toBe(202);
      jobIds.push((response.json() as { job_id: string }).job_id);
    }
    const queued = (await outcomeJobs()).filter((job) => jobIds.includes(job.id));
    expect(queued.map((job) => (job.payload as { payoutId: string }).payoutId)).toEqual(bodies.map(() => production));
    expect(queued.map((job) => (job.payload as { outcome: { type: string } }).outcome.type).sort()).toEqual(
      bodies.map((b) => b.type).sort(),
    );
  });

  it("validates the body: unknown type, missing and misplaced fields, bad dates, unknown fields", async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ type: "settled" }, "type", "invalid_enum"],
      [{}, "type", "required"],
      [{ type: "returned" }, "reason", "required"],
      [{ type: "acknowledged", reason: "why" }, "reason", "unknown_field"],
      [{ type: "delivered" }, "delivered_at", "required"],
      [{ type: "delivered", delivered_at: "yesterday" }, "delivered_at", "invalid_format"],
      [{ type: "disbursed", delivered_at: "2026-05-27T12:00:00Z" }, "delivered_at", "unknown_field"],
      [{ type: "estimated_arrival" }, "estimated_arrival_at", "required"],
      [{ type: "disbursed", amount: 5 }, "amount", "unknown_field"],
    ];
    const before = (await outcomeJobs()).length;
    for (const [payload, field, code] of cases) {
      const response = await t.app.inject({ method: "POST", url: url(randomUUID()), headers: bearer(TOKEN), payload });
      const error = expectErrorEnvelope(response, { status: 400, code: "validation_failed", actor: null });
      expect(error.details, JSON.stringify(payload)).toContainEqual(expect.objectContaining({ field, code }));
    }
    expect((await outcomeJobs()).length).toBe(before);
  });

  it("a sandbox payout or an unknown id is 404, and nothing is queued", async () => {
    const before = (await outcomeJobs()).length;
    for (const id of [sandbox, randomUUID()]) {
      const response = await t.app.inject({
        method: "POST",
        url: url(id),
        headers: bearer(TOKEN),
        payload: { type: "disbursed" },
      });
      expectErrorEnvelope(response, { status: 404, code: "not_found", actor: null });
    }
    expect((await outcomeJobs()).length).toBe(before);
  });

  it("a path id that is not a UUID is 400 bad_request", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: url("12345"),
      headers: bearer(TOKEN),
      payload: { type: "disbursed" },
    });
    expectErrorEnvelope(response, { status: 400, code: "bad_request", actor: null, details: true });
  });

  it("never writes the token to the logs", async () => {
    expect(t.logLines.join("\n")).not.toContain(TOKEN);
  });
});
