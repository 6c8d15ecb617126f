// Archiving closes the Beneficiary's live collection link for good: the page refuses it, pending_requests is
// empty, and un-archiving revives nothing. A link minted after un-archiving works.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import {
  bearer,
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { mintLink, PageSession, readBeneficiary } from "./helpers.js";

const DAY = 24 * 60 * 60 * 1000;

let t: TestApp;
let biz: RegisteredBusiness;
let key: string;

beforeAll(async () => {
  t = await buildTestApp();
  biz = await registerBusiness(t.app, "Archive Links Ltd");
  key = biz.keys.sandbox;
});
afterAll(async () => t?.close());

const action = (id: string, what: "archive" | "unarchive") =>
  t.app.inject({ method: "POST", url: `/v1/beneficiaries/${id}/${what}`, headers: bearer(key) });

const NEW_ACCOUNT = {
  destination: "new",
  "bank.account_holder_name": GERMAN_IBAN_ACCOUNT.account_holder_name,
  "bank.country": GERMAN_IBAN_ACCOUNT.country,
  "bank.currency": GERMAN_IBAN_ACCOUNT.currency,
  "bank.iban": GERMAN_IBAN_ACCOUNT.iban,
};

describe("archiving and collection links", () => {
  it("archive closes the live link; un-archive does not reopen it; a new link works", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const old = await mintLink(t.app, key, beneficiary.id, "payout_destination");
    // A browser that opened the form before the archive, and submits after it.
    const early = new PageSession(t.app);
    expect((await early.get(`${old.path}?country=DE&currency=EUR`)).statusCode).toBe(200);
    expect((await readBeneficiary(t.app, key, beneficiary.id)).pending_requests).toHaveLength(1);

    const archived = await action(beneficiary.id, "archive");
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json().pending_requests).toEqual([]);
    expect((await readBeneficiary(t.app, key, beneficiary.id)).pending_requests).toEqual([]);
    const closedPage = await new PageSession(t.app).get(old.path);
    expect(closedPage.statusCode).toBe(410);
    expect(closedPage.body).toContain("no longer active");

    const unarchived = await action(beneficiary.id, "unarchive");
    expect(unarchived.statusCode, unarchived.body).toBe(200);
    expect(unarchived.json()).toMatchObject({ archived_at: null, pending_requests: [] });
    expect((await readBeneficiary(t.app, key, beneficiary.id)).pending_requests).toEqual([]);

    // The old link stays dead: its page, and a submission from the form opened before the archive.
    const stillClosed = await new PageSession(t.app).get(old.path);
    expect(stillClosed.statusCode).toBe(410);
    expect(stillClosed.body).toContain("no longer active");
    const lateSubmit = await early.post(old.path, { csrf: "irrelevant", ...NEW_ACCOUNT });
    expect(lateSubmit.statusCode).toBe(410);
    const after = await readBeneficiary(t.app, key, beneficiary.id);
    expect(after.declared_destination_id).toBeNull();
    const accounts = await t.app.inject({
      method: "GET",
      url: `/v1/beneficiaries/${beneficiary.id}/bank-accounts`,
      headers: bearer(key),
    });
    expect(accounts.json().bank_accounts).toEqual([]);

    // Cancelling the closed request is the usual idempotent no-op.
    const cancel = await t.app.inject({
      method: "DELETE",
      url: `/v1/beneficiaries/${beneficiary.id}/collection-requests/${old.id}`,
      headers: bearer(key),
    });
    expect(cancel.statusCode).toBe(204);

    // A new link works.
    const fresh = await mintLink(t.app, key, beneficiary.id, "payout_destination");
    expect((await readBeneficiary(t.app, key, beneficiary.id)).pending_requests).toEqual([
      { id: fresh.id, scope: "payout_destination", expires_at: fresh.expires_at },
    ]);
    const submitted = await new PageSession(t.app).submit(`${fresh.path}?country=DE&currency=EUR`, NEW_ACCOUNT);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect((await readBeneficiary(t.app, key, beneficiary.id)).declared_destination_id).not.toBeNull();
  });

  it("the closed request is recorded as closed because of the archive, at the archive's time", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const link = await mintLink(t.app, key, beneficiary.id, "full_onboarding");
    t.clock.advance(60_000);
    await action(beneficiary.id, "archive");
    const [row] = await queryRows<{ closed_reason: string; closed_at: Date | string }>(
      t.runtime.deps.database.db,
      sql`select closed_reason, closed_at from collection_requests where id = ${link.id}`,
    );
    expect(row?.closed_reason).toBe("archived");
    expect(new Date(row?.closed_at ?? 0).toISOString()).toBe(t.clock.now().toISOString());
  });

  it("an expired link keeps saying it expired after an archive and un-archive", async () => {
    const beneficiary = await createBeneficiary(t.app, key);
    const link = await mintLink(t.app, key, beneficiary.id, "payout_destination");
    t.clock.advance(8 * DAY);
    await action(beneficiary.id, "archive");
    await action(beneficiary.id, "unarchive");
    const page = await new PageSession(t.app).get(link.path);
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain("This link has expired");
  });
});
