// /v1/api-keys: create (the key is shown once), list (newest first, cursor pages), revoke, last use.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "../../src/modules/api-keys/api-keys.schema.js";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, TEST_START, type TestApp } from "../helpers/test-app.js";
import { detailCodes, type ExpectedActor, expectErrorEnvelope } from "./error-envelope.js";

interface ApiKeyBody {
  id: string;
  environment: "sandbox" | "production";
  role: "business_admin" | "business_read_only";
  label: string | null;
  key_hint: string;
  membership_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
interface IssuedKeyBody extends ApiKeyBody {
  key: string;
}
interface ListBody {
  api_keys: ApiKeyBody[];
  next_cursor: string | null;
}

const secretOf = (key: string) => key.split("_")[3] ?? "";

describe("API keys", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  const adminActor = (biz: RegisteredBusiness, environment: "sandbox" | "production"): ExpectedActor => ({
    user_id: biz.userId,
    membership_id: biz.membershipId,
    role: "business_admin",
    environment,
  });

  async function list(key: string, query = ""): Promise<ListBody> {
    const res = await t.app.inject({ method: "GET", url: `/v1/api-keys${query}`, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ListBody;
  }

  function revoke(key: string, id: string) {
    return t.app.inject({ method: "DELETE", url: `/v1/api-keys/${id}`, headers: bearer(key) });
  }

  describe("create", () => {
    it("answers 201 with the full key once; the key works and is never shown again", async () => {
      const biz = await registerBusiness(t.app);
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/api-keys",
        headers: bearer(biz.keys.production),
        payload: { role: "business_read_only", label: "Reporting job" },
      });
      expect(res.statusCode, res.body).toBe(201);
      const issued = res.json() as IssuedKeyBody;
      expect(issued).toEqual({
        id: expect.any(String),
        environment: "production",
        role: "business_read_only",
        label: "Reporting job",
        key_hint: expect.any(String),
        membership_id: biz.membershipId,
        created_at: TEST_START.toISOString(),
        last_used_at: null,
        revoked_at: null,
        key: expect.stringMatching(/^pok_production_[0-9a-f]{32}_[0-9a-f]{64}$/),
      });
      const secret = secretOf(issued.key);
      expect(issued.key_hint).not.toContain(secret);

      const withNewKey = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(issued.key) });
      expect(withNewKey.statusCode).toBe(200);
      for (const body of [
        withNewKey.body,
        (await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(biz.keys.production) })).body,
      ]) {
        expect(body).not.toContain(secret);
        expect(body).not.toContain(issued.key);
        const listed = (JSON.parse(body) as ListBody).api_keys;
        expect(listed.map((k) => k.id)).toContain(issued.id);
        for (const item of listed) expect(item).not.toHaveProperty("key");
      }
    });

    it("a label is optional and comes back null", async () => {
      const biz = await registerBusiness(t.app);
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/api-keys",
        headers: bearer(biz.keys.sandbox),
        payload: { role: "business_admin" },
      });
      expect(res.statusCode).toBe(201);
      expect((res.json() as IssuedKeyBody).label).toBeNull();
    });

    it("a label over 100 characters is rejected", async () => {
      const biz = await registerBusiness(t.app);
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/api-keys",
        headers: bearer(biz.keys.sandbox),
        payload: { role: "business_admin", label: "l".repeat(101) },
      });
      const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: adminActor(biz, "sandbox") });
      expect(detailCodes(error)).toEqual(["label:too_long"]);
    });

    it("stores the secret only as a hash: no column of any key row holds it", async () => {
      const biz = await registerBusiness(t.app);
      const created = await createApiKey(t.app, biz.keys.sandbox, "business_admin", "hash check");
      const secrets = [secretOf(created.key), secretOf(biz.keys.sandbox), secretOf(biz.keys.production)];
      const rows = await t.runtime.deps.database.db.select().from(apiKeys).where(eq(apiKeys.businessId, biz.businessId));
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        for (const value of Object.values(row)) {
          const text = value instanceof Date ? value.toISOString() : String(value);
          for (const secret of secrets) {
            expect(text).not.toContain(secret);
            // Not even a long piece of it (the last four characters are kept on purpose, as a hint).
            expect(text).not.toContain(secret.slice(0, 16));
          }
        }
      }
    });
  });

  describe("list", () => {
    let biz: RegisteredBusiness;
    const createdIds: string[] = [];

    beforeAll(async () => {
      biz = await registerBusiness(t.app);
      for (let i = 0; i < 4; i += 1) {
        t.clock.advance(1_000);
        createdIds.push((await createApiKey(t.app, biz.keys.sandbox, "business_read_only", `key ${i}`)).id);
      }
    });

    it("lists the environment's keys newest first", async () => {
      const body = await list(biz.keys.sandbox);
      expect(body.api_keys.map((k) => k.id)).toEqual([...createdIds].reverse().concat(biz.keyIds.sandbox));
      expect(body.api_keys.map((k) => k.label)).toEqual(["key 3", "key 2", "key 1", "key 0", "Issued at registration"]);
      const created = body.api_keys.map((k) => k.created_at);
      expect([...created].sort().reverse()).toEqual(created);
      expect(body.next_cursor).toBeNull();
    });

    it("pages with limit and next_cursor, without gaps or repeats, ending with next_cursor null", async () => {
      const all = (await list(biz.keys.sandbox)).api_keys.map((k) => k.id);
      const seen: string[] = [];
      const pageSizes: number[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=2${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
        const page = await list(biz.keys.sandbox, query);
        pageSizes.push(page.api_keys.length);
        seen.push(...page.api_keys.map((k) => k.id));
        cursor = page.next_cursor;
      } while (cursor !== null && pageSizes.length < 10);
      expect(pageSizes).toEqual([2, 2, 1]);
      expect(seen).toEqual(all);
    });

    it("a full last page still ends with next_cursor null", async () => {
      const first = await list(biz.keys.sandbox, "?limit=5");
      expect(first.api_keys).toHaveLength(5);
      expect(first.next_cursor).toBeNull();
    });

    it("an invalid cursor answers 400 validation_failed on the field cursor", async () => {
      for (const cursor of ["not-a-cursor", Buffer.from('{"id":"nope"}').toString("base64url")]) {
        const res = await t.app.inject({
          method: "GET",
          url: `/v1/api-keys?cursor=${encodeURIComponent(cursor)}`,
          headers: bearer(biz.keys.sandbox),
        });
        const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: adminActor(biz, "sandbox") });
        expect(detailCodes(error)).toEqual(["cursor:invalid_format"]);
      }
    });

    it("a limit outside 1 to 200 is out_of_range", async () => {
      for (const limit of [0, 201]) {
        const res = await t.app.inject({ method: "GET", url: `/v1/api-keys?limit=${limit}`, headers: bearer(biz.keys.sandbox) });
        const error = expectErrorEnvelope(res, { status: 400, code: "validation_failed", actor: adminActor(biz, "sandbox") });
        expect(detailCodes(error)).toEqual(["limit:out_of_range"]);
      }
    });
  });

  describe("revoke", () => {
    it("revokes a key: the next request with it is 401; revoking again answers 200 unchanged", async () => {
      const biz = await registerBusiness(t.app);
      const victim = await createApiKey(t.app, biz.keys.sandbox, "business_admin", "to revoke");
      expect((await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(victim.key) })).statusCode).toBe(200);

      t.clock.advance(5_000);
      const revokedAt = t.clock.now().toISOString();
      const first = await revoke(biz.keys.sandbox, victim.id);
      expect(first.statusCode, first.body).toBe(200);
      const revoked = first.json() as ApiKeyBody;
      expect(revoked).toMatchObject({ id: victim.id, label: "to revoke", revoked_at: revokedAt });
      expect(revoked).not.toHaveProperty("key");
      expect(first.body).not.toContain(secretOf(victim.key));

      const after = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(victim.key) });
      expectErrorEnvelope(after, { status: 401, code: "unauthorized", actor: null });

      t.clock.advance(60_000);
      const again = await revoke(biz.keys.sandbox, victim.id);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(revoked);

      const listed = (await list(biz.keys.sandbox)).api_keys.find((k) => k.id === victim.id);
      expect(listed?.revoked_at).toBe(revokedAt);
    });

    it("a key can revoke itself while another admin key remains", async () => {
      const biz = await registerBusiness(t.app);
      const spare = await createApiKey(t.app, biz.keys.production, "business_admin");
      const res = await revoke(biz.keys.production, biz.keyIds.production);
      expect(res.statusCode, res.body).toBe(200);
      expectErrorEnvelope(await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(biz.keys.production) }), {
        status: 401,
        code: "unauthorized",
        actor: null,
      });
      expect((await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(spare.key) })).statusCode).toBe(200);
    });

    it("the last active business_admin key of an environment cannot be revoked (409 LAST_ACTIVE_ADMIN_KEY)", async () => {
      const biz = await registerBusiness(t.app);
      // Read-only keys and the other environment's admin key do not count.
      await createApiKey(t.app, biz.keys.sandbox, "business_read_only");
      const res = await revoke(biz.keys.sandbox, biz.keyIds.sandbox);
      expectErrorEnvelope(res, { status: 409, code: "LAST_ACTIVE_ADMIN_KEY", actor: adminActor(biz, "sandbox") });
      expect((await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(biz.keys.sandbox) })).statusCode).toBe(
        200,
      );

      // With a second admin key, the first can go; then the second is the last one.
      const second = await createApiKey(t.app, biz.keys.sandbox, "business_admin");
      expect((await revoke(second.key, biz.keyIds.sandbox)).statusCode).toBe(200);
      expectErrorEnvelope(await revoke(second.key, second.id), {
        status: 409,
        code: "LAST_ACTIVE_ADMIN_KEY",
        actor: adminActor(biz, "sandbox"),
      });
    });

    it("an id that does not exist answers 404 not_found", async () => {
      const biz = await registerBusiness(t.app);
      const res = await revoke(biz.keys.sandbox, randomUUID());
      expectErrorEnvelope(res, { status: 404, code: "not_found", actor: adminActor(biz, "sandbox") });
    });
  });

  describe("environments", () => {
    it("a key sees and revokes only keys of its own environment", async () => {
      const biz = await registerBusiness(t.app);
      const productionExtra = await createApiKey(t.app, biz.keys.production, "business_read_only", "prod only");

      const sandboxList = await list(biz.keys.sandbox);
      expect(sandboxList.api_keys.map((k) => k.id)).toEqual([biz.keyIds.sandbox]);
      expect(JSON.stringify(sandboxList)).not.toContain(productionExtra.id);

      const missing = await revoke(biz.keys.sandbox, randomUUID());
      const crossed = await revoke(biz.keys.sandbox, productionExtra.id);
      const missingError = expectErrorEnvelope(missing, { status: 404, code: "not_found", actor: adminActor(biz, "sandbox") });
      const crossedError = expectErrorEnvelope(crossed, { status: 404, code: "not_found", actor: adminActor(biz, "sandbox") });
      expect(crossedError.message).toBe(missingError.message);

      // The production key is untouched.
      const productionList = await list(biz.keys.production);
      expect(productionList.api_keys.find((k) => k.id === productionExtra.id)?.revoked_at).toBeNull();
      expect((await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(productionExtra.key) })).statusCode).toBe(
        200,
      );
    });
  });

  describe("last use", () => {
    it("last_used_at records authenticated use, with one-minute granularity", async () => {
      const biz = await registerBusiness(t.app);
      const key = await createApiKey(t.app, biz.keys.sandbox, "business_read_only", "usage");
      const lastUsed = async () => (await list(biz.keys.sandbox)).api_keys.find((k) => k.id === key.id)?.last_used_at;

      expect(await lastUsed()).toBeNull();

      const firstUse = t.clock.now().toISOString();
      expect((await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(key.key) })).statusCode).toBe(200);
      expect(await lastUsed()).toBe(firstUse);

      t.clock.advance(30_000);
      await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(key.key) });
      expect(await lastUsed()).toBe(firstUse);

      t.clock.advance(31_000);
      const laterUse = t.clock.now().toISOString();
      await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(key.key) });
      expect(await lastUsed()).toBe(laterUse);
    });

    it("a failed attempt with a wrong secret does not count as use", async () => {
      const biz = await registerBusiness(t.app);
      const key = await createApiKey(t.app, biz.keys.sandbox, "business_read_only");
      const forged = `${key.key.slice(0, -64)}${"0".repeat(64)}`;
      const res = await t.app.inject({ method: "GET", url: "/v1/api-keys", headers: bearer(forged) });
      expectErrorEnvelope(res, { status: 401, code: "unauthorized", actor: null });
      const listed = (await list(biz.keys.sandbox)).api_keys.find((k) => k.id === key.id);
      expect(listed?.last_used_at).toBeNull();
    });
  });
});
