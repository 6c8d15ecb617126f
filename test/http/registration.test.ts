// POST /v1/registration: a Business self-registers and receives one sandbox and one production admin key.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../src/platform/db/schema.js";
import { bearer } from "../helpers/factories.js";
import { buildTestApp, TEST_START, type TestApp } from "../helpers/test-app.js";
import { detailCodes, expectErrorEnvelope } from "./error-envelope.js";

const PASSWORD = "registration password 1234";
const KEY_SHAPE = /^pok_(sandbox|production)_([0-9a-f]{32})_([0-9a-f]{64})$/;

function uniqueEmail(prefix = "owner"): string {
  return `${prefix}-${randomBytes(6).toString("hex")}@example.com`;
}

interface IssuedKeyBody {
  id: string;
  environment: "sandbox" | "production";
  role: string;
  key: string;
  key_hint: string;
  membership_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

interface RegistrationBody {
  business: { id: string; name: string; created_at: string };
  user: { id: string; email: string; created_at: string };
  membership: { id: string; role: string };
  api_keys: IssuedKeyBody[];
}

describe("registration", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  function register(body: Record<string, unknown>, remoteAddress?: string) {
    return t.app.inject({
      method: "POST",
      url: "/v1/registration",
      payload: body,
      ...(remoteAddress ? { remoteAddress } : {}),
    });
  }

  describe("a successful registration", () => {
    let body: RegistrationBody;
    let rawBody: string;
    const email = uniqueEmail("Mixed.Case");

    beforeAll(async () => {
      const res = await register({ business_name: "  Acme Payouts GmbH  ", email, password: PASSWORD });
      expect(res.statusCode, res.body).toBe(201);
      rawBody = res.body;
      body = res.json() as RegistrationBody;
    });

    it("returns the Business, its admin user and a business_admin membership", () => {
      expect(Object.keys(body).sort()).toEqual(["api_keys", "business", "membership", "user"]);
      expect(body.business).toEqual({ id: expect.any(String), name: "Acme Payouts GmbH", created_at: TEST_START.toISOString() });
      expect(body.user).toEqual({ id: expect.any(String), email: email.toLowerCase(), created_at: TEST_START.toISOString() });
      expect(body.membership).toEqual({ id: expect.any(String), role: "business_admin" });
      expect(rawBody).not.toContain(PASSWORD);
      expect(rawBody).not.toContain("scrypt");
    });

    it("issues exactly one sandbox and one production business_admin key, each shown in full", () => {
      expect(body.api_keys).toHaveLength(2);
      expect(body.api_keys.map((k) => k.environment).sort()).toEqual(["production", "sandbox"]);
      for (const issued of body.api_keys) {
        expect(issued.role).toBe("business_admin");
        expect(issued.membership_id).toBe(body.membership.id);
        expect(issued.revoked_at).toBeNull();
        expect(issued.last_used_at).toBeNull();
        const segments = issued.key.split("_");
        expect(segments).toHaveLength(4);
        const match = KEY_SHAPE.exec(issued.key);
        expect(match, issued.key).not.toBeNull();
        expect(match?.[1]).toBe(issued.environment);
        expect(match?.[2]).toBe(issued.id.replaceAll("-", ""));
        const secret = segments[3] ?? "";
        expect(issued.key_hint).not.toContain(secret);
        expect(issued.key_hint.endsWith(secret.slice(-4))).toBe(true);
      }
      expect(body.api_keys[0]?.key).not.toBe(body.api_keys[1]?.key);
    });

    for (const environment of ["sandbox", "production"] as const) {
      it(`the ${environment} key authenticates into ${environment} only`, async () => {
        const issued = body.api_keys.find((k) => k.environment === environment);
        expect(issued).toBeDefined();
        const key = issued?.key ?? "";

        const list = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(key) });
        expect(list.statusCode).toBe(200);
        const listed = (list.json() as { api_keys: Array<{ id: string; environment: string }> }).api_keys;
        expect(listed.map((k) => [k.id, k.environment])).toEqual([[issued?.id, environment]]);

        // An error made with the key names the caller: this user, this membership, this environment.
        const failed = await t.app.inject({ method: "POST", url: "/v1/api-keys", headers: bearer(key), payload: {} });
        expectErrorEnvelope(failed, {
          status: 400,
          code: "validation_failed",
          actor: { user_id: body.user.id, membership_id: body.membership.id, role: "business_admin", environment },
        });
      });
    }

    it("stores the password only as an scrypt hash", async () => {
      const rows = await t.runtime.deps.database.db.select().from(users).where(eq(users.email, email.toLowerCase()));
      expect(rows).toHaveLength(1);
      const hash = rows[0]?.passwordHash ?? "";
      expect(hash.startsWith("scrypt$")).toBe(true);
      expect(hash).not.toContain(PASSWORD);
      expect(JSON.stringify(rows)).not.toContain(PASSWORD);
    });

    it("salts each hash: the same password gives different hashes", async () => {
      const other = uniqueEmail();
      expect((await register({ business_name: "Same Password Co", email: other, password: PASSWORD })).statusCode).toBe(201);
      const hashes = await t.runtime.deps.database.db
        .select({ hash: users.passwordHash })
        .from(users)
        .where(eq(users.email, other));
      const first = await t.runtime.deps.database.db
        .select({ hash: users.passwordHash })
        .from(users)
        .where(eq(users.email, email.toLowerCase()));
      expect(hashes[0]?.hash).toBeDefined();
      expect(hashes[0]?.hash).not.toBe(first[0]?.hash);
    });

    it("an e-mail already registered, in any letter case, answers 409 EMAIL_ALREADY_REGISTERED", async () => {
      for (const variant of [email, email.toUpperCase(), email.toLowerCase()]) {
        const res = await register({ business_name: "Copycat Ltd", email: variant, password: "another password 99" });
        expectErrorEnvelope(res, { status: 409, code: "EMAIL_ALREADY_REGISTERED", actor: null });
      }
      const rows = await t.runtime.deps.database.db.select().from(users).where(eq(users.email, email.toLowerCase()));
      expect(rows).toHaveLength(1);
      // The original keys keep working.
      for (const issued of body.api_keys) {
        const res = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(issued.key) });
        expect(res.statusCode).toBe(200);
      }
    });
  });

  describe("validation", () => {
    it("an empty body names every missing field", async () => {
      const res = await register({});
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: null });
      expect(detailCodes(error)).toEqual(["business_name:required", "email:required", "password:required"]);
    });

    it("an e-mail over 254 characters is too_long, a short password too_short, an empty name too_short", async () => {
      const longEmail = `${"a".repeat(250)}@example.com`;
      const res = await register({ business_name: "", email: longEmail, password: "11 chars!!!" });
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: null });
      expect(detailCodes(error)).toEqual(
        expect.arrayContaining(["business_name:too_short", "password:too_short", "email:too_long"]),
      );
    });

    it("a business name of only spaces is blank, with a readable message", async () => {
      const res = await register({ business_name: "   ", email: uniqueEmail(), password: PASSWORD });
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: null });
      expect(error.details).toEqual([
        {
          field: "business_name",
          code: "blank",
          message: "Must contain a letter or a digit: spaces and invisible characters alone are not a name.",
        },
      ]);
    });

    it("a password of exactly 12 characters is enough", async () => {
      const res = await register({ business_name: "Twelve", email: uniqueEmail(), password: "123456789012" });
      expect(res.statusCode, res.body).toBe(201);
    });

    it("a rejected registration creates nothing: the e-mail can still be registered", async () => {
      const email = uniqueEmail();
      const rejected = await register({ business_name: "Nope", email, password: "short" });
      expect(rejected.statusCode).toBe(400);
      const accepted = await register({ business_name: "Yes", email, password: PASSWORD });
      expect(accepted.statusCode, accepted.body).toBe(201);
    });
  });
});

describe("registration rate limit per client address", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { REGISTRATION_RATE_LIMIT_REQUESTS: "2" } });
  });
  afterAll(async () => t.close());

  function register(email: string, remoteAddress: string) {
    return t.app.inject({
      method: "POST",
      url: "/v1/registration",
      payload: { business_name: "Rate Limited", email, password: PASSWORD },
      remoteAddress,
    });
  }

  it("the third registration from one address answers 429 RATE_LIMITED; another address is unaffected", async () => {
    const address = "198.51.100.7";
    const first = await register(uniqueEmail(), address);
    const second = await register(uniqueEmail(), address);
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode, second.body).toBe(201);
    expect(first.headers["ratelimit-limit"]).toBe("2");
    expect(first.headers["ratelimit-remaining"]).toBe("1");
    expect(second.headers["ratelimit-remaining"]).toBe("0");

    const blockedEmail = uniqueEmail();
    const third = await register(blockedEmail, address);
    expectErrorEnvelope(third, { status: 429, code: "RATE_LIMITED", actor: null });
    const retryAfter = Number(third.headers["retry-after"]);
    expect(Number.isInteger(retryAfter) && retryAfter > 0).toBe(true);
    expect(third.headers["ratelimit-limit"]).toBe("2");
    expect(third.headers["ratelimit-remaining"]).toBe("0");
    const reset = Number(third.headers["ratelimit-reset"]);
    expect(Number.isInteger(reset) && reset > 0).toBe(true);

    // Nothing was created for the throttled request, and another client address is not throttled.
    const elsewhere = await register(blockedEmail, "203.0.113.20");
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);

    // The keys of a throttled address's Businesses still work: the API limit is per tenant, not per address.
    const issued = (first.json() as RegistrationBody).api_keys[0]?.key ?? "";
    const list = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(issued), remoteAddress: address });
    expect(list.statusCode).toBe(200);
  });
});
