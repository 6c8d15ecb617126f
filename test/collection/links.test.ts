// The links API: create with a scope, pending_requests, resend invalidating the earlier link, expiry by the
// clock, cancel (idempotent, tenant-scoped), archived Beneficiaries, the invitation e-mail, and the token
// never stored in clear.
import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { bearer, createBeneficiary, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, TEST_START, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { mintLink, PageSession, readBeneficiary } from "./helpers.js";

const DAY = 24 * 60 * 60 * 1000;

let t: TestApp;
let biz: RegisteredBusiness;
let key: string;
let actor: { user_id: string; membership_id: string; role: "business_admin"; environment: "sandbox" };

beforeAll(async () => {
  t = await buildTestApp();
  biz = await registerBusiness(t.app, "Globex Payouts");
  key = biz.keys.sandbox;
  actor = { user_id: biz.userId, membership_id: biz.membershipId, role: "business_admin", environment: "sandbox" };
});
afterAll(async () => t?.close());

describe("POST /v1/beneficiaries/{id}/collection-requests", () => {
  it("answers 201 with the id, scope, a 7-day expiry and a link holding the token; the Beneficiary lists it as pending", async () => {
    t.clock.set(TEST_START);
    const beneficiary = await createBeneficiary(t.app, key);
    const link = await mintLink(t.app, key, beneficiary.id, "full_onboarding");
    expect(link.body).toMatchObject({ beneficiary_id: beneficiary.id, scope: "full_onboarding", email_sent: false });
    expect(link.url).toMatch(/^http:\/\/service\.test\/collect\/[A-Za-z0-9_-]{43}$/);
    expect(new Date(link.expires_at).getTime() - TEST_START.getTime()).toBe(7 * DAY);

    const read = await readBeneficiary(t.app, key, beneficiary.id);
    expect(read.pending_requests).toEqual([{ id: link.id, scope: "full_onboarding", expires_at: link.expires_at }]);
    expect(read.collection_status).toBe("invited");
    // The raw token is never serialized anywhere but the create response.
    expect(JSON.stringify(read)).not.toContain(link.token);
  });

  it("a payout_destination or tax_documents link leaves collection_status alone", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    await mintLink(t.app, key, beneficiary.id, "payout_destination");
    expect((await readBeneficiary(t.app, key, beneficiary.id)).collection_status).toBe("not_invited");
    await mintLink(t.app, key, beneficiary.id, "tax_documents");
    expect((await readBeneficiary(t.app, key, beneficiary.id)).collection_status).toBe("not_invited");
  });

  it("a new link invalidates the live one (resend): pending_requests holds only the new one and the old page is gone", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const first = await mintLink(t.app, key, beneficiary.id, "payout_destination");
    const second = await mintLink(t.app, key, beneficiary.id, "full_onboarding");
    const read = await readBeneficiary(t.app, key, beneficiary.id);
    expect(read.pending_requests).toEqual([{ id: second.id, scope: "full_onboarding", expires_at: second.expires_at }]);

    const page = new PageSession(t.app);
    const old = await page.get(first.path);
    expect(old.statusCode).toBe(410);
    expect(old.body).toContain("replaced by a newer one");
    expect((await page.get(second.path)).statusCode).toBe(200);
  });

  it("expiry is read with the clock: live until 7 days, then gone from pending_requests and the page says expired", async () => {
    t.clock.set(TEST_START);
    const beneficiary = await createBeneficiary(t.app, key);
    const link = await mintLink(t.app, key, beneficiary.id, "payout_destination");
    const page = new PageSession(t.app);

    t.clock.set(new Date(TEST_START.getTime() + 7 * DAY - 1));
    expect((await readBeneficiary(t.app, key, beneficiary.id)).pending_requests).toHaveLength(1);
    expect((await page.get(link.path)).statusCode).toBe(200);

    t.clock.set(new Date(TEST_START.getTime() + 7 * DAY));
    expect((await readBeneficiary(t.app, key, beneficiary.id)).pending_requests).toEqual([]);
    const list = await t.app.inject({
      method: "GET",
      url: `/v1/beneficiaries?email=${encodeURIComponent(beneficiary.email)}`,
      headers: bearer(key),
    });
    expect((list.json() as { beneficiaries: Array<{ pending_requests: unknown[] }> }).beneficiaries[0]?.pending_requests).toEqual(
      [],
    );
    const expired = await page.get(link.path);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain("This link has expired");
    expect(expired.body).toContain("Globex Payouts");
    t.clock.set(TEST_START);
  });

  it("the list shows each Beneficiary's live request", async () => {
    const a = await createBeneficiary(t.app, key);
    const b = await createBeneficiary(t.app, key);
    const linkA = await mintLink(t.app, key, a.id, "tax_documents");
    const list = await t.app.inject({ method: "GET", url: "/v1/beneficiaries?limit=200", headers: bearer(key) });
    const rows = (list.json() as { beneficiaries: Array<{ id: string; pending_requests: Array<{ id: string }> }> }).beneficiaries;
    expect(rows.find((r) => r.id === a.id)?.pending_requests.map((r) => r.id)).toEqual([linkA.id]);
    expect(rows.find((r) => r.id === b.id)?.pending_requests).toEqual([]);
  });

  it("an archived Beneficiary refuses links with 422 BENEFICIARY_ARCHIVED", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/archive`, headers: bearer(key) });
    const response = await t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${beneficiary.id}/collection-requests`,
      headers: bearer(key),
      payload: { scope: "full_onboarding" },
    });
    expectErrorEnvelope(response, { status: 422, code: "BENEFICIARY_ARCHIVED", actor });
  });

  it("a live link of a Beneficiary archived later shows an inactive page", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const link = await mintLink(t.app, key, beneficiary.id, "payout_destination");
    await t.app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/archive`, headers: bearer(key) });
    const page = await new PageSession(t.app).get(link.path);
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain("no longer active");
  });

  it("refuses a bad scope, unknown fields and a missing Beneficiary with the envelope", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const url = `/v1/beneficiaries/${beneficiary.id}/collection-requests`;
    const bad = await t.app.inject({ method: "POST", url, headers: bearer(key), payload: { scope: "bank_details" } });
    expect(expectErrorEnvelope(bad, { status: 400, code: "validation_failed", actor }).details?.[0]?.field).toBe("scope");
    const unknown = await t.app.inject({
      method: "POST",
      url,
      headers: bearer(key),
      payload: { scope: "full_onboarding", token: "x" },
    });
    expectErrorEnvelope(unknown, { status: 400, code: "validation_failed", actor });
    const missing = await t.app.inject({
      method: "POST",
      url: `/v1/beneficiaries/${randomUUID()}/collection-requests`,
      headers: bearer(key),
      payload: { scope: "full_onboarding" },
    });
    expectErrorEnvelope(missing, { status: 404, code: "not_found", actor });
    const badId = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries/not-a-uuid/collection-requests",
      headers: bearer(key),
      payload: { scope: "full_onboarding" },
    });
    expectErrorEnvelope(badId, { status: 400, code: "bad_request", actor, details: true });
  });
});

describe("DELETE /v1/beneficiaries/{id}/collection-requests/{requestId}", () => {
  it("answers 204, removes the request from pending_requests, closes the page, and repeats as a no-op", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const link = await mintLink(t.app, key, beneficiary.id, "full_onboarding");
    const url = `/v1/beneficiaries/${beneficiary.id}/collection-requests/${link.id}`;
    const first = await t.app.inject({ method: "DELETE", url, headers: bearer(key) });
    expect(first.statusCode).toBe(204);
    expect(first.body).toBe("");
    expect((await readBeneficiary(t.app, key, beneficiary.id)).pending_requests).toEqual([]);
    const page = await new PageSession(t.app).get(link.path);
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain("This link was cancelled");
    expect((await t.app.inject({ method: "DELETE", url, headers: bearer(key) })).statusCode).toBe(204);
  });

  it("cancelling an expired, replaced or consumed request succeeds as a no-op", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const replaced = await mintLink(t.app, key, beneficiary.id, "payout_destination");
    const live = await mintLink(t.app, key, beneficiary.id, "payout_destination");
    const cancelReplaced = await t.app.inject({
      method: "DELETE",
      url: `/v1/beneficiaries/${beneficiary.id}/collection-requests/${replaced.id}`,
      headers: bearer(key),
    });
    expect(cancelReplaced.statusCode).toBe(204);
    // The live one is untouched by cancelling the replaced one.
    expect((await readBeneficiary(t.app, key, beneficiary.id)).pending_requests).toEqual([
      { id: live.id, scope: "payout_destination", expires_at: live.expires_at },
    ]);
    t.clock.set(new Date(TEST_START.getTime() + 8 * DAY));
    const cancelExpired = await t.app.inject({
      method: "DELETE",
      url: `/v1/beneficiaries/${beneficiary.id}/collection-requests/${live.id}`,
      headers: bearer(key),
    });
    expect(cancelExpired.statusCode).toBe(204);
    // An expired link stays "expired" (cancelling it changed nothing).
    expect((await new PageSession(t.app).get(live.path)).body).toContain("This link has expired");
    t.clock.set(TEST_START);
  });

  it("a request id of another Beneficiary, or one that does not exist, is 404 not_found", async () => {
    const owner = await createBeneficiary(t.app, key);
    const other = await createBeneficiary(t.app, key);
    const link = await mintLink(t.app, key, owner.id, "full_onboarding");
    const crossed = await t.app.inject({
      method: "DELETE",
      url: `/v1/beneficiaries/${other.id}/collection-requests/${link.id}`,
      headers: bearer(key),
    });
    const missing = await t.app.inject({
      method: "DELETE",
      url: `/v1/beneficiaries/${owner.id}/collection-requests/${randomUUID()}`,
      headers: bearer(key),
    });
    const a = expectErrorEnvelope(crossed, { status: 404, code: "not_found", actor });
    const b = expectErrorEnvelope(missing, { status: 404, code: "not_found", actor });
    expect(a.message).toBe(b.message);
    expect((await readBeneficiary(t.app, key, owner.id)).pending_requests).toHaveLength(1);
  });
});

describe("invitation e-mail and token storage", () => {
  it("in sandbox the invitation to a Beneficiary is captured, not sent: the sandbox mailbox shows it with the link", async () => {
    const beneficiary = await createBeneficiary(t.app, key, { email: `invitee-${randomUUID()}@example.com` });
    const link = await mintLink(t.app, key, beneficiary.id, "full_onboarding", { send_email: true });
    expect(link.body.email_sent).toBe(true);

    const db = t.runtime.deps.database.db;
    const jobs = await queryRows<{ id: string }>(
      db,
      sql`select id from jobs where type = 'mail.send' and payload->>'idempotency_key' = ${`collection-invitation:${link.id}`}`,
    );
    expect(jobs).toEqual([]);
    const mailbox = await t.app.inject({
      method: "GET",
      url: `/v1/sandbox/emails?to=${encodeURIComponent(beneficiary.email)}`,
      headers: bearer(key),
    });
    const [captured, ...others] = (mailbox.json() as { emails: Array<Record<string, string>> }).emails;
    expect(others).toEqual([]);
    expect(captured?.kind).toBe("collection_invitation");
    expect(captured?.to).toBe(beneficiary.email);
    expect(captured?.subject).toContain("Globex Payouts");
    expect(captured?.text).toContain(link.url);
    expect(captured?.html).toContain(link.url);
  });

  it("in production send_email queues a sealed mail job carrying the link; no table holds the token in clear, only its SHA-256", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.production, { email: `invitee-${randomUUID()}@example.com` });
    const link = await mintLink(t.app, biz.keys.production, beneficiary.id, "full_onboarding", { send_email: true });
    expect(link.body.email_sent).toBe(true);
    const sandboxLink = await mintLink(t.app, key, (await createBeneficiary(t.app, key)).id, "full_onboarding", {
      send_email: true,
    });

    const db = t.runtime.deps.database.db;
    const jobs = await queryRows<{ payload: { sealed: string; idempotency_key: string } }>(
      db,
      sql`select payload from jobs where type = 'mail.send' and payload->>'idempotency_key' = ${`collection-invitation:${link.id}`}`,
    );
    expect(jobs).toHaveLength(1);
    const message = JSON.parse(t.runtime.deps.cipher.decrypt(jobs[0]?.payload.sealed ?? "")) as Record<string, string>;
    expect(message.to).toBe(beneficiary.email);
    expect(message.subject).toContain("Globex Payouts");
    expect(message.text).toContain(link.url);
    expect(message.html).toContain(link.url);

    const stored = await queryRows<{ token_hash: string }>(
      db,
      sql`select token_hash from collection_requests where id = ${link.id}`,
    );
    expect(stored[0]?.token_hash).toBe(createHash("sha256").update(link.token).digest("hex"));

    // Every table, every row, as text: neither raw token appears (the captured sandbox invitation included).
    const tables = await queryRows<{ table_name: string }>(
      db,
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    for (const { table_name } of tables) {
      const rows = await queryRows<Record<string, unknown>>(db, sql.raw(`select * from "${table_name}"`));
      expect(JSON.stringify(rows), `table ${table_name}`).not.toContain(link.token);
      expect(JSON.stringify(rows), `table ${table_name}`).not.toContain(sandboxLink.token);
    }
  });
});

describe("OpenAPI", () => {
  it("documents both routes with their success codes, and keeps the hosted pages out of the API description", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/v1/openapi.json" })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; description?: string }>>;
      components: { schemas: Record<string, unknown> };
    };
    const create = doc.paths["/v1/beneficiaries/{id}/collection-requests"]?.post;
    const cancel = doc.paths["/v1/beneficiaries/{id}/collection-requests/{requestId}"]?.delete;
    expect(Object.keys(create?.responses ?? {})).toEqual(
      expect.arrayContaining(["201", "400", "401", "403", "404", "422", "429"]),
    );
    expect(Object.keys(cancel?.responses ?? {})).toEqual(expect.arrayContaining(["204", "401", "403", "404"]));
    expect(create?.description).toContain("only a hash");
    expect(cancel?.description).toContain("Idempotent");
    expect(Object.keys(doc.paths).some((p) => p.startsWith("/collect"))).toBe(false);
    expect(doc.components.schemas).toHaveProperty("CollectionRequestCreated");
    expect(doc.components.schemas).toHaveProperty("TaxDocument");
  });
});
