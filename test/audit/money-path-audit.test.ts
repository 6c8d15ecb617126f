// Every act that changes where money goes, or takes the payees' list out, is in the audit log with its actor
// (the key or the person) and masked account details only: webhook subscriptions (created, URL changed,
// deleted), branding, bank accounts added (API, import) and removed, declared destinations, payouts created
// (one entry per bulk batch) and canceled, and the Beneficiary export.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { sessionHeaders, signIn } from "../helpers/sessions.js";
import type { TestApp } from "../helpers/test-app.js";
import { createPayout, newKey, payableBeneficiary } from "../payouts/payout-fixtures.js";
import { startWebhookTestBed, type WebhookTestBed } from "../webhooks/webhook-test-bed.js";

let bed: WebhookTestBed;
let t: TestApp;
let business: RegisteredBusiness;
let key: string;

interface AuditRecord {
  action: string;
  environment: string | null;
  actor: { user_id: string | null; membership_id: string | null; api_key_id: string | null; session_id: string | null };
  subject: { type: string; id: string } | null;
  details: Record<string, unknown>;
}

async function audit(action: string): Promise<AuditRecord[]> {
  const response = await t.app.inject({ method: "GET", url: `/v1/audit-records?action=${action}`, headers: bearer(key) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().audit_records;
}

/** The key's actor, as every entry made with it must name it. */
const byKey = (environment: "sandbox" | "production" = "sandbox") =>
  expect.objectContaining({ api_key_id: business.keyIds[environment], user_id: business.userId });

beforeAll(async () => {
  // The webhook test bed: an app whose subscription check reaches a local HTTPS receiver.
  bed = await startWebhookTestBed();
  t = bed.testApp;
  business = await registerBusiness(t.app, "Money Path Audit Co");
  key = business.keys.sandbox;
});
afterAll(async () => {
  await bed?.close();
});

describe("the audit log of money paths", () => {
  it("records webhook subscriptions created, re-pointed and deleted, keeping only the URL's origin", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/v1/webhook-subscriptions",
      headers: bearer(key),
      payload: { url: `${bed.receiver.origin}/hooks?token=receiver-secret`, enabled_events: ["payout.disbursed"] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().subscription.id;
    const changed = await t.app.inject({
      method: "PATCH",
      url: "/v1/webhook-subscriptions",
      headers: bearer(key),
      payload: { url: `${bed.receiver.origin}/other?token=x` },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const deleted = await t.app.inject({ method: "DELETE", url: "/v1/webhook-subscriptions", headers: bearer(key) });
    expect(deleted.statusCode).toBe(204);

    const [create] = await audit("webhook_subscription_created");
    expect(create).toMatchObject({
      environment: "sandbox",
      actor: byKey(),
      subject: { type: "webhook_subscription", id },
      details: { url_origin: bed.receiver.origin, enabled_events: ["payout.disbursed"] },
    });
    const [change] = await audit("webhook_subscription_changed");
    expect(change).toMatchObject({
      actor: byKey(),
      details: { url_changed: true, url_origin: bed.receiver.origin, previous_url_origin: bed.receiver.origin },
    });
    const [gone] = await audit("webhook_subscription_deleted");
    expect(gone).toMatchObject({ actor: byKey(), subject: { type: "webhook_subscription", id } });
    // The receiver's token in the query string is in no entry.
    for (const record of [create, change, gone]) expect(JSON.stringify(record)).not.toContain("token");
  });

  it("records branding changes by a person's session", async () => {
    const session = await signIn(t.app, business.email);
    const response = await t.app.inject({
      method: "PATCH",
      url: "/v1/branding",
      headers: sessionHeaders(session),
      payload: { display_name: "Money Path Payouts", brand_color: "#1d4ed8" },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [record] = await audit("branding_changed");
    expect(record).toMatchObject({
      environment: "sandbox",
      actor: { session_id: session.body.session.id, api_key_id: null, user_id: business.userId },
      details: { display_name: "Money Path Payouts", brand_color: "#1d4ed8" },
    });
  });

  it("records bank accounts added and removed, and declared-destination changes, masked", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const account = await registerBankAccount(t.app, key, beneficiary.id);
    const declared = await t.app.inject({
      method: "PUT",
      url: `/v1/beneficiaries/${beneficiary.id}/declared-destination`,
      headers: bearer(key),
      payload: { destination_id: account.id },
    });
    expect(declared.statusCode, declared.body).toBe(200);
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/v1/beneficiaries/${beneficiary.id}/bank-accounts/${account.id}`,
      headers: bearer(key),
    });
    expect(removed.statusCode, removed.body).toBe(204);

    const masked = { beneficiary_id: beneficiary.id, kind: "bank_account", country: "DE", currency: "EUR", last4: "3000" };
    expect(await audit("bank_account_added")).toContainEqual(
      expect.objectContaining({ actor: byKey(), subject: { type: "bank_account", id: account.id }, details: masked }),
    );
    expect(await audit("bank_account_removed")).toContainEqual(
      expect.objectContaining({ actor: byKey(), subject: { type: "bank_account", id: account.id }, details: masked }),
    );
    const changes = (await audit("declared_destination_changed")).filter((r) => r.subject?.id === beneficiary.id);
    // Newest first: cleared by the deletion, then declared.
    expect(changes.map((r) => [r.details.reason, r.details.destination_id])).toEqual([
      ["destination_deleted", null],
      ["declared", account.id],
    ]);
    expect(changes[1]).toMatchObject({ actor: byKey(), details: { changed_by: "business", destination_last4: "3000" } });
    // No full account number anywhere.
    const everything = await t.app.inject({ method: "GET", url: "/v1/audit-records?limit=200", headers: bearer(key) });
    expect(everything.body).not.toContain(GERMAN_IBAN_ACCOUNT.iban);
    expect(everything.body).not.toContain("0532013000");
  });

  it("records the bank accounts an import adds, in one entry", async () => {
    const rows = [1, 2].map((i) => ({
      email: `imported-${i}-${newKey()}@example.com`,
      first_name: `First${i}`,
      last_name: `Last${i}`,
      country_of_residence: "DE",
      date_of_birth: "1990-05-17",
      bank: GERMAN_IBAN_ACCOUNT,
    }));
    const response = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries/import",
      headers: bearer(key),
      payload: { rows },
    });
    expect(response.statusCode, response.body).toBe(200);
    const created = response.json().results.filter((r: { status: string }) => r.status === "created");
    expect(created).toHaveLength(2);
    const [record] = await audit("beneficiaries_imported");
    expect(record).toMatchObject({ actor: byKey(), details: { beneficiaries: 2 } });
    expect(
      ((record as AuditRecord).details.bank_accounts as Array<{ beneficiary_id: string; last4: string }>)
        .map((a) => a.beneficiary_id)
        .sort(),
    ).toEqual(created.map((r: { beneficiary_id: string }) => r.beneficiary_id).sort());
  });

  it("records a payout's creation and cancellation, and a bulk batch as one entry", async () => {
    // Production: the sandbox never cancels (its simulator moves payouts on at once).
    const production = business.keys.production;
    const payee = await payableBeneficiary(t.app, production);
    const payout = await createPayout(t.app, production, { beneficiary_id: payee.beneficiaryId, amount_minor: 4321 });
    const canceled = await t.app.inject({
      method: "POST",
      url: `/v1/payouts/${payout.payout_id}/cancel`,
      headers: bearer(production),
      payload: { reason: "duplicate" },
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(await audit("payout_created")).toContainEqual(
      expect.objectContaining({
        actor: byKey("production"),
        subject: { type: "payout", id: payout.payout_id },
        details: expect.objectContaining({ amount_minor: 4321, currency: "EUR", destination_last4: payee.last4 }),
      }),
    );
    expect(await audit("payout_canceled")).toContainEqual(
      expect.objectContaining({ actor: byKey("production"), subject: { type: "payout", id: payout.payout_id } }),
    );

    const uploadId = newKey("upload");
    const bulk = await t.app.inject({
      method: "POST",
      url: "/v1/payouts/bulk",
      headers: bearer(production),
      payload: {
        uploadId,
        rows: [100, 200, 300].map((amount_minor) => ({ beneficiary_id: payee.beneficiaryId, amount_minor, currency: "EUR" })),
      },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json().created).toBe(3);
    const batches = (await audit("payouts_created")).filter((r) => r.subject?.id === uploadId);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({
      actor: byKey("production"),
      subject: { type: "upload", id: uploadId },
      details: { count: 3, amount_minor_by_currency: { EUR: 600 } },
    });
    expect(((batches[0] as AuditRecord).details.payout_ids as string[]).sort()).toEqual(
      bulk
        .json()
        .results.map((r: { payout_id: string }) => r.payout_id)
        .sort(),
    );
    // A re-upload replays and creates nothing: no second entry.
    await t.app.inject({
      method: "POST",
      url: "/v1/payouts/bulk",
      headers: bearer(production),
      payload: {
        uploadId,
        rows: [100, 200, 300].map((amount_minor) => ({ beneficiary_id: payee.beneficiaryId, amount_minor, currency: "EUR" })),
      },
    });
    expect((await audit("payouts_created")).filter((r) => r.subject?.id === uploadId)).toHaveLength(1);
  });

  it("records the Beneficiary export", async () => {
    const response = await t.app.inject({ method: "GET", url: "/v1/beneficiaries/export", headers: bearer(key) });
    expect(response.statusCode).toBe(200);
    const [record] = await audit("beneficiaries_exported");
    expect(record).toMatchObject({ environment: "sandbox", actor: byKey(), subject: { type: "export" } });
  });
});
