// Hostile text and values at the HTTP edge, one reproduction per finding: every one used to answer 500 or
// to store altered text; each must now be a 4xx in the envelope that names the field. Runs on PGlite and,
// with TEST_DATABASE_URL, on PostgreSQL (which is what refuses U+0000 and year 0000).
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { newKey, payableBeneficiary } from "../payouts/payout-fixtures.js";
import { detailCodes, expectErrorEnvelope } from "./error-envelope.js";

const NUL = "a\u0000b";

describe("hostile input", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;
  let key: string;
  const actor = () => ({
    user_id: biz.userId,
    membership_id: biz.membershipId,
    role: "business_admin" as const,
    environment: "sandbox" as const,
  });

  beforeAll(async () => {
    t = await buildTestApp();
    biz = await registerBusiness(t.app, "Hostile Input Ltd");
    key = biz.keys.sandbox;
  });
  afterAll(async () => t.close());

  const send = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method,
      url,
      headers: { ...bearer(key), ...headers },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      ...(payload === undefined ? {} : { headers: { ...bearer(key), "content-type": "application/json", ...headers } }),
    });

  describe("U+0000 in stored or filtered text is a 400 naming the field", () => {
    const payoutId = randomUUID();
    const beneficiaryId = randomUUID();
    const cases: ReadonlyArray<[string, "POST" | "PUT", string, unknown, string]> = [
      [
        "registration business_name",
        "POST",
        "/v1/registration",
        { business_name: NUL, email: "nul@example.com", password: "a long enough password" },
        "business_name",
      ],
      [
        "beneficiary name",
        "POST",
        "/v1/beneficiaries",
        { beneficiary_type: "person", name: NUL, email: "n@example.com" },
        "name",
      ],
      ["beneficiary nickname", "POST", "/v1/beneficiaries", { name: "Ann", nickname: NUL }, "nickname"],
      ["postal address", "POST", "/v1/beneficiaries", { name: "Ann", postal_address: { line1: NUL } }, "postal_address.line1"],
      ["API key label", "POST", "/v1/api-keys", { role: "business_admin", label: NUL }, "label"],
      ["external_ref", "POST", "/v1/payouts", { amount_minor: 1, currency: "EUR", external_ref: NUL }, "external_ref"],
      ["idempotency_key", "POST", "/v1/payouts", { amount_minor: 1, currency: "EUR", idempotency_key: NUL }, "idempotency_key"],
      ["decision reason", "POST", `/v1/payouts/${payoutId}/approve`, { reason: NUL }, "reason"],
      [
        "validator name",
        "POST",
        `/v1/payouts/${payoutId}/decisions`,
        { outcome: "approve", validator: { type: "automated", name: NUL } },
        "validator.name",
      ],
      ["policy rule name", "PUT", "/v1/approval-policy", { rules: [{ name: NUL, outcome: "approve" }] }, "rules[0].name"],
      [
        "holder and bank names",
        "POST",
        `/v1/beneficiaries/${beneficiaryId}/bank-accounts`,
        { country: "DE", currency: "EUR", account_holder_name: "Ann", bank_name: NUL },
        "bank_name",
      ],
      [
        "a bulk row",
        "POST",
        "/v1/payouts/bulk",
        { uploadId: "u1", rows: [{}, {}, {}, { amount_minor: 1, external_ref: NUL }] },
        "rows[3].external_ref",
      ],
    ];
    it.each(cases)("%s", async (_label, method, url, payload, field) => {
      const res = await send(method, url, payload);
      const error = expectErrorEnvelope(res, {
        status: 400,
        code: "validation_failed",
        actor: url === "/v1/registration" ? null : actor(),
      });
      expect(detailCodes(error)).toEqual([`${field}:invalid_character`]);
      expect(error.details?.[0]?.message).toContain("U+0000");
    });

    it("in an object key, named by a printable stand-in", async () => {
      const res = await send("POST", "/v1/beneficiaries", { name: "Ann", [NUL]: "x" });
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: actor() });
      expect(detailCodes(error)).toEqual(["a\\u{0}b:invalid_character"]);
    });

    it.each([
      ["email", "/v1/beneficiaries?email=a%00b%40example.com"],
      ["external_ref", "/v1/payouts?external_ref=a%00b"],
      ["upload_id", "/v1/payouts?upload_id=a%00b"],
    ])("in the %s filter", async (field, url) => {
      const error = expectErrorEnvelope(await send("GET", url), { status: 400, code: "validation_failed", actor: actor() });
      expect(detailCodes(error)).toEqual([`${field}:invalid_character`]);
    });
  });

  describe("text is refused, never repaired", () => {
    it("an unpaired surrogate escape in JSON", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/beneficiaries",
        headers: { ...bearer(key), "content-type": "application/json" },
        payload: '{"name":"Ann \\ud800"}',
      });
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: actor() });
      expect(detailCodes(error)).toEqual(["name:invalid_character"]);
      expect(error.details?.[0]?.message).toContain("U+D800");
    });

    it("bytes that are not UTF-8 in a body", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/beneficiaries",
        headers: { ...bearer(key), "content-type": "application/json" },
        payload: Buffer.concat([Buffer.from('{"name":"Ann '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
      });
      expectErrorEnvelope(res, { status: 400, code: "bad_request", actor: actor(), message: "The body is not valid UTF-8." });
    });

    it("percent-encoded bytes that are not UTF-8 in a query", async () => {
      const error = expectErrorEnvelope(await send("GET", "/v1/payouts?external_ref=caf%E9"), {
        status: 400,
        code: "validation_failed",
        actor: actor(),
      });
      expect(detailCodes(error)).toEqual(["external_ref:invalid_encoding"]);
    });

    it("control characters, and line breaks in single-line fields", async () => {
      const controls = await send("POST", "/v1/beneficiaries", { name: "Ann\u0007", nickname: "Nick\u0085" });
      const controlError = expectErrorEnvelope(controls, { status: 400, code: "validation_failed", actor: actor() });
      expect(detailCodes(controlError)).toEqual(["name:invalid_character", "nickname:invalid_character"]);
      expect(controlError.details?.map((d) => d.message)).toEqual([
        "Contains the control character U+0007.",
        "Contains the control character U+0085.",
      ]);

      const lines = await send("POST", "/v1/beneficiaries", {
        beneficiary_type: "person",
        name: "Ann\r\nLee",
        postal_address: { line1: "Main St\n1", city: "Berlin\tMitte", country: "DE" },
      });
      const lineError = expectErrorEnvelope(lines, { status: 400, code: "validation_failed", actor: actor() });
      expect(detailCodes(lineError)).toEqual(
        expect.arrayContaining([
          "name:invalid_character",
          "postal_address.line1:invalid_character",
          "postal_address.city:invalid_character",
        ]),
      );
      const query = await send("GET", "/v1/payouts?external_ref=a%0Ab");
      const queryError = expectErrorEnvelope(query, { status: 400, code: "validation_failed", actor: actor() });
      expect(detailCodes(queryError)).toEqual(["external_ref:invalid_character"]);
    });

    it("a decision reason is free text: line breaks and tabs pass validation", async () => {
      // No such payout, so a reason that passes validation reaches the lookup and answers 404.
      const res = await send("POST", `/v1/payouts/${randomUUID()}/approve`, { reason: "Checked.\r\n\tInvoice 12 matches." });
      expectErrorEnvelope(res, { status: 404, code: "not_found", actor: actor() });
    });
  });

  describe("date-times PostgreSQL or Date cannot hold are a 400", () => {
    it.each([
      ["/v1/payouts?updatedSince=0000-01-01T00:00:00Z", "updatedSince"],
      ["/v1/payouts?updatedSince=10000-01-01T00:00:00Z", "updatedSince"],
      ["/v1/payouts?updatedSince=0001-01-01T00:30:00%2B01:00", "updatedSince"],
      ["/v1/webhook-deliveries?since=2016-12-31T23:59:60Z", "since"],
      ["/v1/webhook-deliveries?until=2016-12-31T23:59:60Z", "until"],
      ["/v1/beneficiaries?created_from=0000-01-01T00:00:00Z", "created_from"],
      ["/v1/beneficiaries?created_to=2016-12-31T23:59:60Z", "created_to"],
      ["/v1/beneficiaries?created_to=2026-02-30T00:00:00Z", "created_to"],
    ])("%s", async (url, field) => {
      const error = expectErrorEnvelope(await send("GET", url), { status: 400, code: "validation_failed", actor: actor() });
      expect(detailCodes(error)).toEqual([`${field}:invalid_format`]);
      expect(error.details?.[0]?.message).toContain("0001-01-01T00:00:00Z");
    });

    it.each([
      "/v1/payouts?updatedSince=0001-01-01T00:00:00Z",
      "/v1/payouts?updatedSince=9999-12-31T23:59:59.999Z",
      "/v1/webhook-deliveries?since=2016-12-31T23:59:59%2B14:00",
      "/v1/beneficiaries?created_from=1969-07-20T20:17:40Z&created_to=9999-12-31T23:59:59Z",
    ])("the edges of the range are accepted: %s", async (url) => {
      const res = await send("GET", url);
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe("wrong methods answer 405 with Allow", () => {
    it.each([
      ["QUERY", "/v1/payouts", ["GET", "POST"]],
      ["GET", "/v1/payouts/bulk", ["POST"]],
      ["PUT", "/v1/beneficiaries/import", ["POST"]],
      ["DELETE", "/v1/beneficiaries/export", ["GET"]],
    ])("%s %s", async (method, url, allowed) => {
      for (const headers of [{}, { "content-type": "application/json" }]) {
        const res = await t.app.inject({ method: method as "GET", url, headers: { ...bearer(key), ...headers } });
        expectErrorEnvelope(res, { status: 405, code: "method_not_allowed", actor: null });
        const allow = String(res.headers.allow).split(", ");
        expect(allow).toEqual(expect.arrayContaining(allowed));
        expect(allow).not.toContain(method);
      }
    });
  });

  describe("declared charsets and encodings are honoured or refused", () => {
    it("a JSON body in another charset is 415", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/beneficiaries",
        headers: { ...bearer(key), "content-type": "application/json; charset=utf-16le" },
        payload: Buffer.from('{"name":"Ann"}', "utf16le"),
      });
      const error = expectErrorEnvelope(res, { status: 415, code: "unsupported_media_type", actor: actor() });
      expect(error.message).toContain("utf-16le");
    });

    it("charset=UTF-8 in any letter case is accepted", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/beneficiaries",
        headers: { ...bearer(key), "content-type": 'application/json; Charset="UTF-8"' },
        payload: JSON.stringify({
          beneficiary_type: "person",
          name: "Zoë",
          email: `charset-${randomBytes(4).toString("hex")}@example.com`,
        }),
      });
      expect(res.statusCode, res.body).toBe(201);
    });

    it("a compressed body is 415", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/beneficiaries",
        headers: { ...bearer(key), "content-type": "application/json", "content-encoding": "gzip" },
        payload: '{"name":"Ann"}',
      });
      const error = expectErrorEnvelope(res, { status: 415, code: "unsupported_media_type", actor: actor() });
      expect(error.message).toContain("gzip");
    });
  });

  describe("Idempotency-Key is read as UTF-8", () => {
    // Node hands header bytes over one character per byte; this is what it makes of a UTF-8 header.
    const asWire = (text: string) => Buffer.from(text, "utf8").toString("latin1");

    it("the same key in the header and in the body names the same payout", async () => {
      const { beneficiaryId } = await payableBeneficiary(t.app, key);
      const idempotencyKey = `${newKey("clé")}-ünïcødé-🚀`;
      const body = { beneficiary_id: beneficiaryId, amount_minor: 500, currency: "EUR" };
      const first = await send("POST", "/v1/payouts", body, { "idempotency-key": asWire(idempotencyKey) });
      expect(first.statusCode, first.body).toBe(201);
      const replay = await send("POST", "/v1/payouts", { ...body, idempotency_key: idempotencyKey });
      expect(replay.statusCode, replay.body).toBe(200);
      expect(replay.headers["idempotent-replayed"]).toBe("true");
      expect(replay.json().payout_id).toBe(first.json().payout_id);
    });

    it("a header that is not UTF-8 is refused", async () => {
      const res = await send("POST", "/v1/payouts", { amount_minor: 1, currency: "EUR" }, { "idempotency-key": "caf\u00e9" });
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: actor() });
      expect(detailCodes(error)).toEqual(["idempotency-key:invalid_encoding"]);
    });
  });

  describe("hosted collection pages answer their own 400 page", () => {
    it.each([
      ["a NUL", Buffer.from("csrf=x&first_name=a%00b")],
      ["bytes that are not UTF-8", Buffer.from("csrf=x&first_name=caf%E9")],
      ["raw bytes that are not UTF-8", Buffer.concat([Buffer.from("csrf=x&first_name=caf"), Buffer.from([0xe9])])],
    ])("for %s in a form", async (_label, payload) => {
      const res = await t.app.inject({
        method: "POST",
        url: `/collect/${randomBytes(24).toString("base64url")}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.body).toContain("The form could not be read");
    });

    it("for a form in another charset: 415 page", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: `/collect/${randomBytes(24).toString("base64url")}`,
        headers: { "content-type": "application/x-www-form-urlencoded; charset=iso-8859-1" },
        payload: "csrf=x",
      });
      expect(res.statusCode).toBe(415);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
    });
  });
});
