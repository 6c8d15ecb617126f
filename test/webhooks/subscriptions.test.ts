// The webhook subscription endpoints: one per environment, POST creates or rotates, the secret shown only
// by POST and encrypted at rest, PATCH keeps it, DELETE is idempotent, and bad input gets a clear code.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/platform/db/client.js";
import { bearer, createApiKey } from "../helpers/factories.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { startWebhookTestBed, type WebhookTestBed } from "./webhook-test-bed.js";

describe("webhook subscription endpoints", () => {
  let bed: WebhookTestBed;
  const inject = (method: "GET" | "POST" | "PATCH" | "DELETE", payload?: Record<string, unknown>, key?: string) =>
    bed.testApp.app.inject({
      method,
      url: "/v1/webhook-subscriptions",
      headers: bearer(key ?? bed.key),
      ...(payload === undefined ? {} : { payload }),
    });

  beforeAll(async () => {
    bed = await startWebhookTestBed();
  });
  afterAll(async () => bed?.close());
  beforeEach(async () => {
    await inject("DELETE");
  });

  it("POST creates (201) with the secret once; GET shows it without the secret", async () => {
    const created = await inject("POST", { url: bed.hookUrl, enabled_events: ["payout.disbursed", "payout.delivered"] });
    expect(created.statusCode).toBe(201);
    expect(created.headers["cache-control"]).toBe("no-store");
    const body = created.json();
    expect(Object.keys(body).sort()).toEqual(["secret", "subscription"]);
    expect(body.secret).toMatch(/^whsec_sandbox_[0-9a-f]{64}$/);
    expect(body.subscription).toEqual({
      id: expect.any(String),
      environment: "sandbox",
      url: bed.hookUrl,
      enabled_events: ["payout.disbursed", "payout.delivered"],
      enabled: true,
      created_at: bed.testApp.clock.now().toISOString(),
    });
    const read = await inject("GET");
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(body.subscription);
    expect(read.body).not.toContain(body.secret);
    expect(read.body).not.toContain("secret");

    // The production key sees its own environment only.
    const production = await inject("GET", undefined, bed.business.keys.production);
    expect(production.statusCode).toBe(404);
    const prodCreated = await inject(
      "POST",
      { url: bed.hookUrl, enabled_events: ["payout.disbursed"] },
      bed.business.keys.production,
    );
    expect(prodCreated.json().secret).toMatch(/^whsec_production_[0-9a-f]{64}$/);
    await inject("DELETE", undefined, bed.business.keys.production);
  });

  it("POST again rotates the secret, replaces url and events, re-enables, keeps the id (200)", async () => {
    const first = (await inject("POST", { url: bed.hookUrl, enabled_events: ["payout.disbursed"] })).json();
    await bed.patch({ enabled: false });
    bed.testApp.clock.advance(1000);
    const rotated = await inject("POST", { url: `${bed.receiver.origin}/other`, enabled_events: ["payout.failed"] });
    expect(rotated.statusCode).toBe(200);
    const body = rotated.json();
    expect(body.secret).not.toBe(first.secret);
    expect(body.subscription).toMatchObject({
      id: first.subscription.id,
      url: `${bed.receiver.origin}/other`,
      enabled_events: ["payout.failed"],
      enabled: true,
      created_at: first.subscription.created_at,
    });
  });

  it("stores the secret encrypted, never in clear", async () => {
    const { secret } = (await inject("POST", { url: bed.hookUrl, enabled_events: ["payout.disbursed"] })).json();
    const rows = await queryRows<Record<string, unknown>>(
      bed.testApp.runtime.deps.database.db,
      sql`select * from webhook_subscriptions where business_id = ${bed.business.businessId}`,
    );
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(-64));
    const row = rows[0] as { secret_encrypted: string };
    expect(bed.testApp.runtime.deps.cipher.decrypt(row.secret_encrypted)).toBe(secret);
  });

  it("PATCH changes only the given fields and keeps the secret; 404 without a subscription; an empty body is 400", async () => {
    const missing = await bed.patch({ enabled: false });
    expectErrorEnvelope(missing, {
      status: 404,
      code: "not_found",
      actor: {
        user_id: bed.business.userId,
        membership_id: bed.business.membershipId,
        role: "business_admin",
        environment: "sandbox",
      },
    });
    const { secret, subscription } = (await inject("POST", { url: bed.hookUrl, enabled_events: ["payout.disbursed"] })).json();
    const patched = await bed.patch({ enabled_events: ["payout.settled", "beneficiary.details_submitted"] });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toEqual({ ...subscription, enabled_events: ["payout.settled", "beneficiary.details_submitted"] });
    const disabled = await bed.patch({ enabled: false });
    expect(disabled.json()).toMatchObject({ enabled: false, url: bed.hookUrl });
    const empty = await bed.patch({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe("validation_failed");
    // The secret did not change: an event sent now is signed with it.
    await bed.patch({ enabled: true, enabled_events: ["beneficiary.details_submitted"] });
    await bed.recordEvent("beneficiary.details_submitted");
    bed.receiver.requests.length = 0;
    await bed.drain();
    const { verifyWebhook } = await import("../../src/receiver-kit/index.js");
    const request = bed.receiver.deliveries()[0];
    if (request === undefined) throw new Error("nothing delivered");
    expect(
      verifyWebhook({
        rawBody: request.rawBody,
        header: request.headers["x-service-signature"],
        secret,
        nowSeconds: Math.floor(bed.testApp.clock.now().getTime() / 1000),
      }).ok,
    ).toBe(true);
  });

  it("DELETE answers 204, also when there is nothing to delete; GET then answers 404", async () => {
    await inject("POST", { url: bed.hookUrl, enabled_events: ["payout.disbursed"] });
    expect((await inject("DELETE")).statusCode).toBe(204);
    expect((await inject("DELETE")).statusCode).toBe(204);
    const read = await inject("GET");
    expect(read.statusCode).toBe(404);
    expect(read.json().error.message).toBe("This environment has no webhook subscription.");
  });

  describe("bad input", () => {
    const cases: Array<[string, Record<string, unknown>, number, string, { field: string; code: string } | null]> = [
      [
        "an unknown event type",
        { enabled_events: ["payout.exploded"] },
        400,
        "validation_failed",
        { field: "enabled_events[0]", code: "invalid_enum" },
      ],
      ["no event types", { enabled_events: [] }, 400, "validation_failed", { field: "enabled_events", code: "too_few_items" }],
      ["a repeated event type", { enabled_events: ["payout.failed", "payout.failed"] }, 400, "validation_failed", null],
      ["an http URL", { url: "http://example.com/hook" }, 400, "validation_failed", { field: "url", code: "https_required" }],
      ["an ftp URL", { url: "ftp://example.com/hook" }, 400, "validation_failed", { field: "url", code: "https_required" }],
      ["not a URL", { url: "hook here" }, 400, "validation_failed", { field: "url", code: "invalid_format" }],
      [
        "credentials in the URL",
        { url: "https://user:pass@example.com/hook" },
        400,
        "validation_failed",
        { field: "url", code: "invalid_format" },
      ],
      ["an unknown field", { secret: "mine" }, 400, "validation_failed", { field: "secret", code: "unknown_field" }],
      ["a host that does not resolve", { url: "https://no-such-host.invalid/hook" }, 422, "WEBHOOK_URL_UNRESOLVABLE", null],
    ];
    for (const [name, override, status, code, detail] of cases) {
      it(`${name}: ${status} ${code}, nothing stored`, async () => {
        const response = await inject("POST", { url: bed.hookUrl, enabled_events: ["payout.disbursed"], ...override });
        expect(response.statusCode, response.body).toBe(status);
        const error = response.json().error;
        expect(error.code).toBe(code);
        if (detail !== null) expect(error.details).toEqual(expect.arrayContaining([expect.objectContaining(detail)]));
        expect((await inject("GET")).statusCode).toBe(404);
      });
    }

    it("a URL that answers with a redirect is refused (422 WEBHOOK_URL_REDIRECTS)", async () => {
      bed.receiver.respondWith(() => ({ status: 301, headers: { location: "https://example.com/" } }));
      bed.receiver.requests.length = 0;
      try {
        const response = await inject("POST", { url: `${bed.receiver.origin}/moved`, enabled_events: ["payout.disbursed"] });
        expect(response.statusCode).toBe(422);
        expect(response.json().error.code).toBe("WEBHOOK_URL_REDIRECTS");
        // The check request is marked and unsigned, and the redirect was not followed.
        const check = bed.receiver.requests.at(-1);
        expect(check?.headers["x-service-endpoint-check"]).toBe("1");
        expect(check?.headers["x-service-signature"]).toBeUndefined();
        expect(bed.receiver.requests.filter((r) => r.path !== "/moved")).toHaveLength(0);
        // PATCH to a redirecting URL is refused the same way.
        bed.receiver.respondWith(() => ({ status: 200 }));
        await inject("POST", { url: bed.hookUrl, enabled_events: ["payout.disbursed"] });
        bed.receiver.respondWith(() => ({ status: 302, headers: { location: "/x" } }));
        const patched = await bed.patch({ url: `${bed.receiver.origin}/moved` });
        expect(patched.json().error.code).toBe("WEBHOOK_URL_REDIRECTS");
        expect((await inject("GET")).json().url).toBe(bed.hookUrl);
      } finally {
        bed.receiver.respondWith(() => ({ status: 200 }));
      }
    });

    it("a URL whose endpoint rejects the unsigned check with 4xx is accepted", async () => {
      bed.receiver.respondWith(() => ({ status: 401 }));
      try {
        expect((await inject("POST", { url: bed.hookUrl, enabled_events: ["payout.disbursed"] })).statusCode).toBe(201);
      } finally {
        bed.receiver.respondWith(() => ({ status: 200 }));
      }
    });

    it("a URL nobody answers on is refused (422 WEBHOOK_URL_UNREACHABLE)", async () => {
      const response = await inject("POST", { url: "https://127.0.0.1:1/hook", enabled_events: ["payout.disbursed"] });
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe("WEBHOOK_URL_UNREACHABLE");
    });
  });

  it("a business_read_only key reads the subscription and the log but cannot change them", async () => {
    await inject("POST", { url: bed.hookUrl, enabled_events: ["payout.disbursed"] });
    const readOnly = await createApiKey(bed.testApp.app, bed.key, "business_read_only");
    expect((await inject("GET", undefined, readOnly.key)).statusCode).toBe(200);
    const list = await bed.testApp.app.inject({ method: "GET", url: "/v1/webhook-deliveries", headers: bearer(readOnly.key) });
    expect(list.statusCode).toBe(200);
    for (const method of ["POST", "PATCH", "DELETE"] as const) {
      const response = await inject(
        method,
        method === "DELETE" ? undefined : { enabled_events: ["payout.failed"] },
        readOnly.key,
      );
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe("forbidden");
    }
    expect((await inject("GET")).statusCode).toBe(200);
  });
});
