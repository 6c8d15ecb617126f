// The payee is told of every change of their declared destination, whoever made it, and the record says who:
// the declared-destination route, deleting the declared destination, and collection-link submissions of both
// scopes (including a link minted with send_email: false and submitted by the Business itself) each queue
// one notice e-mail naming the destination by its masked value only, set `declared_destination_change`, and
// append a row to the history.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { mintLink, PageSession, readBeneficiary } from "../collection/helpers.js";
import {
  bearer,
  createApiKey,
  createBeneficiary,
  GERMAN_IBAN_ACCOUNT,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { type QueuedMail, queuedMails } from "../helpers/queued-mail.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

type Json = Record<string, unknown>;

const BUSINESS = "Notice Board Payroll";
const US_NUMBER = "4417120983";
const US_ACCOUNT = { account_holder_name: "Nia Notice", country: "US", currency: "USD", routing_code: "021000021" };
const FULL_NUMBERS = [US_NUMBER, "DE89370400440532013000", "31926819", "370400440532013000"];

let t: TestApp;
let biz: RegisteredBusiness;
let key: string;

beforeAll(async () => {
  t = await buildTestApp();
  biz = await registerBusiness(t.app, BUSINESS);
  key = biz.keys.sandbox;
});
afterAll(async () => t?.close());

let payees = 0;
async function payee() {
  payees += 1;
  const email = `notice.payee.${payees}@example.test`;
  const beneficiary = await createBeneficiary(t.app, key, { email });
  return { id: beneficiary.id, email };
}

async function history(beneficiaryId: string) {
  return queryRows<Json>(
    t.runtime.deps.database.db,
    sql`select previous_destination_id, destination_id, changed_by, reason, api_key_id, membership_id, user_id,
          collection_request_id from beneficiary_declared_destination_changes
        where beneficiary_id = ${beneficiaryId}::uuid order by created_at, id`,
  );
}

function expectMasked(mail: QueuedMail) {
  for (const part of [mail.subject, mail.text, mail.html]) {
    for (const number of FULL_NUMBERS) expect(part).not.toContain(number);
  }
}

const declare = (beneficiaryId: string, destinationId: string, apiKey = key) =>
  t.app.inject({
    method: "PUT",
    url: `/v1/beneficiaries/${beneficiaryId}/declared-destination`,
    headers: bearer(apiKey),
    payload: { destination_id: destinationId },
  });

describe("changes made by the Business", () => {
  it("PUT declared-destination: one notice, and the record names the key, membership and user", async () => {
    const { id, email } = await payee();
    const account = await registerBankAccount(t.app, key, id);
    const other = await createApiKey(t.app, key, "business_admin", "ops desk");
    t.clock.advance(1_000);
    const response = await declare(id, account.id, other.key);
    expect(response.statusCode, response.body).toBe(200);
    const change = {
      changed_at: t.clock.now().toISOString(),
      changed_by: "business",
      reason: "declared",
      previous_destination_id: null,
      destination_id: account.id,
      api_key_id: other.id,
      membership_id: biz.membershipId,
      user_id: biz.userId,
      collection_request_id: null,
    };
    expect(response.json().declared_destination_change).toEqual(change);
    expect((await readBeneficiary(t.app, key, id)).declared_destination_change).toEqual(change);

    const mails = await queuedMails(t, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`${BUSINESS}: your payout account changed`);
    expect(mails[0]?.text).toContain(`${BUSINESS} changed where your payouts are sent.`);
    expect(mails[0]?.text).toContain("account ending in 3000 (Euro account in Germany)");
    for (const mail of mails) expectMasked(mail);

    // Naming it again changes nothing: no notice, no new record.
    expect((await declare(id, account.id)).statusCode).toBe(200);
    expect(await queuedMails(t, email)).toHaveLength(1);
    expect(await history(id)).toHaveLength(1);
  });

  it("deleting the declared destination clears it with a notice and a record", async () => {
    const { id, email } = await payee();
    const account = await registerBankAccount(t.app, key, id);
    expect((await declare(id, account.id)).statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/v1/beneficiaries/${id}/bank-accounts/${account.id}`,
      headers: bearer(key),
    });
    expect(deleted.statusCode).toBe(204);
    const read = await readBeneficiary(t.app, key, id);
    expect(read.declared_destination_id).toBeNull();
    expect(read.declared_destination_change).toMatchObject({
      changed_by: "business",
      reason: "destination_deleted",
      previous_destination_id: account.id,
      destination_id: null,
      api_key_id: biz.keyIds.sandbox,
    });
    const mails = await queuedMails(t, email);
    expect(mails.map((m) => m.subject)).toEqual([
      `${BUSINESS}: your payout account changed`,
      `${BUSINESS}: your payout account was removed`,
    ]);
    expect(mails[1]?.text).toContain(`${BUSINESS} removed the account your payouts were sent to.`);
    expect((await history(id)).map((row) => row.reason)).toEqual(["declared", "destination_deleted"]);
  });
});

describe("changes made through a collection link", () => {
  it("a payout_destination link minted with send_email false and submitted by the Business itself still tells the payee", async () => {
    const { id, email } = await payee();
    const theirs = await registerBankAccount(t.app, key, id);
    expect((await declare(id, theirs.id)).statusCode).toBe(200);
    const before = (await queuedMails(t, email)).length;

    // The Business mints a silent link and uses it itself to move the payouts to an account it registered.
    const link = await mintLink(t.app, key, id, "payout_destination", { send_email: false });
    expect(link.body.email_sent).toBe(false);
    const elsewhere = await registerBankAccount(t.app, key, id, { ...US_ACCOUNT, account_number: US_NUMBER });
    const submitted = await new PageSession(t.app).submit(link.path, { destination: elsewhere.id });
    expect(submitted.statusCode, submitted.body).toBe(200);

    const read = await readBeneficiary(t.app, key, id);
    expect(read.declared_destination_id).toBe(elsewhere.id);
    expect(read.declared_destination_change).toMatchObject({
      changed_by: "beneficiary_link",
      reason: "link_submitted",
      previous_destination_id: theirs.id,
      destination_id: elsewhere.id,
      api_key_id: null,
      membership_id: null,
      user_id: null,
      collection_request_id: link.id,
    });
    const mails = (await queuedMails(t, email)).slice(before);
    expect(mails).toHaveLength(1);
    const [notice] = mails;
    expect(notice?.subject).toBe(`${BUSINESS}: your payout account changed`);
    expect(notice?.text).toContain(`changed on the secure form ${BUSINESS} sent you`);
    expect(notice?.text).toContain("account ending in 0983 (US Dollar account in United States)");
    expect(notice?.text).toContain("If you did not make this change yourself");
    expect(notice?.html).toContain("ending in 0983");
    for (const mail of mails) expectMasked(mail);
    expect((await history(id)).at(-1)).toEqual({
      previous_destination_id: theirs.id,
      destination_id: elsewhere.id,
      changed_by: "beneficiary_link",
      reason: "link_submitted",
      api_key_id: null,
      membership_id: null,
      user_id: null,
      collection_request_id: link.id,
    });
  });

  it("a payout_destination link adding a new account: notice naming the new account's masked value", async () => {
    const { id, email } = await payee();
    const link = await mintLink(t.app, key, id, "payout_destination");
    const submitted = await new PageSession(t.app).submit(`${link.path}?country=US&currency=USD`, {
      destination: "new",
      "bank.account_holder_name": US_ACCOUNT.account_holder_name,
      "bank.country": "US",
      "bank.currency": "USD",
      "bank.routing_code": US_ACCOUNT.routing_code,
      "bank.account_number": US_NUMBER,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    // The invitation link was not e-mailed (send_email defaults to false): the one message is the notice.
    const mails = await queuedMails(t, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("account ending in 0983 (US Dollar account in United States)");
    for (const mail of mails) expectMasked(mail);
    expect((await readBeneficiary(t.app, key, id)).declared_destination_change).toMatchObject({
      changed_by: "beneficiary_link",
      previous_destination_id: null,
      collection_request_id: link.id,
    });
  });

  it("a full_onboarding link: notice and record; choosing the already declared account again sends nothing", async () => {
    const { id, email } = await payee();
    const account = await registerBankAccount(t.app, key, id, GERMAN_IBAN_ACCOUNT);
    const first = await mintLink(t.app, key, id, "full_onboarding");
    const identity = { first_name: "Nia", last_name: "Notice", country_of_residence: "DE" };
    const done = await new PageSession(t.app).submit(first.path, { ...identity, destination: account.id });
    expect(done.statusCode, done.body).toBe(200);
    expect(await queuedMails(t, email)).toHaveLength(1);
    expect((await readBeneficiary(t.app, key, id)).declared_destination_change).toMatchObject({
      changed_by: "beneficiary_link",
      reason: "link_submitted",
      destination_id: account.id,
      collection_request_id: first.id,
    });

    const second = await mintLink(t.app, key, id, "full_onboarding");
    const again = await new PageSession(t.app).submit(second.path, { ...identity, destination: account.id });
    expect(again.statusCode, again.body).toBe(200);
    expect(await queuedMails(t, email)).toHaveLength(1);
    expect((await readBeneficiary(t.app, key, id)).declared_destination_change).toMatchObject({
      collection_request_id: first.id,
    });
    expect(await history(id)).toHaveLength(1);
  });
});

describe("Beneficiaries whose declared destination was never set", () => {
  it("read declared_destination_change null (created, imported)", async () => {
    const { id } = await payee();
    expect((await readBeneficiary(t.app, key, id)).declared_destination_change).toBeNull();
    const imported = await t.app.inject({
      method: "POST",
      url: "/v1/beneficiaries/import",
      headers: bearer(key),
      payload: {
        rows: [{ email: "imported.notice@example.test", first_name: "Ima", last_name: "Port", bank: { ...GERMAN_IBAN_ACCOUNT } }],
      },
    });
    const importedId = String((imported.json().results as Json[])[0]?.beneficiary_id);
    expect(await readBeneficiary(t.app, key, importedId)).toMatchObject({
      declared_destination_id: null,
      declared_destination_change: null,
    });
    expect(await queuedMails(t, "imported.notice@example.test")).toEqual([]);
  });
});
