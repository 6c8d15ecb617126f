// The destination policy (issue 29): GET|PUT /v1/destination-policy; under `require_approval` every path that
// adds or changes bank details (API key, dashboard session, import, collection link, an applied notification of
// change) leaves them `pending_approval` until a person other than the one who added them approves; the
// cooling-off (`usable_from`) with the injected clock; payout creation refusals (single and bulk rows); the
// approval rules' `min_destination_age_hours`; roles and tenant isolation; error envelopes.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destinations } from "../../src/modules/destinations/destinations.schema.js";
import {
  type DestinationPolicyControls,
  destinationPolicyWeakens,
  recordNotificationOfChange,
} from "../../src/modules/destinations/index.js";
import { transaction } from "../../src/platform/db/client.js";
import { eventsOf, mintLink, PageSession } from "../collection/helpers.js";
import {
  bearer,
  createApiKey,
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBusiness,
} from "../helpers/factories.js";
import { queuedMails } from "../helpers/queued-mail.js";
import { addMember, asPerson, STRONG_PASSWORD } from "../helpers/sessions.js";
import { addTeamMember, type TeamMember } from "../helpers/team.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { type ExpectedActor, expectErrorEnvelope } from "../http/error-envelope.js";
import { newKey, PERSON_IDENTITY } from "../payouts/payout-fixtures.js";

type Json = Record<string, unknown>;
type Headers = Record<string, string>;

const HOUR = 3_600_000;
const SECOND_IBAN = { ...GERMAN_IBAN_ACCOUNT, iban: "DE02120300000000202051" };
const THIRD_IBAN = { ...GERMAN_IBAN_ACCOUNT, iban: "DE02500105170137075030" };
const US_ACCOUNT = {
  account_holder_name: "Jane Doe",
  country: "US",
  currency: "USD",
  routing_code: "021000021",
  account_number: "123456789",
};

let t: TestApp;
const db = () => t.runtime.deps.database.db;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

const keyHeaders = (key: string): Headers => bearer(key);

function inject(method: "GET" | "POST" | "PUT", url: string, headers: Headers, payload?: unknown) {
  return t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
}

const setPolicy = (headers: Headers, body: Json) => inject("PUT", "/v1/destination-policy", headers, body);

/** A Business with a second admin (another person) and an approver; the policy as given. */
async function businessWith(policy: Json | null): Promise<{
  biz: RegisteredBusiness;
  key: string;
  other: TeamMember;
  actorOf: (env?: "sandbox" | "production") => ExpectedActor;
}> {
  const biz = await registerBusiness(t.app);
  const other = await addTeamMember(t, biz.businessId);
  if (policy !== null) {
    const set = await setPolicy(keyHeaders(biz.keys.sandbox), policy);
    expect(set.statusCode, set.body).toBe(200);
  }
  return {
    biz,
    key: biz.keys.sandbox,
    other,
    actorOf: (environment = "sandbox") => ({
      user_id: biz.userId,
      membership_id: biz.membershipId,
      role: "business_admin" as const,
      environment,
    }),
  };
}

/** A compliant Beneficiary (acknowledged) with no account yet. */
async function compliantBeneficiary(key: string): Promise<string> {
  const beneficiary = await createBeneficiary(t.app, key, PERSON_IDENTITY);
  const ack = await inject("POST", `/v1/beneficiaries/${beneficiary.id}/acknowledge`, keyHeaders(key));
  expect(ack.statusCode, ack.body).toBe(200);
  return beneficiary.id;
}

async function addAccount(
  headers: Headers,
  beneficiaryId: string,
  account: Json = GERMAN_IBAN_ACCOUNT,
): Promise<Json & { id: string }> {
  const response = await inject("POST", `/v1/beneficiaries/${beneficiaryId}/bank-accounts`, headers, account);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const decideAccount = (headers: Headers, beneficiaryId: string, accountId: string, outcome: "approve" | "reject", body?: Json) =>
  inject("POST", `/v1/beneficiaries/${beneficiaryId}/bank-accounts/${accountId}/${outcome}`, headers, body);

const payout = (key: string, beneficiaryId: string, extra: Json = {}) =>
  inject("POST", "/v1/payouts", keyHeaders(key), {
    beneficiary_id: beneficiaryId,
    amount_minor: 1500,
    currency: "EUR",
    idempotency_key: newKey(),
    ...extra,
  });

async function accountOf(key: string, beneficiaryId: string, accountId: string): Promise<Json> {
  const response = await inject("GET", `/v1/beneficiaries/${beneficiaryId}/bank-accounts`, keyHeaders(key));
  expect(response.statusCode).toBe(200);
  const found = (response.json().bank_accounts as Json[]).find((a) => a.id === accountId);
  if (found === undefined) throw new Error("account not listed");
  return found;
}

describe("destinationPolicyWeakens", () => {
  const base: DestinationPolicyControls = { requireApproval: true, coolingOffHours: 24, nameCheck: "warn", screening: "on" };
  it("names each relaxed field, and nothing for tightening or no change", () => {
    expect(destinationPolicyWeakens(base, base)).toEqual([]);
    expect(destinationPolicyWeakens(base, { ...base, requireApproval: false })).toEqual(["require_approval"]);
    expect(destinationPolicyWeakens(base, { ...base, coolingOffHours: 23 })).toEqual(["cooling_off_hours"]);
    expect(destinationPolicyWeakens(base, { ...base, nameCheck: "off" })).toEqual(["name_check"]);
    expect(destinationPolicyWeakens({ ...base, nameCheck: "block" }, base)).toEqual(["name_check"]);
    expect(destinationPolicyWeakens(base, { ...base, screening: "off" })).toEqual(["screening"]);
    expect(
      destinationPolicyWeakens(base, { requireApproval: true, coolingOffHours: 720, nameCheck: "block", screening: "on" }),
    ).toEqual([]);
    expect(
      destinationPolicyWeakens(base, { requireApproval: false, coolingOffHours: 0, nameCheck: "off", screening: "off" }),
    ).toEqual(["require_approval", "cooling_off_hours", "name_check", "screening"]);
  });
});

describe("GET|PUT /v1/destination-policy", () => {
  it("answers the defaults, changes the fields given, audits, and keeps environments and Businesses apart", async () => {
    const { biz, key } = await businessWith(null);
    const initial = await inject("GET", "/v1/destination-policy", keyHeaders(key));
    expect(initial.json()).toEqual({
      environment: "sandbox",
      require_approval: false,
      cooling_off_hours: 0,
      name_check: "off",
      screening: "off",
      updated_at: null,
      updated_by: null,
    });
    // Tightening with a key is allowed.
    const set = await setPolicy(keyHeaders(key), { require_approval: true, cooling_off_hours: 48 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({
      environment: "sandbox",
      require_approval: true,
      cooling_off_hours: 48,
      name_check: "off",
      screening: "off",
      updated_at: t.clock.now().toISOString(),
      updated_by: biz.membershipId,
    });
    const partial = await setPolicy(keyHeaders(key), { name_check: "block" });
    expect(partial.json()).toMatchObject({ require_approval: true, cooling_off_hours: 48, name_check: "block" });
    // Production and another Business still have the defaults.
    expect((await inject("GET", "/v1/destination-policy", keyHeaders(biz.keys.production))).json()).toMatchObject({
      environment: "production",
      require_approval: false,
      updated_at: null,
    });
    const stranger = await registerBusiness(t.app);
    expect((await inject("GET", "/v1/destination-policy", keyHeaders(stranger.keys.sandbox))).json()).toMatchObject({
      require_approval: false,
    });
    const audit = await inject("GET", "/v1/audit-records?action=destination_policy_changed&limit=10", keyHeaders(key));
    expect(audit.statusCode, audit.body).toBe(200);
    const records = audit.json().audit_records as Json[];
    expect(records).toHaveLength(2);
    expect(records.map((r) => r.details)).toContainEqual({
      before: { require_approval: false, cooling_off_hours: 0, name_check: "off", screening: "off" },
      after: { require_approval: true, cooling_off_hours: 48, name_check: "off", screening: "off" },
    });
  });

  it("relaxing it needs a person: a key gets 403, a session succeeds and every admin is e-mailed", async () => {
    const { biz, key, actorOf } = await businessWith({ require_approval: true, cooling_off_hours: 24 });
    const refused = await setPolicy(keyHeaders(key), { require_approval: false });
    expectErrorEnvelope(refused, { status: 403, code: "CONTROL_WEAKENING_NEEDS_PERSON", actor: actorOf() });
    expect((await inject("GET", "/v1/destination-policy", keyHeaders(key))).json()).toMatchObject({ require_approval: true });

    const before = (await queuedMails(t)).filter((m) => m.idempotency_key.startsWith("control-weakened:")).length;
    const person = await asPerson(t.app, biz.email);
    const relaxed = await setPolicy(person, { cooling_off_hours: 2 });
    expect(relaxed.statusCode, relaxed.body).toBe(200);
    const alerts = (await queuedMails(t)).filter((m) => m.idempotency_key.startsWith("control-weakened:"));
    // Two admins: the registrant and the team member.
    expect(alerts.length - before).toBe(2);
    expect(alerts.at(-1)?.subject).toMatch(/destination policy was relaxed/i);
    const weakened = await inject("GET", "/v1/audit-records?action=control_weakened&limit=10", keyHeaders(key));
    expect(weakened.json().audit_records[0].details).toMatchObject({
      control: "destination_policy",
      weakened: ["cooling_off_hours"],
    });
  });

  it("refuses bad input with the envelope, and read-only callers", async () => {
    const { biz, key, actorOf } = await businessWith(null);
    const tooLong = await setPolicy(keyHeaders(key), { cooling_off_hours: 721 });
    const error = expectErrorEnvelope(tooLong, { status: 400, code: "validation_failed", actor: actorOf() });
    expect(error.details?.[0]?.field).toContain("cooling_off_hours");
    expectErrorEnvelope(await setPolicy(keyHeaders(key), { name_check: "sometimes" }), {
      status: 400,
      code: "validation_failed",
      actor: actorOf(),
    });
    expectErrorEnvelope(await setPolicy(keyHeaders(key), { require_approval: true, extra: 1 }), {
      status: 400,
      code: "validation_failed",
      actor: actorOf(),
    });
    const readOnly = await createApiKey(t.app, key, "business_read_only");
    expect((await inject("GET", "/v1/destination-policy", keyHeaders(readOnly.key))).statusCode).toBe(200);
    expect((await setPolicy(keyHeaders(readOnly.key), { require_approval: true })).statusCode).toBe(403);
    expect((await inject("GET", "/v1/destination-policy", keyHeaders(biz.keys.sandbox))).json().require_approval).toBe(false);
  });
});

describe("approval of bank details under require_approval", () => {
  it("an account added with a key waits; its maker (same key, another key, their session) cannot approve; another person can", async () => {
    const { biz, key, other, actorOf } = await businessWith({ require_approval: true });
    const beneficiaryId = await compliantBeneficiary(key);
    const account = await addAccount(keyHeaders(key), beneficiaryId);
    expect(account).toMatchObject({
      approval_status: "pending_approval",
      payout_usable: false,
      approved_by: null,
      approved_at: null,
      usable_from: null,
      added_by: { kind: "api_key", id: biz.keyIds.sandbox },
      details_changed_at: t.clock.now().toISOString(),
    });
    const [review] = await eventsOf(t, beneficiaryId, "beneficiary.bank_account.review_required");
    expect(review?.data).toMatchObject({ bank_account_id: account.id, change: "added", added_by: { kind: "api_key" } });

    const refused = await payout(key, beneficiaryId, { bank_account_id: account.id });
    expectErrorEnvelope(refused, { status: 422, code: "DESTINATION_NOT_APPROVED", actor: actorOf() });
    // Naming no account: the only one is resolved, then refused the same way.
    expect((await payout(key, beneficiaryId)).json().error.code).toBe("DESTINATION_NOT_APPROVED");

    const sameKey = await decideAccount(keyHeaders(key), beneficiaryId, account.id, "approve");
    expectErrorEnvelope(sameKey, { status: 403, code: "DESTINATION_MAKER_CHECKER_VIOLATION", actor: actorOf() });
    const secondKey = await createApiKey(t.app, key, "business_admin");
    expect((await decideAccount(keyHeaders(secondKey.key), beneficiaryId, account.id, "approve")).json().error.code).toBe(
      "DESTINATION_MAKER_CHECKER_VIOLATION",
    );
    const ownSession = await asPerson(t.app, biz.email);
    expect((await decideAccount(ownSession, beneficiaryId, account.id, "approve")).json().error.code).toBe(
      "DESTINATION_MAKER_CHECKER_VIOLATION",
    );
    expect((await accountOf(key, beneficiaryId, account.id)).approval_status).toBe("pending_approval");

    const approved = await decideAccount(keyHeaders(other.keys.sandbox), beneficiaryId, account.id, "approve");
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      approval_status: "approved",
      payout_usable: true,
      approved_by: other.membershipId,
      approved_at: t.clock.now().toISOString(),
      usable_from: t.clock.now().toISOString(),
    });
    const [event] = await eventsOf(t, beneficiaryId, "beneficiary.bank_account.approved");
    expect(event?.data).toMatchObject({ bank_account_id: account.id, decided_by: other.membershipId });
    expect((await payout(key, beneficiaryId, { bank_account_id: account.id })).statusCode).toBe(201);

    const again = await decideAccount(keyHeaders(other.keys.sandbox), beneficiaryId, account.id, "reject");
    expectErrorEnvelope(again, {
      status: 409,
      code: "DESTINATION_NOT_PENDING_APPROVAL",
      actor: { user_id: other.userId, membership_id: other.membershipId, role: "business_admin", environment: "sandbox" },
    });
  });

  it("an account added from a dashboard session: the same person's key cannot approve it; a rejection is final", async () => {
    const { biz, key, other } = await businessWith({ require_approval: true });
    const beneficiaryId = await compliantBeneficiary(key);
    const session = await asPerson(t.app, biz.email);
    const account = await addAccount(session, beneficiaryId, SECOND_IBAN);
    expect(account.added_by).toEqual({ kind: "session", id: biz.membershipId });
    expect((await decideAccount(keyHeaders(key), beneficiaryId, account.id, "approve")).json().error.code).toBe(
      "DESTINATION_MAKER_CHECKER_VIOLATION",
    );
    const rejected = await decideAccount(keyHeaders(other.keys.sandbox), beneficiaryId, account.id, "reject", {
      reason: "Changed by e-mail request",
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ approval_status: "rejected", payout_usable: false, approved_by: other.membershipId });
    const [event] = await eventsOf(t, beneficiaryId, "beneficiary.bank_account.rejected");
    expect(event?.data).toMatchObject({ bank_account_id: account.id, reason: "Changed by e-mail request" });
    expect((await payout(key, beneficiaryId, { bank_account_id: account.id })).json().error.code).toBe(
      "DESTINATION_NOT_APPROVED",
    );
    expect((await decideAccount(keyHeaders(other.keys.sandbox), beneficiaryId, account.id, "approve")).statusCode).toBe(409);
  });

  it("approvers decide, read-only members cannot; other tenants see nothing; the queue lists what waits", async () => {
    const { biz, key, other } = await businessWith({ require_approval: true });
    const beneficiaryId = await compliantBeneficiary(key);
    const first = await addAccount(keyHeaders(key), beneficiaryId);
    const second = await addAccount(keyHeaders(key), beneficiaryId, SECOND_IBAN);
    const queue = await inject("GET", "/v1/bank-account-approvals", keyHeaders(other.keys.sandbox));
    expect(queue.statusCode).toBe(200);
    expect((queue.json().bank_accounts as Json[]).map((a) => a.id)).toEqual([second.id, first.id]);
    // Production and another Business see none of it, and cannot decide it.
    expect((await inject("GET", "/v1/bank-account-approvals", keyHeaders(biz.keys.production))).json().bank_accounts).toEqual([]);
    const stranger = await registerBusiness(t.app);
    expect((await inject("GET", "/v1/bank-account-approvals", keyHeaders(stranger.keys.sandbox))).json().bank_accounts).toEqual(
      [],
    );
    expect((await decideAccount(keyHeaders(stranger.keys.sandbox), beneficiaryId, first.id, "approve")).statusCode).toBe(404);
    expect((await decideAccount(keyHeaders(other.keys.production), beneficiaryId, first.id, "approve")).statusCode).toBe(404);

    const readOnly = await addMember(t.app, key, "business_read_only");
    expect(
      (await decideAccount(await asPerson(t.app, readOnly.email, "sandbox", STRONG_PASSWORD), beneficiaryId, first.id, "approve"))
        .statusCode,
    ).toBe(403);
    const approver = await addMember(t.app, key, "business_approver");
    const byApprover = await decideAccount(
      await asPerson(t.app, approver.email, "sandbox", STRONG_PASSWORD),
      beneficiaryId,
      first.id,
      "approve",
    );
    expect(byApprover.statusCode, byApprover.body).toBe(200);
    expect(byApprover.json().approved_by).toBe(approver.membershipId);
    expect((await inject("GET", "/v1/bank-account-approvals", keyHeaders(key))).json().bank_accounts).toHaveLength(1);

    const badId = await decideAccount(keyHeaders(other.keys.sandbox), beneficiaryId, "not-a-uuid", "approve");
    expect(badId.statusCode).toBe(400);
    const badBody = await decideAccount(keyHeaders(other.keys.sandbox), beneficiaryId, second.id, "reject", { reason: 5 });
    expect(badBody.json().error.code).toBe("validation_failed");
  });

  it("an import's accounts wait, and the importer cannot approve them", async () => {
    const { biz, key, other } = await businessWith({ require_approval: true });
    const response = await inject("POST", "/v1/beneficiaries/import", keyHeaders(key), {
      rows: [
        {
          email: `import-${newKey()}@example.com`,
          acknowledged: true,
          first_name: "Ada",
          last_name: "Lovelace",
          country_of_residence: "DE",
          bank: { ...GERMAN_IBAN_ACCOUNT, account_holder_name: "Ada Lovelace" },
        },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const [result] = response.json().results as Json[];
    expect(result).toMatchObject({ status: "created", payout_usable: false });
    const beneficiaryId = String(result?.beneficiary_id);
    const accountId = String(result?.bank_account_id);
    expect(await accountOf(key, beneficiaryId, accountId)).toMatchObject({
      approval_status: "pending_approval",
      added_by: { kind: "api_key", id: biz.keyIds.sandbox },
    });
    expect(await eventsOf(t, beneficiaryId, "beneficiary.bank_account.review_required")).toHaveLength(1);
    expect((await payout(key, beneficiaryId)).json().error.code).toBe("DESTINATION_NOT_APPROVED");
    expect((await decideAccount(keyHeaders(key), beneficiaryId, accountId, "approve")).statusCode).toBe(403);
    expect((await decideAccount(keyHeaders(other.keys.sandbox), beneficiaryId, accountId, "approve")).statusCode).toBe(200);
  });

  it("a collection link's submission waits; no person is behind it, so the admin who minted the link may approve", async () => {
    const { key } = await businessWith({ require_approval: true });
    const beneficiaryId = await compliantBeneficiary(key);
    const link = await mintLink(t.app, key, beneficiaryId, "payout_destination");
    const submitted = await new PageSession(t.app).submit(`${link.path}?country=DE&currency=EUR`, {
      destination: "new",
      "bank.account_holder_name": "Jane Doe",
      "bank.country": "DE",
      "bank.currency": "EUR",
      "bank.iban": THIRD_IBAN.iban,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const listed = (await inject("GET", `/v1/beneficiaries/${beneficiaryId}/bank-accounts`, keyHeaders(key))).json()
      .bank_accounts as Json[];
    expect(listed).toHaveLength(1);
    const account = listed[0] as Json & { id: string };
    expect(account).toMatchObject({ approval_status: "pending_approval", added_by: { kind: "collection_link", id: link.id } });
    expect((await payout(key, beneficiaryId)).json().error.code).toBe("DESTINATION_NOT_APPROVED");
    const approved = await decideAccount(keyHeaders(key), beneficiaryId, account.id, "approve");
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await payout(key, beneficiaryId)).statusCode).toBe(201);
  });

  it("an applied notification of change makes the changed account wait again, added by whoever applied it", async () => {
    const { key, other } = await businessWith(null);
    const beneficiaryId = await compliantBeneficiary(key);
    const account = await addAccount(keyHeaders(key), beneficiaryId, US_ACCOUNT);
    expect(account.approval_status).toBe("approved");
    expect((await setPolicy(keyHeaders(key), { require_approval: true })).statusCode).toBe(200);
    const tenant = { businessId: (await accountRow(account.id)).businessId, environment: "sandbox" as const };
    await transaction(db(), (tx) =>
      recordNotificationOfChange(
        tx,
        tenant,
        account.id,
        {
          code: "C01",
          description: "C01: Incorrect account number.",
          corrected_data: "*****4321",
          corrected_fields: ["account_number"],
          payout_id: "01900000-0000-7000-8000-000000000001",
          received_at: t.clock.now().toISOString(),
          correction_encrypted: t.runtime.deps.cipher.encrypt(JSON.stringify({ accountNumber: "987654321" })),
        },
        t.clock.now(),
      ),
    );
    t.clock.advance(HOUR);
    const applied = await inject(
      "POST",
      `/v1/beneficiaries/${beneficiaryId}/bank-accounts/${account.id}/notification-of-change/apply`,
      keyHeaders(other.keys.sandbox),
    );
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({
      approval_status: "pending_approval",
      payout_usable: false,
      usable_from: null,
      added_by: { kind: "api_key" },
      details_changed_at: t.clock.now().toISOString(),
    });
    const [review] = await eventsOf(t, beneficiaryId, "beneficiary.bank_account.review_required");
    expect(review?.data).toMatchObject({ change: "changed", bank_account_id: account.id });
    expect((await payout(key, beneficiaryId, { currency: "USD" })).json().error.code).toBe("DESTINATION_NOT_APPROVED");
    // The one who applied the correction may not approve it; the first admin may.
    expect((await decideAccount(keyHeaders(other.keys.sandbox), beneficiaryId, account.id, "approve")).statusCode).toBe(403);
    expect((await decideAccount(keyHeaders(key), beneficiaryId, account.id, "approve")).statusCode).toBe(200);
  });
});

async function accountRow(id: string) {
  const [row] = await db().select().from(destinations).where(eq(destinations.id, id));
  if (row === undefined) throw new Error("no destination row");
  return row;
}

describe("cooling-off", () => {
  it("without approval: usable cooling_off_hours after creation; the refusal carries usable_from; then payable", async () => {
    const { key, actorOf } = await businessWith({ cooling_off_hours: 24 });
    const beneficiaryId = await compliantBeneficiary(key);
    const account = await addAccount(keyHeaders(key), beneficiaryId);
    const usableFrom = new Date(t.clock.now().getTime() + 24 * HOUR).toISOString();
    expect(account).toMatchObject({ approval_status: "approved", payout_usable: true, usable_from: usableFrom });
    const refused = await payout(key, beneficiaryId);
    const error = expectErrorEnvelope(refused, { status: 422, code: "DESTINATION_COOLING_OFF", actor: actorOf(), details: true });
    expect(error.details).toEqual([{ field: "usable_from", code: "cooling_off", message: usableFrom }]);
    t.clock.advance(24 * HOUR - 1000);
    expect((await payout(key, beneficiaryId)).json().error.code).toBe("DESTINATION_COOLING_OFF");
    t.clock.advance(1000);
    expect((await payout(key, beneficiaryId)).statusCode).toBe(201);
  });

  it("with approval: counted from the approval; becoming the declared destination restarts it", async () => {
    const { key, other } = await businessWith({ require_approval: true, cooling_off_hours: 48 });
    const beneficiaryId = await compliantBeneficiary(key);
    const first = await addAccount(keyHeaders(key), beneficiaryId);
    t.clock.advance(10 * HOUR);
    const approvedAt = t.clock.now();
    const approved = await decideAccount(keyHeaders(other.keys.sandbox), beneficiaryId, first.id, "approve");
    expect(approved.json().usable_from).toBe(new Date(approvedAt.getTime() + 48 * HOUR).toISOString());
    t.clock.advance(47 * HOUR);
    expect((await payout(key, beneficiaryId, { bank_account_id: first.id })).json().error.code).toBe("DESTINATION_COOLING_OFF");
    t.clock.advance(HOUR);
    expect((await payout(key, beneficiaryId, { bank_account_id: first.id })).statusCode).toBe(201);

    // A second account, approved and cooled off; declaring it restarts its cooling-off.
    const second = await addAccount(keyHeaders(key), beneficiaryId, SECOND_IBAN);
    expect((await decideAccount(keyHeaders(other.keys.sandbox), beneficiaryId, second.id, "approve")).statusCode).toBe(200);
    t.clock.advance(49 * HOUR);
    expect((await payout(key, beneficiaryId, { bank_account_id: second.id })).statusCode).toBe(201);
    const declared = await inject("PUT", `/v1/beneficiaries/${beneficiaryId}/declared-destination`, keyHeaders(key), {
      destination_id: second.id,
    });
    expect(declared.statusCode, declared.body).toBe(200);
    expect((await accountOf(key, beneficiaryId, second.id)).usable_from).toBe(
      new Date(t.clock.now().getTime() + 48 * HOUR).toISOString(),
    );
    expect((await payout(key, beneficiaryId)).json().error.code).toBe("DESTINATION_COOLING_OFF");
  });

  it("bulk rows report the refusals row by row", async () => {
    const { key, other } = await businessWith({ require_approval: true, cooling_off_hours: 1 });
    const beneficiaryId = await compliantBeneficiary(key);
    const pending = await addAccount(keyHeaders(key), beneficiaryId);
    const cooling = await addAccount(keyHeaders(key), beneficiaryId, SECOND_IBAN);
    expect((await decideAccount(keyHeaders(other.keys.sandbox), beneficiaryId, cooling.id, "approve")).statusCode).toBe(200);
    const row = (accountId: string, i: number) => ({
      beneficiary_id: beneficiaryId,
      bank_account_id: accountId,
      amount_minor: 100 + i,
      currency: "EUR",
      external_ref: `row-${i}`,
    });
    const send = () =>
      inject("POST", "/v1/payouts/bulk", keyHeaders(key), {
        uploadId: newKey("upload"),
        rows: [row(pending.id, 0), row(cooling.id, 1)],
      });
    const response = await send();
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json().results as Array<{ status: string; error: { code: string; details?: Json[] } | null }>;
    expect(results.map((r) => [r.status, r.error?.code ?? null])).toEqual([
      ["failed", "DESTINATION_NOT_APPROVED"],
      ["failed", "DESTINATION_COOLING_OFF"],
    ]);
    expect(results[1]?.error?.details).toEqual([
      { field: "usable_from", code: "cooling_off", message: new Date(t.clock.now().getTime() + HOUR).toISOString() },
    ]);
    t.clock.advance(HOUR);
    const later = (await send()).json().results as Array<{ status: string }>;
    expect(later.map((r) => r.status)).toEqual(["failed", "created"]);
  });

  it("an approval rule with min_destination_age_hours leaves payouts to a fresh destination to a person", async () => {
    const { biz, key } = await businessWith(null);
    const person = await asPerson(t.app, biz.email);
    const rules = await inject("PUT", "/v1/approval-policy", person, {
      rules: [{ name: "Known accounts", outcome: "approve", max_amount_minor: 100_000, min_destination_age_hours: 72 }],
    });
    expect(rules.statusCode, rules.body).toBe(200);
    const beneficiaryId = await compliantBeneficiary(key);
    await addAccount(keyHeaders(key), beneficiaryId);
    const fresh = await payout(key, beneficiaryId);
    expect(fresh.json().status).toBe("pending_approval");
    t.clock.advance(72 * HOUR);
    const aged = await payout(key, beneficiaryId);
    expect(aged.json().status).toBe("approved");
  });
});
