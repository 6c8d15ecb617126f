// Listing a Beneficiary's destinations (every status, masked, tenant-scoped) and deleting them
// (idempotent, scoped to the Beneficiary, clearing the declared destination and telling the Beneficiary by
// e-mail: in sandbox the message to a Beneficiary is captured in the sandbox mailbox and read through the API).
import { and, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { destinations } from "../../src/modules/destinations/destinations.schema.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import { createBeneficiary, type RegisteredBusiness, registerBankAccount, registerBusiness } from "../helpers/factories.js";
import type { TestApp } from "../helpers/test-app.js";
import { type ExpectedActor, expectErrorEnvelope } from "../http/error-envelope.js";
import {
  type ApiCall,
  CORRIDORS,
  expectSpecDestinationFields,
  type MailTestBed,
  registeredEvents,
  useMailTestBed,
  VISA_CARD,
} from "./destination-fixtures.js";

type Json = Record<string, unknown>;

const BUSINESS_NAME = "Northwind Payroll";

const testBed = useMailTestBed(BUSINESS_NAME);
let t: TestApp;
let biz: RegisteredBusiness;
let call: ApiCall;
let actor: ExpectedActor;
let bed: MailTestBed;

beforeAll(() => {
  bed = testBed();
  ({ t, biz, call, actor } = bed);
});
beforeEach(async () => {
  // Each test counts only its own messages: send what earlier tests left queued, then forget it.
  await bed.forgetMail();
});
const bankAccounts = (beneficiaryId: string) => `/v1/beneficiaries/${beneficiaryId}/bank-accounts`;
const bankAccount = (beneficiaryId: string, accountId: string) => `/v1/beneficiaries/${beneficiaryId}/bank-accounts/${accountId}`;

async function register(beneficiaryId: string, body: Json, path = "bank-accounts"): Promise<Json & { id: string }> {
  const response = await call("POST", `/v1/beneficiaries/${beneficiaryId}/${path}`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Json & { id: string };
}

async function listIds(beneficiaryId: string): Promise<string[]> {
  const response = await call("GET", bankAccounts(beneficiaryId));
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { bank_accounts: Json[] }).bank_accounts.map((d) => String(d.id));
}

async function readBeneficiary(beneficiaryId: string): Promise<Json> {
  const response = await call("GET", `/v1/beneficiaries/${beneficiaryId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Json;
}

async function declare(beneficiaryId: string, destinationId: string): Promise<void> {
  const response = await call("PUT", `/v1/beneficiaries/${beneficiaryId}/declared-destination`, {
    destination_id: destinationId,
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** The messages issued since the last forgetMail(): in sandbox, those to Beneficiaries are captured. */
const sentMail = () => bed.issuedMail();

describe("GET /v1/beneficiaries/{id}/bank-accounts", () => {
  it("lists every live destination in every status, masked, oldest first", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const iban = await register(beneficiary.id, CORRIDORS.de_iban.body);
    const aba = await register(beneficiary.id, CORRIDORS.us_aba.body);
    const swift = await register(beneficiary.id, CORRIDORS.jp_swift.body);
    const pix = await register(beneficiary.id, CORRIDORS.br_pix_email.body);
    const card = await register(beneficiary.id, VISA_CARD, "cards");
    // The rail's verdicts (no API sets them yet): the US account was refused, the JP one confirmed.
    const db = t.runtime.deps.database.db;
    await db
      .update(destinations)
      .set({ status: "rejected", railRejectionReason: "Account closed" })
      .where(eq(destinations.id, aba.id));
    await db.update(destinations).set({ status: "verified" }).where(eq(destinations.id, swift.id));

    const response = await call("GET", bankAccounts(beneficiary.id));
    expect(response.statusCode).toBe(200);
    const listed = (response.json() as { bank_accounts: Json[] }).bank_accounts;
    expect(Object.keys(response.json() as Json)).toEqual(["bank_accounts"]);
    expect(listed.map((d) => d.id)).toEqual([iban.id, aba.id, swift.id, pix.id, card.id]);
    for (const destination of listed) expectSpecDestinationFields(destination);

    const byId = new Map(listed.map((d) => [d.id, d]));
    expect(byId.get(iban.id)).toMatchObject({
      status: "unverified",
      validation_status: "validated",
      payout_usable: true,
      last4: "3000",
    });
    expect(byId.get(aba.id)).toMatchObject({
      status: "rejected",
      validation_status: "validated",
      payout_usable: false,
      rail_rejection_reason: "Account closed",
      last4: "0983",
      account_type: "savings",
    });
    expect(byId.get(swift.id)).toMatchObject({ status: "verified", validation_status: "unvalidated", payout_usable: true });
    expect(byId.get(pix.id)).toMatchObject({ last4: "j***@example.com.br", pix_key_type: "email" });
    expect(byId.get(card.id)).toMatchObject({ kind: "card", last4: "4242", card_network: "visa", account_type: "card" });

    for (const corridor of [CORRIDORS.de_iban, CORRIDORS.us_aba, CORRIDORS.jp_swift, CORRIDORS.br_pix_email]) {
      expect(response.body).not.toContain(corridor.full);
    }
    expect(response.body).not.toContain("4242424242424242");
    for (const destination of listed) {
      for (const field of ["iban", "account_number", "clabe", "pix_key", "card_number", "routing_code"]) {
        expect(destination).not.toHaveProperty(field);
      }
    }
  });

  it("lists nothing for a Beneficiary without destinations, and still lists an archived Beneficiary's", async () => {
    const empty = await createBeneficiary(t.app, biz.keys.sandbox);
    expect((await call("GET", bankAccounts(empty.id))).json()).toEqual({ bank_accounts: [] });

    const archived = await createBeneficiary(t.app, biz.keys.sandbox);
    const account = await register(archived.id, CORRIDORS.gb_sort_code.body);
    expect((await call("POST", `/v1/beneficiaries/${archived.id}/archive`)).statusCode).toBe(200);
    expect(await listIds(archived.id)).toEqual([account.id]);
  });

  it("answers 404 not_found for an unknown Beneficiary and for another tenant's, exactly alike", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    await register(beneficiary.id, CORRIDORS.de_iban.body);
    const other = await registerBusiness(t.app, "Other Business");
    const otherActor: ExpectedActor = {
      user_id: other.userId,
      membership_id: other.membershipId,
      role: "business_admin",
      environment: "sandbox",
    };
    const missing = expectErrorEnvelope(
      await call("GET", bankAccounts("0197a1f2-0000-7000-8000-0000000000ff"), undefined, other.keys.sandbox),
      {
        status: 404,
        code: "not_found",
        actor: otherActor,
      },
    );
    const crossed = expectErrorEnvelope(await call("GET", bankAccounts(beneficiary.id), undefined, other.keys.sandbox), {
      status: 404,
      code: "not_found",
      actor: otherActor,
    });
    expect(crossed.message).toBe(missing.message);
    // The same Business in its other environment does not see it either.
    expectErrorEnvelope(await call("GET", bankAccounts(beneficiary.id), undefined, biz.keys.production), {
      status: 404,
      code: "not_found",
      actor: { ...actor, environment: "production" },
    });
  });

  it("a malformed Beneficiary id is 400 bad_request", async () => {
    expectErrorEnvelope(await call("GET", bankAccounts("12345")), { status: 400, code: "bad_request", actor, details: true });
  });
});

describe("DELETE /v1/beneficiaries/{id}/bank-accounts/{accountId}", () => {
  it("answers 204 with no body; the destination leaves the listing; deleting again answers 204", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const keep = await register(beneficiary.id, CORRIDORS.de_iban.body);
    const doomed = await register(beneficiary.id, CORRIDORS.mx_clabe.body);
    const card = await register(beneficiary.id, VISA_CARD, "cards");

    const deleted = await call("DELETE", bankAccount(beneficiary.id, doomed.id));
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(deleted.body).toBe("");
    expect(await listIds(beneficiary.id)).toEqual([keep.id, card.id]);

    const again = await call("DELETE", bankAccount(beneficiary.id, doomed.id));
    expect(again.statusCode, again.body).toBe(204);
    expect(await listIds(beneficiary.id)).toEqual([keep.id, card.id]);

    // A card is deleted the same way.
    expect((await call("DELETE", bankAccount(beneficiary.id, card.id))).statusCode).toBe(204);
    expect(await listIds(beneficiary.id)).toEqual([keep.id]);

    // The row is kept (payouts already created keep its last four), marked deleted.
    const [row] = await t.runtime.deps.database.db.select().from(destinations).where(eq(destinations.id, doomed.id));
    expect(row?.deletedAt?.toISOString()).toBe(t.clock.now().toISOString());
    expect(row?.last4).toBe("7771");
    // Not the declared destination: no e-mail.
    expect(await sentMail()).toEqual([]);
  });

  it("the deleted account can be registered again as a new destination, with a new event", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const first = await register(beneficiary.id, CORRIDORS.us_aba.body);
    expect((await call("DELETE", bankAccount(beneficiary.id, first.id))).statusCode).toBe(204);
    const second = await register(beneficiary.id, CORRIDORS.us_aba.body);
    expect(second.id).not.toBe(first.id);
    expect(await listIds(beneficiary.id)).toEqual([second.id]);
    expect((await registeredEvents(t, beneficiary.id)).map((e) => (e.data as Json).bank_account_id)).toEqual([
      first.id,
      second.id,
    ]);
  });

  it("an unknown account id is 404 BANK_ACCOUNT_NOT_FOUND", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const response = await call("DELETE", bankAccount(beneficiary.id, "0197a1f2-0000-7000-8000-0000000000aa"));
    expectErrorEnvelope(response, { status: 404, code: "BANK_ACCOUNT_NOT_FOUND", actor });
  });

  it("an unknown Beneficiary is 404 not_found", async () => {
    const response = await call(
      "DELETE",
      bankAccount("0197a1f2-0000-7000-8000-0000000000bb", "0197a1f2-0000-7000-8000-0000000000aa"),
    );
    expectErrorEnvelope(response, { status: 404, code: "not_found", actor });
  });

  it("a malformed id is 400 bad_request naming the parameter", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const account = expectErrorEnvelope(await call("DELETE", bankAccount(beneficiary.id, "not-a-uuid")), {
      status: 400,
      code: "bad_request",
      actor,
      details: true,
    });
    expect(account.details?.map((d) => d.field)).toEqual(["accountId"]);
    const owner = expectErrorEnvelope(await call("DELETE", bankAccount("42", "0197a1f2-0000-7000-8000-0000000000aa")), {
      status: 400,
      code: "bad_request",
      actor,
      details: true,
    });
    expect(owner.details?.map((d) => d.field)).toEqual(["id"]);
    // A `urn:uuid:` spelling is not a UUID path id either (it used to reach the database and fail with a 500).
    expectErrorEnvelope(await call("DELETE", bankAccount(beneficiary.id, "urn:uuid:0197a1f2-0000-7000-8000-0000000000aa")), {
      status: 400,
      code: "bad_request",
      actor,
      details: true,
    });
  });

  it("another Beneficiary's account id is 404 BANK_ACCOUNT_NOT_FOUND and leaves that account alone", async () => {
    const mine = await createBeneficiary(t.app, biz.keys.sandbox);
    const theirs = await createBeneficiary(t.app, biz.keys.sandbox);
    const theirAccount = await register(theirs.id, CORRIDORS.de_iban.body);
    expectErrorEnvelope(await call("DELETE", bankAccount(mine.id, theirAccount.id)), {
      status: 404,
      code: "BANK_ACCOUNT_NOT_FOUND",
      actor,
    });
    expect(await listIds(theirs.id)).toEqual([theirAccount.id]);

    // Another Business's account, named under one's own Beneficiary: the same answer.
    const other = await registerBusiness(t.app, "Elsewhere Inc");
    const foreign = await createBeneficiary(t.app, other.keys.sandbox);
    const foreignAccount = await registerBankAccount(t.app, other.keys.sandbox, foreign.id, CORRIDORS.de_iban.body);
    expectErrorEnvelope(await call("DELETE", bankAccount(mine.id, foreignAccount.id)), {
      status: 404,
      code: "BANK_ACCOUNT_NOT_FOUND",
      actor,
    });
    const [row] = await t.runtime.deps.database.db.select().from(destinations).where(eq(destinations.id, foreignAccount.id));
    expect(row?.deletedAt).toBeNull();
  });

  it("an archived Beneficiary's destination cannot be deleted (422 BENEFICIARY_ARCHIVED)", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const account = await register(beneficiary.id, CORRIDORS.de_iban.body);
    expect((await call("POST", `/v1/beneficiaries/${beneficiary.id}/archive`)).statusCode).toBe(200);
    expectErrorEnvelope(await call("DELETE", bankAccount(beneficiary.id, account.id)), {
      status: 422,
      code: "BENEFICIARY_ARCHIVED",
      actor,
    });
    expect(await listIds(beneficiary.id)).toEqual([account.id]);
  });

  it("deleting the declared destination clears declared_destination_id and e-mails the Beneficiary", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox, { email: "ana.payee@example.test" });
    const account = await register(beneficiary.id, CORRIDORS.de_iban.body);
    const other = await register(beneficiary.id, CORRIDORS.gb_sort_code.body);
    await declare(beneficiary.id, account.id);
    await bed.forgetMail();

    expect((await call("DELETE", bankAccount(beneficiary.id, account.id))).statusCode).toBe(204);
    const after = await readBeneficiary(beneficiary.id);
    expect(after.declared_destination_id).toBeNull();
    expect(await listIds(beneficiary.id)).toEqual([other.id]);

    const mail = await sentMail();
    expect(mail).toHaveLength(1);
    const [message] = mail;
    expect(message?.disposition).toBe("captured");
    expect(message?.envelopeTo).toEqual(["ana.payee@example.test"]);
    expect(message?.to).toBe("ana.payee@example.test");
    expect(message?.subject).toContain(BUSINESS_NAME);
    expect(message?.text).toContain(BUSINESS_NAME);
    expect(message?.html).toContain(BUSINESS_NAME);
    expect(message?.text).toMatch(/removed/);
    for (const body of [message?.raw, message?.text, message?.html]) {
      expect(body).not.toContain(CORRIDORS.de_iban.full);
      expect(body).not.toContain("DE89 3704 0044 0532 0130 00");
      expect(body).not.toContain("370400440532013000");
    }

    // Deleting it again is a no-op: no second e-mail.
    expect((await call("DELETE", bankAccount(beneficiary.id, account.id))).statusCode).toBe(204);
    expect(await sentMail()).toHaveLength(1);
    const mailJobs = await t.runtime.deps.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.type, "mail.send"), eq(jobs.status, "pending")));
    expect(mailJobs).toEqual([]);
  });

  it("clears the declared destination even when the path spells the account id in capitals", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const account = await register(beneficiary.id, CORRIDORS.de_iban.body);
    await declare(beneficiary.id, account.id);
    await bed.forgetMail();

    const deleted = await call("DELETE", bankAccount(beneficiary.id.toUpperCase(), account.id.toUpperCase()));
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await readBeneficiary(beneficiary.id)).declared_destination_id).toBeNull();
    expect(await sentMail()).toHaveLength(1);
  });

  it("deleting the last usable destination moves a ready Beneficiary to action_required", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox, {
      first_name: "Ana",
      last_name: "Payee",
      country_of_residence: "DE",
    });
    expect((await call("POST", `/v1/beneficiaries/${beneficiary.id}/acknowledge`)).statusCode).toBe(200);
    const account = await register(beneficiary.id, CORRIDORS.de_iban.body);
    expect((await readBeneficiary(beneficiary.id)).status).toBe("ready");
    expect((await call("DELETE", bankAccount(beneficiary.id, account.id))).statusCode).toBe(204);
    expect((await readBeneficiary(beneficiary.id)).status).toBe("action_required");
  });
});
