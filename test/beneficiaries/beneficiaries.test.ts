import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";

type Json = Record<string, unknown>;

describe("beneficiaries", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;
  let n = 0;
  const email = () => {
    n += 1;
    return `payee-${n}-${Date.now()}@example.com`;
  };

  async function call(method: "GET" | "POST" | "PUT", url: string, payload?: Json, key = biz.keys.sandbox) {
    return t.app.inject({ method, url, headers: bearer(key), ...(payload === undefined ? {} : { payload }) });
  }
  async function createPerson(extra: Json = {}): Promise<Json> {
    const res = await call("POST", "/v1/beneficiaries", {
      beneficiary_type: "person",
      email: email(),
      name: "Jane Doe",
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Json;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    biz = await registerBusiness(t.app);
  });
  afterAll(async () => t.close());

  it("creates a stub with every spec field present and identity still deferred", async () => {
    const body = await createPerson({ nickname: "JD" });
    for (const field of [
      "id",
      "beneficiary_type",
      "name",
      "nickname",
      "display_name",
      "email",
      "phone",
      "first_name",
      "last_name",
      "country_of_residence",
      "date_of_birth",
      "business_name",
      "country_of_incorporation",
      "registration_number",
      "tax_id",
      "postal_address",
      "bank_details",
      "compliance_status",
      "identity_complete",
      "acknowledged_at",
      "reacknowledgment_required",
      "collection_status",
      "details_submitted_at",
      "declared_destination_id",
      "status",
      "enrollment_status",
      "enrollment_failure_detail",
      "enrollment_failure_bank_account_id",
      "pending_requests",
      "archived_at",
      "environment",
      "created_at",
    ]) {
      expect(body, field).toHaveProperty(field);
    }
    expect(body).toMatchObject({
      display_name: "JD",
      identity_complete: false,
      status: "pending_details",
      compliance_status: "pending",
      collection_status: "not_invited",
      environment: "sandbox",
      pending_requests: [],
      bank_details: null,
      missing_identity_fields: ["first_name", "last_name", "country_of_residence"],
    });
  });

  it("derives the name from first and last name, and requires one of them", async () => {
    const derived = await call("POST", "/v1/beneficiaries", {
      beneficiary_type: "person",
      email: email(),
      first_name: "Ada",
      last_name: "Lovelace",
    });
    expect(derived.json()).toMatchObject({ name: "Ada Lovelace", display_name: "Ada Lovelace" });
    const missing = await call("POST", "/v1/beneficiaries", { beneficiary_type: "business", email: email() });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details).toEqual([expect.objectContaining({ field: "name", code: "required" })]);
  });

  it("validates formats: country codes, past dates, E.164 phones, lengths", async () => {
    const res = await call("POST", "/v1/beneficiaries", {
      beneficiary_type: "person",
      email: "not-an-email",
      name: "x".repeat(201),
      phone: "0151 234",
      country_of_residence: "de",
      date_of_birth: "2026-02-30",
    });
    expect(res.statusCode).toBe(400);
    const codes = (res.json().error.details as Array<{ field: string; code: string }>).map((d) => `${d.field}:${d.code}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        "email:invalid_format",
        "name:too_long",
        "phone:invalid_format",
        "country_of_residence:invalid_format",
        "date_of_birth:invalid_format",
      ]),
    );
    const semantic = await call("POST", "/v1/beneficiaries", {
      beneficiary_type: "person",
      email: email(),
      name: "Future Kid",
      country_of_residence: "XX",
      date_of_birth: "2030-01-01",
    });
    expect(semantic.statusCode).toBe(400);
    expect(semantic.json().error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "country_of_residence", code: "invalid_country" }),
        expect.objectContaining({ field: "date_of_birth", code: "out_of_range" }),
      ]),
    );
  });

  it("walks pending_details -> pending_kyc -> action_required, and re-acknowledgment on trigger fields only", async () => {
    const created = await createPerson();
    const id = created.id as string;
    const completed = await call("PUT", `/v1/beneficiaries/${id}`, {
      first_name: "Jane",
      last_name: "Doe",
      country_of_residence: "DE",
      tax_id: "DE 123456789",
    });
    expect(completed.json()).toMatchObject({ identity_complete: true, status: "pending_kyc", tax_id: "•••••6789" });
    expect(completed.body).not.toContain("123456789");

    const acked = await call("POST", `/v1/beneficiaries/${id}/acknowledge`);
    expect(acked.json()).toMatchObject({
      compliance_status: "compliant",
      status: "action_required",
      reacknowledgment_required: false,
    });
    expect(acked.json().acknowledged_at).toBe(t.clock.now().toISOString());

    const contact = await call("PUT", `/v1/beneficiaries/${id}`, { phone: "+4915123456789", nickname: "Janey" });
    expect(contact.json()).toMatchObject({ reacknowledgment_required: false, display_name: "Janey" });

    const sameTaxId = await call("PUT", `/v1/beneficiaries/${id}`, { tax_id: "de123456789" });
    expect(sameTaxId.json().reacknowledgment_required).toBe(false);

    const trigger = await call("PUT", `/v1/beneficiaries/${id}`, { last_name: "Smith" });
    expect(trigger.json()).toMatchObject({
      reacknowledgment_required: true,
      compliance_status: "compliant",
      status: "reacknowledgment_required",
      name: "Jane Smith",
    });

    const again = await call("POST", `/v1/beneficiaries/${id}/acknowledge`);
    expect(again.json()).toMatchObject({ reacknowledgment_required: false, status: "action_required" });
  });

  it("archives: gone from the list, readable by id, frozen; un-archives", async () => {
    const created = await createPerson();
    const id = created.id as string;
    const archived = await call("POST", `/v1/beneficiaries/${id}/archive`);
    expect(archived.json().archived_at).not.toBeNull();
    expect((await call("GET", `/v1/beneficiaries/${id}`)).statusCode).toBe(200);
    const listed = await call("GET", `/v1/beneficiaries?email=${encodeURIComponent(created.email as string)}`);
    expect(listed.json().beneficiaries).toEqual([]);
    const frozen = await call("PUT", `/v1/beneficiaries/${id}`, { phone: "+4915123456789" });
    expect(frozen.statusCode).toBe(422);
    expect(frozen.json().error.code).toBe("BENEFICIARY_ARCHIVED");
    const back = await call("POST", `/v1/beneficiaries/${id}/unarchive`);
    expect(back.json().archived_at).toBeNull();
  });

  it("keeps e-mail unique among active Beneficiaries, case-insensitively", async () => {
    const created = await createPerson();
    const clash = await call("POST", "/v1/beneficiaries", {
      beneficiary_type: "person",
      email: (created.email as string).toUpperCase(),
      name: "Twin",
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.code).toBe("BENEFICIARY_EMAIL_TAKEN");
  });

  it("lists newest first with cursor pagination and filters", async () => {
    const other = await registerBusiness(t.app);
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await call(
        "POST",
        "/v1/beneficiaries",
        { beneficiary_type: "business", email: email(), name: `Biz ${i}` },
        other.keys.production,
      );
      made.push(res.json().id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(
        "GET",
        `/v1/beneficiaries?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        undefined,
        other.keys.production,
      );
      const page = res.json() as { beneficiaries: Array<{ id: string }>; next_cursor: string | null };
      seen.push(...page.beneficiaries.map((b) => b.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual([...made].reverse());
    const sandbox = await call("GET", "/v1/beneficiaries", undefined, other.keys.sandbox);
    expect(sandbox.json().beneficiaries).toEqual([]);
    const byStatus = await call("GET", "/v1/beneficiaries?status=pending_details", undefined, other.keys.production);
    expect(byStatus.json().beneficiaries).toHaveLength(5);
    const none = await call("GET", "/v1/beneficiaries?status=ready", undefined, other.keys.production);
    expect(none.json().beneficiaries).toHaveLength(0);
  });

  it("a read-only key reads but cannot write", async () => {
    const readOnly = await createApiKey(t.app, biz.keys.sandbox, "business_read_only");
    expect((await call("GET", "/v1/beneficiaries", undefined, readOnly.key)).statusCode).toBe(200);
    const denied = await call(
      "POST",
      "/v1/beneficiaries",
      { beneficiary_type: "person", email: email(), name: "X" },
      readOnly.key,
    );
    expect(denied.statusCode).toBe(403);
  });
});

describe("identity requirements are configuration evaluated at read time", () => {
  it("growing the list turns identity_complete false without touching compliance", async () => {
    const first = await buildTestApp();
    try {
      const biz = await registerBusiness(first.app);
      const res = await first.app.inject({
        method: "POST",
        url: "/v1/beneficiaries",
        headers: bearer(biz.keys.sandbox),
        payload: {
          beneficiary_type: "person",
          email: "grow@example.com",
          first_name: "A",
          last_name: "B",
          country_of_residence: "FR",
        },
      });
      const id = res.json().id as string;
      await first.app.inject({ method: "POST", url: `/v1/beneficiaries/${id}/acknowledge`, headers: bearer(biz.keys.sandbox) });
      const { buildApp } = await import("../../src/app.js");
      const { composeModules } = await import("../../src/composition.js");
      const { testConfig } = await import("../helpers/test-app.js");
      const grownConfig = testConfig({ IDENTITY_REQUIRED_PERSON: "first_name,last_name,country_of_residence,date_of_birth" });
      // The modules are composed from the configuration: a process started with the grown list composes again.
      const grownModules = composeModules({ ...first.runtime.deps, config: grownConfig });
      const grown = await buildApp({ ...first.runtime.deps, config: grownConfig, modules: grownModules });
      try {
        const read = await grown.inject({ method: "GET", url: `/v1/beneficiaries/${id}`, headers: bearer(biz.keys.sandbox) });
        expect(read.json()).toMatchObject({
          identity_complete: false,
          compliance_status: "compliant",
          missing_identity_fields: ["date_of_birth"],
        });
      } finally {
        await grown.close();
        await grownModules.close();
      }
    } finally {
      await first.close();
    }
  });
});
