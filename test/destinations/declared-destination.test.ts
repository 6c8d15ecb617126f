// PUT /v1/beneficiaries/{id}/declared-destination: the destination a payout goes to when it names none.
// A change is announced to the Beneficiary by e-mail: in sandbox captured in the sandbox mailbox (read through
// the API), or delivered when the Beneficiary is one of the Business's verified people (a real SMTP server on
// loopback reads it).
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { destinations } from "../../src/modules/destinations/destinations.schema.js";
import {
  createApiKey,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import type { TestApp } from "../helpers/test-app.js";
import { detailCodes, type ExpectedActor, expectErrorEnvelope } from "../http/error-envelope.js";
import { type ApiCall, CORRIDORS, type MailTestBed, useMailTestBed, VISA_CARD } from "./destination-fixtures.js";

type Json = Record<string, unknown>;

const BUSINESS_NAME = "Contoso Freelance Pay";

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

const declaredPath = (beneficiaryId: string) => `/v1/beneficiaries/${beneficiaryId}/declared-destination`;
const declare = (beneficiaryId: string, destinationId: unknown) =>
  call("PUT", declaredPath(beneficiaryId), { destination_id: destinationId });

async function register(beneficiaryId: string, body: Json, path = "bank-accounts"): Promise<Json & { id: string }> {
  const response = await call("POST", `/v1/beneficiaries/${beneficiaryId}/${path}`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Json & { id: string };
}

/** The messages issued since the test began: in sandbox, those to Beneficiaries are captured, not delivered. */
const sentMail = () => bed.issuedMail();

/** Every run of 5 characters of `value`: a mail that contains none shows at most the last four. */
function windowsOf(value: string, size = 5): string[] {
  const windows: string[] = [];
  for (let start = 0; start + size <= value.length; start += 1) windows.push(value.slice(start, start + size));
  return windows;
}

describe("PUT /v1/beneficiaries/{id}/declared-destination", () => {
  it("answers 200 with the Beneficiary and declared_destination_id set, and e-mails the Beneficiary", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox, { email: "lena.payee@example.test" });
    const account = await register(beneficiary.id, CORRIDORS.de_iban.body);
    expect(beneficiary.declared_destination_id).toBeNull();

    const response = await declare(beneficiary.id, account.id);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as Json;
    expect(body).toMatchObject({ id: beneficiary.id, email: "lena.payee@example.test", declared_destination_id: account.id });
    expect(body.updated_at).toBe(t.clock.now().toISOString());
    const read = await call("GET", `/v1/beneficiaries/${beneficiary.id}`);
    expect(read.json().declared_destination_id).toBe(account.id);

    const mail = await sentMail();
    expect(mail).toHaveLength(1);
    const [message] = mail;
    expect(message?.disposition).toBe("captured");
    expect(message?.envelopeTo).toEqual(["lena.payee@example.test"]);
    expect(message?.to).toBe("lena.payee@example.test");
    expect(message?.subject).toContain(BUSINESS_NAME);
    expect(message?.text).toContain(BUSINESS_NAME);
    expect(message?.html).toContain(BUSINESS_NAME);
    expect(message?.text).toContain("ending in 3000");
    expect(message?.html).toContain("ending in 3000");
    for (const part of [message?.raw ?? "", message?.text ?? "", message?.html ?? ""]) {
      for (const window of windowsOf(CORRIDORS.de_iban.full)) expect(part).not.toContain(window);
    }
  });

  it("to the Business's own verified person the e-mail is delivered over SMTP, showing only the last four", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox, { email: biz.email });
    const account = await register(beneficiary.id, CORRIDORS.us_aba.body);
    expect((await declare(beneficiary.id, account.id)).statusCode).toBe(200);

    const [message, ...others] = await sentMail();
    expect(others).toEqual([]);
    expect(message?.disposition).toBe("delivered");
    expect(message?.envelopeTo).toEqual([biz.email]);
    expect(message?.subject).toBe(`${BUSINESS_NAME}: your payout account changed`);
    expect(message?.text).toContain("ending in 0983");
    expect(message?.html).toContain("ending in 0983");
    for (const window of windowsOf(CORRIDORS.us_aba.full)) expect(message?.raw).not.toContain(window);
  });

  it("naming the current declaration again changes nothing and sends no second e-mail", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const account = await register(beneficiary.id, CORRIDORS.mx_clabe.body);
    const first = await declare(beneficiary.id, account.id);
    expect(first.statusCode).toBe(200);
    expect(await sentMail()).toHaveLength(1);

    t.clock.advance(60_000);
    const again = await declare(beneficiary.id, account.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await sentMail()).toHaveLength(1);
  });

  it("a change to another destination is announced again, naming the new last four only", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const iban = await register(beneficiary.id, CORRIDORS.de_iban.body);
    const card = await register(beneficiary.id, VISA_CARD, "cards");
    expect((await declare(beneficiary.id, iban.id)).statusCode).toBe(200);
    const changed = await declare(beneficiary.id, card.id);
    expect(changed.json().declared_destination_id).toBe(card.id);

    // A worker sends several messages at once, so they may arrive in either order.
    const mail = await sentMail();
    expect(mail).toHaveLength(2);
    const toCard = mail.filter((message) => message.text.includes("card ending in 4242"));
    const toAccount = mail.filter((message) => message.text.includes("account ending in 3000"));
    expect([toCard.length, toAccount.length]).toEqual([1, 1]);
    for (const message of mail) {
      for (const window of windowsOf("4242424242424242")) expect(message.raw).not.toContain(window);
    }
  });

  it("the last write wins: declaring, then deleting, then declaring another", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const a = await register(beneficiary.id, CORRIDORS.gb_sort_code.body);
    const b = await register(beneficiary.id, CORRIDORS.us_aba.body);
    expect((await declare(beneficiary.id, a.id)).json().declared_destination_id).toBe(a.id);
    expect((await declare(beneficiary.id, b.id)).json().declared_destination_id).toBe(b.id);
    expect((await declare(beneficiary.id, a.id)).json().declared_destination_id).toBe(a.id);
  });

  it("destination_id that is not a UUID is 400 validation_failed with invalid_uuid on destination_id", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    for (const value of ["not-a-uuid", "urn:uuid:0197a1f2-0000-7000-8000-000000000001", ""]) {
      const error = expectErrorEnvelope(await declare(beneficiary.id, value), { status: 400, code: "validation_failed", actor });
      expect(detailCodes(error)).toEqual(["destination_id:invalid_uuid"]);
    }
    const missing = expectErrorEnvelope(await call("PUT", declaredPath(beneficiary.id), {}), {
      status: 400,
      code: "validation_failed",
      actor,
    });
    expect(detailCodes(missing)).toEqual(["destination_id:required"]);
    const wrongType = expectErrorEnvelope(await declare(beneficiary.id, 42), { status: 400, code: "validation_failed", actor });
    expect(detailCodes(wrongType)).toEqual(["destination_id:invalid_type"]);
    expect(await sentMail()).toEqual([]);
  });

  it("an unknown Beneficiary is 404 not_found", async () => {
    const response = await declare("0197a1f2-0000-7000-8000-0000000000cc", "0197a1f2-0000-7000-8000-0000000000dd");
    expectErrorEnvelope(response, { status: 404, code: "not_found", actor });
  });

  it("an unknown, deleted or other Beneficiary's destination is 404 BANK_ACCOUNT_NOT_FOUND", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    await register(beneficiary.id, CORRIDORS.de_iban.body);
    expectErrorEnvelope(await declare(beneficiary.id, "0197a1f2-0000-7000-8000-0000000000dd"), {
      status: 404,
      code: "BANK_ACCOUNT_NOT_FOUND",
      actor,
    });

    const deleted = await register(beneficiary.id, CORRIDORS.us_aba.body);
    expect((await call("DELETE", `/v1/beneficiaries/${beneficiary.id}/bank-accounts/${deleted.id}`)).statusCode).toBe(204);
    expectErrorEnvelope(await declare(beneficiary.id, deleted.id), { status: 404, code: "BANK_ACCOUNT_NOT_FOUND", actor });

    const someoneElse = await createBeneficiary(t.app, biz.keys.sandbox);
    const theirs = await register(someoneElse.id, CORRIDORS.gb_sort_code.body);
    expectErrorEnvelope(await declare(beneficiary.id, theirs.id), { status: 404, code: "BANK_ACCOUNT_NOT_FOUND", actor });

    const otherBusiness = await registerBusiness(t.app, "Not Contoso");
    const foreign = await createBeneficiary(t.app, otherBusiness.keys.sandbox);
    const foreignAccount = await registerBankAccount(t.app, otherBusiness.keys.sandbox, foreign.id);
    expectErrorEnvelope(await declare(beneficiary.id, foreignAccount.id), { status: 404, code: "BANK_ACCOUNT_NOT_FOUND", actor });

    // Nothing changed, nothing was sent.
    expect((await call("GET", `/v1/beneficiaries/${beneficiary.id}`)).json().declared_destination_id).toBeNull();
    expect(await sentMail()).toEqual([]);
  });

  it("an unvalidated destination (SWIFT corridor) is 422 BANK_ACCOUNT_NOT_VALIDATED", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const swift = await register(beneficiary.id, CORRIDORS.jp_swift.body);
    expect(swift.payout_usable).toBe(false);
    expectErrorEnvelope(await declare(beneficiary.id, swift.id), { status: 422, code: "BANK_ACCOUNT_NOT_VALIDATED", actor });
    expect((await call("GET", `/v1/beneficiaries/${beneficiary.id}`)).json().declared_destination_id).toBeNull();
    expect(await sentMail()).toEqual([]);

    // Once the rail has verified it, it is payout-usable and can be declared.
    await t.runtime.deps.database.db.update(destinations).set({ status: "verified" }).where(eq(destinations.id, swift.id));
    expect((await declare(beneficiary.id, swift.id)).statusCode).toBe(200);
  });

  it("a destination the rail refused is 422 BANK_ACCOUNT_REJECTED", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const account = await register(beneficiary.id, CORRIDORS.de_iban.body);
    await t.runtime.deps.database.db
      .update(destinations)
      .set({ status: "rejected", railRejectionReason: "Account closed" })
      .where(eq(destinations.id, account.id));
    expectErrorEnvelope(await declare(beneficiary.id, account.id), { status: 422, code: "BANK_ACCOUNT_REJECTED", actor });
  });

  it("an archived Beneficiary is 422 BENEFICIARY_ARCHIVED", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const account = await register(beneficiary.id, CORRIDORS.de_iban.body);
    expect((await call("POST", `/v1/beneficiaries/${beneficiary.id}/archive`)).statusCode).toBe(200);
    expectErrorEnvelope(await declare(beneficiary.id, account.id), { status: 422, code: "BENEFICIARY_ARCHIVED", actor });
    expect(await sentMail()).toEqual([]);
  });

  it("a read-only key is 403 forbidden", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    const account = await register(beneficiary.id, CORRIDORS.de_iban.body);
    const readOnly = await createApiKey(t.app, biz.keys.sandbox, "business_read_only");
    const response = await call("PUT", declaredPath(beneficiary.id), { destination_id: account.id }, readOnly.key);
    expectErrorEnvelope(response, { status: 403, code: "forbidden", actor: { ...actor, role: "business_read_only" } });
  });
});

describe("the derived status", () => {
  it("becomes ready once acknowledged, identity complete and a payout-usable destination exists", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox);
    expect(beneficiary.status).toBe("pending_details");

    const completed = await call("PUT", `/v1/beneficiaries/${beneficiary.id}`, {
      first_name: "Lena",
      last_name: "Payee",
      country_of_residence: "DE",
    });
    expect(completed.json()).toMatchObject({ identity_complete: true, status: "pending_kyc" });

    const acknowledged = await call("POST", `/v1/beneficiaries/${beneficiary.id}/acknowledge`);
    expect(acknowledged.json()).toMatchObject({ compliance_status: "compliant", status: "action_required" });

    // A SWIFT-only destination is unvalidated, but registering it for a compliant Beneficiary enrolls it with the
    // rail, and the rail's verification makes it payout-usable.
    const swift = await register(beneficiary.id, CORRIDORS.jp_swift.body);
    expect(swift).toMatchObject({ validation_status: "unvalidated", status: "verified", payout_usable: true });
    expect((await call("GET", `/v1/beneficiaries/${beneficiary.id}`)).json().status).toBe("ready");

    const usable = await register(beneficiary.id, CORRIDORS.de_iban.body);
    expect((await call("GET", `/v1/beneficiaries/${beneficiary.id}`)).json().status).toBe("ready");

    const declared = await declare(beneficiary.id, usable.id);
    expect(declared.json()).toMatchObject({ status: "ready", declared_destination_id: usable.id });

    // The list agrees (its status filter is SQL, the read is TypeScript).
    const listed = await call("GET", `/v1/beneficiaries?status=ready&email=${encodeURIComponent(beneficiary.email)}`);
    expect((listed.json() as { beneficiaries: Json[] }).beneficiaries.map((b) => b.id)).toEqual([beneficiary.id]);
  });

  it("is not ready without the acknowledgment, even with identity and a usable destination", async () => {
    const beneficiary = await createBeneficiary(t.app, biz.keys.sandbox, {
      first_name: "Noa",
      last_name: "Payee",
      country_of_residence: "FR",
    });
    await register(beneficiary.id, CORRIDORS.de_iban.body);
    expect((await call("GET", `/v1/beneficiaries/${beneficiary.id}`)).json().status).toBe("pending_kyc");
  });
});
