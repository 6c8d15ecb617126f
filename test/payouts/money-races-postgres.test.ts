// The answer the caller got is what happened to the money, under real concurrency (PostgreSQL only: PGlite
// runs one transaction at a time). Each test repeats a race many times with random interleavings:
// - a Business's cancel against the worker's disbursement of an approved payout;
// - a cancel against a compliance hold (and its release) applied by the worker;
// - destination deletion against payout creation;
// - archiving against payout creation.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { onPostgres } from "../helpers/test-database.js";
import {
  createPayout,
  createScriptedRail,
  decide,
  enqueueOutcome,
  getPayout,
  newKey,
  payableBeneficiary,
  payoutEvents,
  postPayout,
  railsWithProduction,
  type ScriptedRail,
} from "./payout-fixtures.js";

const ROUNDS = 120;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A random delay of 0 to `max` ms, so the racing requests land at every point of each other's work. */
const jitter = (max: number) => pause(Math.floor(Math.random() * (max + 1)));

describe.skipIf(!onPostgres)("money races on PostgreSQL", () => {
  let t: TestApp;
  let rail: ScriptedRail;
  let business: RegisteredBusiness;
  let key: string;
  const db = () => t.runtime.deps.database.db;

  beforeAll(async () => {
    rail = createScriptedRail();
    // A rail that takes a moment widens the window between the worker's first and last step.
    const accept = rail.script;
    rail.script = async (request) => {
      await jitter(2);
      return accept(request);
    };
    t = await buildTestApp({ rails: railsWithProduction(rail), env: { RATE_LIMIT_REQUESTS: "1000000" } });
    business = await registerBusiness(t.app);
    key = business.keys.production;
  });
  afterAll(async () => t?.close());

  const drain = () => t.runtime.createWorker(`w-${newKey()}`).drain();
  const submissionsOf = (payoutId: string) => rail.submissions.filter((s) => s.payoutId === payoutId).length;
  const cancel = (payoutId: string) =>
    t.app.inject({ method: "POST", url: `/v1/payouts/${payoutId}/cancel`, headers: bearer(key), payload: {} });

  /** What a receiver of the payout's events would believe happened to the money. */
  async function eventTypes(payoutId: string): Promise<string[]> {
    return (await payoutEvents(db(), payoutId)).map((event) => event.type);
  }

  it("a cancel racing the worker's disbursement answers canceled only when the rail never got the payout", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    const tally = { canceled: 0, refused: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
      expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
      const [answer] = await Promise.all([jitter(6).then(() => cancel(payout.payout_id)), drain()]);
      await drain(); // whatever the race left due (nothing, if the cancel won)
      const read = await getPayout(t.app, key, payout.payout_id);
      const types = await eventTypes(payout.payout_id);
      if (answer.statusCode === 200) {
        tally.canceled += 1;
        expect(answer.json().status).toBe("canceled");
        expect(submissionsOf(payout.payout_id), `round ${round}: canceled, yet the rail got it`).toBe(0);
        expect(read).toMatchObject({ status: "canceled", disbursement_status: null, rail_ref: null });
        expect(types).toEqual(["payout.canceled"]);
      } else {
        tally.refused += 1;
        expect(answer.statusCode, answer.body).toBe(409);
        expect(answer.json().error.code).toBe("PAYOUT_NOT_CANCELABLE");
        expect(submissionsOf(payout.payout_id)).toBe(1);
        expect(read).toMatchObject({ status: "approved", disbursement_status: "submitted" });
        expect(types).toEqual(["payout.disbursement_submitted"]);
      }
    }
    // Both sides of the race were exercised (the jitter spans the worker's whole run).
    expect(tally.canceled).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
  });

  it("a cancel racing a compliance hold and its release: the answer matches the payout, and a released payout is paid once", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, key);
    for (let round = 0; round < ROUNDS / 2; round += 1) {
      const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId });
      expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
      // The hold may land before or after the disbursement job and the cancel.
      await enqueueOutcome(db(), payout.payout_id, { type: "compliance_hold", reason: "Sanctions screening" }, t.clock.now());
      const [answer] = await Promise.all([jitter(6).then(() => cancel(payout.payout_id)), drain()]);
      await enqueueOutcome(db(), payout.payout_id, { type: "compliance_hold_cleared" }, t.clock.now());
      await drain();
      await drain();
      const read = await getPayout(t.app, key, payout.payout_id);
      const types = await eventTypes(payout.payout_id);
      if (answer.statusCode === 200) {
        expect(submissionsOf(payout.payout_id), `round ${round}: canceled, yet the rail got it`).toBe(0);
        expect(read.status).toBe("canceled");
        expect(types).toEqual(["payout.canceled"]);
      } else {
        expect(answer.statusCode, answer.body).toBe(409);
        expect(answer.json().error.code).toBe("PAYOUT_NOT_CANCELABLE");
        // Held before or after submission, the payout is paid exactly once once the hold clears.
        expect(submissionsOf(payout.payout_id), `round ${round}`).toBe(1);
        expect(read).toMatchObject({ status: "approved", disbursement_status: "submitted" });
        expect(types).toEqual(["payout.disbursement_submitted"]);
      }
    }
  });

  it("destination deletion racing payout creation: never a pending payout to a deleted destination", async () => {
    for (let round = 0; round < ROUNDS / 3; round += 1) {
      const { beneficiaryId, destinationId } = await payableBeneficiary(t.app, key);
      const [created, deleted] = await Promise.all([
        jitter(3).then(() =>
          postPayout(t.app, key, {
            beneficiary_id: beneficiaryId,
            amount_minor: 500,
            currency: "EUR",
            idempotency_key: newKey(),
          }),
        ),
        jitter(3).then(() =>
          t.app.inject({
            method: "DELETE",
            url: `/v1/beneficiaries/${beneficiaryId}/bank-accounts/${destinationId}`,
            headers: bearer(key),
          }),
        ),
      ]);
      if (created.statusCode === 201) {
        // The payout came first: the deletion must have been refused.
        expect(deleted.statusCode, `round ${round}: both succeeded`).toBe(409);
        expect(deleted.json().error.code).toBe("DESTINATION_HAS_PENDING_PAYOUT");
      } else {
        expect(deleted.statusCode).toBe(204);
        expect(created.statusCode, created.body).toBe(422);
      }
      const [orphans] = await queryRows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from payouts p join destinations d on d.id = p.destination_id
            where p.status = 'pending_approval' and d.deleted_at is not null`,
      );
      expect(orphans?.n).toBe(0);
    }
  });

  it("archiving racing payout creation: a payout is created only before the archive, never after", async () => {
    for (let round = 0; round < ROUNDS / 3; round += 1) {
      const { beneficiaryId } = await payableBeneficiary(t.app, key);
      const [created, archived] = await Promise.all([
        jitter(3).then(() =>
          postPayout(t.app, key, {
            beneficiary_id: beneficiaryId,
            amount_minor: 700,
            currency: "EUR",
            idempotency_key: newKey(),
          }),
        ),
        jitter(3).then(() =>
          t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiaryId}/archive`, headers: bearer(key) }),
        ),
      ]);
      expect(archived.statusCode, archived.body).toBe(200);
      const archivedAt = new Date(archived.json().archived_at).getTime();
      if (created.statusCode === 201) {
        expect(new Date(created.json().created_at).getTime()).toBeLessThanOrEqual(archivedAt);
      } else {
        expect(created.statusCode, created.body).toBe(422);
        expect(created.json().error.code).toBe("BENEFICIARY_ARCHIVED");
      }
      const [row] = await queryRows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from payouts where beneficiary_id = ${beneficiaryId}::uuid`,
      );
      expect(row?.n).toBe(created.statusCode === 201 ? 1 : 0);
    }
  });
});
