// `missing_for_ready`: what stands between a Beneficiary and `ready`, read from the API (the dashboard shows
// this list rather than deriving the rules again), with stable codes and words for people.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createBeneficiary,
  type RegisteredBusiness,
  registerBankAccount,
  registerBusiness,
} from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

describe("missing_for_ready", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;

  beforeAll(async () => {
    t = await buildTestApp();
    biz = await registerBusiness(t.app);
  });
  afterAll(async () => t.close());

  async function call(method: "GET" | "POST" | "PUT", url: string, payload?: Record<string, unknown>) {
    const response = await t.app.inject({
      method,
      url,
      headers: bearer(biz.keys.sandbox),
      ...(payload === undefined ? {} : { payload }),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as { status: string; missing_for_ready: Array<{ code: string; message: string }> };
  }

  it("lists every missing requirement with a code and words, then nothing once the Beneficiary is ready", async () => {
    const stub = await createBeneficiary(t.app, biz.keys.sandbox);
    expect(stub.missing_for_ready).toEqual([
      { code: "identity_incomplete", message: "Identity details: first name, last name, country of residence." },
      { code: "compliance_acknowledgment", message: "Your compliance acknowledgment (you checked who they are)." },
      {
        code: "payout_destination",
        message: "A payout-usable destination: add a bank account or send a collection link.",
      },
    ]);

    // Identity given (but country of residence) and acknowledged: a compliance field and a destination are missing.
    await call("PUT", `/v1/beneficiaries/${stub.id}`, { first_name: "Jane", last_name: "Doe" });
    const partial = await call("GET", `/v1/beneficiaries/${stub.id}`);
    expect(partial.missing_for_ready.map((r) => r.code)).toEqual([
      "identity_incomplete",
      "compliance_acknowledgment",
      "payout_destination",
    ]);
    expect(partial.missing_for_ready[0]?.message).toBe("Identity details: country of residence.");

    await call("PUT", `/v1/beneficiaries/${stub.id}`, { country_of_residence: "DE" });
    const acknowledged = await call("POST", `/v1/beneficiaries/${stub.id}/acknowledge`);
    expect(acknowledged.status).toBe("action_required");
    expect(acknowledged.missing_for_ready.map((r) => r.code)).toEqual(["payout_destination"]);

    await registerBankAccount(t.app, biz.keys.sandbox, stub.id);
    const ready = await call("GET", `/v1/beneficiaries/${stub.id}`);
    expect(ready.status).toBe("ready");
    expect(ready.missing_for_ready).toEqual([]);

    // A trigger field changed after the acknowledgment: acknowledge again (and the list says so).
    const changed = await call("PUT", `/v1/beneficiaries/${stub.id}`, { last_name: "Smith" });
    expect(changed.missing_for_ready).toEqual([
      {
        code: "reacknowledgment_required",
        message: "Its identity changed after your acknowledgment: acknowledge it again.",
      },
    ]);
  });

  it("says when the Beneficiary is archived, and is part of the list's rows too", async () => {
    const stub = await createBeneficiary(t.app, biz.keys.sandbox);
    const list = (await call("GET", "/v1/beneficiaries")) as unknown as {
      beneficiaries: Array<{ id: string; missing_for_ready: Array<{ code: string }> }>;
    };
    const row = list.beneficiaries.find((b) => b.id === stub.id);
    expect(row?.missing_for_ready.map((r) => r.code)).toEqual([
      "identity_incomplete",
      "compliance_acknowledgment",
      "payout_destination",
    ]);
    const archived = await call("POST", `/v1/beneficiaries/${stub.id}/archive`);
    expect(archived.missing_for_ready[0]).toEqual({ code: "archived", message: "It is archived: restore it to pay it." });
  });
});
