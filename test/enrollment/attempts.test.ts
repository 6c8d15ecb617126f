// Enrollment attempts against a scripted production rail: what a Business sees while an attempt is in flight,
// a retry racing one, an attempt superseded by a newer one, a rail that does not answer, and proof that the
// rail is called with no transaction open (on PGlite a query from inside the rail call would otherwise hang).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { beneficiaries } from "../../src/modules/beneficiaries/beneficiaries.schema.js";
import type { PayoutRail, RailEnrollmentRequest, RailEnrollmentResult } from "../../src/rails/rail.js";
import { createRailRegistry } from "../../src/rails/registry.js";
import { createSandboxRail } from "../../src/rails/sandbox-rail.js";
import { type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import {
  acknowledge,
  CLOSED_ACCOUNT,
  call,
  enrollmentEvents,
  type Json,
  listAccounts,
  newBeneficiary,
  readBeneficiary,
  registerAccount,
} from "./fixtures.js";

type Script = (request: RailEnrollmentRequest) => Promise<RailEnrollmentResult>;

/** A production rail whose enrollment answer each test scripts; it records what the database showed during the call. */
function scriptedRail() {
  let script: Script = async () => ({ outcome: "verified" });
  const seenDuringCall: Array<string | null> = [];
  let database: TestApp | null = null;
  const rail: PayoutRail = {
    name: "scripted",
    async submit() {
      return { accepted: false, reason: "not used" };
    },
    async enroll(request) {
      if (database !== null) {
        // Through the outer handle: hangs on PGlite if the caller held a transaction open.
        const [row] = await database.runtime.deps.database.db
          .select({ status: beneficiaries.enrollmentStatus })
          .from(beneficiaries)
          .where(eq(beneficiaries.id, request.beneficiary.beneficiaryId));
        seenDuringCall.push(row?.status ?? null);
      }
      return script(request);
    },
  };
  return {
    rail,
    seenDuringCall,
    attach: (t: TestApp) => {
      database = t;
    },
    setScript: (next: Script) => {
      script = next;
    },
  };
}

function gate() {
  let open: () => void = () => {};
  let entered: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const reached = new Promise<void>((resolve) => {
    entered = resolve;
  });
  return { open, opened, reached, entered };
}

const REFUSAL = "Beneficiary bank reports the account as closed.";

let t: TestApp;
let biz: RegisteredBusiness;
const scripted = scriptedRail();
beforeAll(async () => {
  t = await buildTestApp({ rails: createRailRegistry({ sandbox: createSandboxRail(), production: scripted.rail }) });
  scripted.attach(t);
  biz = await registerBusiness(t.app, "Attempts Co");
});
afterAll(async () => t?.close());

const refuseAccount: Script = async (request) =>
  request.destination === null
    ? { outcome: "verified" }
    : { outcome: "rejected", detail: REFUSAL, rejectedDestinationId: request.destination.destinationId };

/** A compliant production Beneficiary whose one account the rail refused. */
async function refusedBeneficiary() {
  const key = biz.keys.production;
  scripted.setScript(refuseAccount);
  const b = await newBeneficiary(t.app, key);
  await acknowledge(t.app, key, b.id);
  const account = await registerAccount(t.app, key, b.id, CLOSED_ACCOUNT);
  expect(account).toMatchObject({ status: "rejected", rail_rejection_reason: REFUSAL });
  return { b, account };
}

describe("an attempt in flight", () => {
  it("reads pending with every failure field null, the resubmitted account's reason too; then the answer lands", async () => {
    const key = biz.keys.production;
    const { b, account } = await refusedBeneficiary();
    const g = gate();
    scripted.setScript(async () => {
      g.entered();
      await g.opened;
      return { outcome: "verified" };
    });
    const retrying = call(t.app, key, "POST", `/v1/beneficiaries/${b.id}/enrollment`);
    await g.reached;
    expect(scripted.seenDuringCall.at(-1)).toBe("pending");
    const during = await readBeneficiary(t.app, key, b.id);
    expect(during).toMatchObject({
      enrollment_status: "pending",
      enrollment_failure_detail: null,
      enrollment_failure_bank_account_id: null,
    });
    const [duringAccount] = await listAccounts(t.app, key, b.id);
    // Still refused (not payout-usable) until the rail says otherwise, but the old reason is withdrawn.
    expect(duringAccount).toMatchObject({
      id: account.id,
      status: "rejected",
      rail_rejection_reason: null,
      payout_usable: false,
    });

    g.open();
    const done = await retrying;
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ enrollment_status: "verified", enrollment_failure_detail: null, status: "ready" });
    const [after] = await listAccounts(t.app, key, b.id);
    expect(after).toMatchObject({ status: "verified", rail_rejection_reason: null, payout_usable: true });
  });

  it("a second retry while one is in flight is 409 ENROLLMENT_IN_PROGRESS; after 60 s a retry supersedes it", async () => {
    const key = biz.keys.production;
    const { b, account } = await refusedBeneficiary();
    const first = gate();
    scripted.setScript(async () => {
      first.entered();
      await first.opened;
      return { outcome: "verified" };
    });
    const slow = call(t.app, key, "POST", `/v1/beneficiaries/${b.id}/enrollment`);
    await first.reached;

    const conflict = await call(t.app, key, "POST", `/v1/beneficiaries/${b.id}/enrollment`);
    expectErrorEnvelope(conflict, { status: 409, code: "ENROLLMENT_IN_PROGRESS", actor: expect.anything() as never });

    // The first attempt looks abandoned after 60 s: a new retry takes over and its answer is the one kept.
    t.clock.advance(61_000);
    scripted.setScript(refuseAccount);
    const takeover = await call(t.app, key, "POST", `/v1/beneficiaries/${b.id}/enrollment`);
    expect(takeover.statusCode, takeover.body).toBe(200);
    expect(takeover.json()).toMatchObject({ enrollment_status: "rejected", enrollment_failure_bank_account_id: account.id });

    first.open();
    const late = await slow;
    expect(late.statusCode).toBe(200);
    // The superseded attempt's "verified" was dropped.
    const final = await readBeneficiary(t.app, key, b.id);
    expect(final).toMatchObject({
      enrollment_status: "rejected",
      enrollment_failure_detail: REFUSAL,
      enrollment_failure_bank_account_id: account.id,
    });
    const [acc] = await listAccounts(t.app, key, b.id);
    expect(acc).toMatchObject({ status: "rejected", rail_rejection_reason: REFUSAL });
  });
});

describe("a rail that does not answer", () => {
  it("the retry answers 503 RAIL_UNAVAILABLE and everything is as before the attempt", async () => {
    const key = biz.keys.production;
    const { b, account } = await refusedBeneficiary();
    const before = await readBeneficiary(t.app, key, b.id);
    const eventsBefore = (await enrollmentEvents(t, b.id)).length;
    scripted.setScript(async () => {
      throw new Error("connect ECONNREFUSED 10.0.0.1:443");
    });
    const response = await call(t.app, key, "POST", `/v1/beneficiaries/${b.id}/enrollment`);
    const error = expectErrorEnvelope(response, { status: 503, code: "RAIL_UNAVAILABLE", actor: expect.anything() as never });
    expect(error.message).not.toContain("ECONNREFUSED");
    const after = await readBeneficiary(t.app, key, b.id);
    expect({ ...after, updated_at: null }).toEqual({ ...before, updated_at: null });
    const [acc] = await listAccounts(t.app, key, b.id);
    expect(acc).toMatchObject({ id: account.id, status: "rejected", rail_rejection_reason: REFUSAL });
    expect((await enrollmentEvents(t, b.id)).length).toBe(eventsBefore);
  });

  it("an automatic attempt never fails the acknowledgment that triggered it", async () => {
    const key = biz.keys.production;
    scripted.setScript(async () => {
      throw new Error("rail timeout");
    });
    const b = await newBeneficiary(t.app, key);
    const acknowledged = (await call(t.app, key, "POST", `/v1/beneficiaries/${b.id}/acknowledge`)) as {
      statusCode: number;
      json(): Json;
    };
    expect(acknowledged.statusCode).toBe(200);
    expect(acknowledged.json()).toMatchObject({ compliance_status: "compliant", enrollment_status: null });
    expect(t.logLines.some((line) => line.includes("enrollment: the rail did not answer"))).toBe(true);
  });
});

describe("what the rail names", () => {
  it("a refusal naming an account that is not the Beneficiary's is taken as naming none", async () => {
    const key = biz.keys.production;
    const other = await newBeneficiary(t.app, key);
    const otherAccount = await registerAccount(t.app, key, other.id, CLOSED_ACCOUNT);
    scripted.setScript(async () => ({ outcome: "rejected", detail: REFUSAL, rejectedDestinationId: otherAccount.id }));
    const b = await newBeneficiary(t.app, key);
    const acknowledged = await acknowledge(t.app, key, b.id);
    expect(acknowledged).toMatchObject({
      enrollment_status: "rejected",
      enrollment_failure_detail: REFUSAL,
      enrollment_failure_bank_account_id: null,
    });
    expect((await listAccounts(t.app, key, other.id))[0]).toMatchObject({ status: "unverified", rail_rejection_reason: null });
    expect((await enrollmentEvents(t, b.id))[0]?.data.bank_account_id).toBeNull();
  });

  it("every rail call so far saw the attempt committed as pending (no transaction held across the call)", () => {
    expect(scripted.seenDuringCall.length).toBeGreaterThan(3);
    expect(new Set(scripted.seenDuringCall)).toEqual(new Set(["pending"]));
  });
});
