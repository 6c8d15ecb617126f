// The delivery log (filters, pages, attempts) and the OpenAPI `webhooks` section: every event type is
// published, and what the service actually sends validates against what it publishes.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../src/platform/events/outbox.js";
import { bearer, createBeneficiary, registerBankAccount, registerBusiness } from "../helpers/factories.js";
import { startWebhookTestBed, type WebhookTestBed } from "./webhook-test-bed.js";

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

interface WebhookOperation {
  post: {
    parameters: Array<{ name: string; in: string; required: boolean }>;
    requestBody: { content: { "application/json": { schema: Record<string, unknown> } } };
  };
}

describe("webhooks in the OpenAPI document and the delivery log", () => {
  let bed: WebhookTestBed;
  let webhooks: Record<string, WebhookOperation>;

  beforeAll(async () => {
    bed = await startWebhookTestBed();
    const doc = (await bed.testApp.app.inject({ method: "GET", url: "/v1/openapi.json" })).json() as {
      webhooks: Record<string, WebhookOperation>;
      components: { schemas: Record<string, unknown> };
    };
    webhooks = doc.webhooks;
    await bed.subscribe([...EVENT_TYPES]);
  });
  afterAll(async () => bed?.close());

  it("publishes an envelope and a data shape for every event type, with the signature header", () => {
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const operation = webhooks[type]?.post;
      expect(operation?.parameters).toEqual([
        expect.objectContaining({ name: "X-Service-Signature", in: "header", required: true }),
      ]);
      const schema = operation?.requestBody.content["application/json"].schema as {
        required: string[];
        properties: { type: { enum: string[] }; api_version: { enum: string[] }; data: { required: string[] } };
      };
      expect(schema.required.sort()).toEqual(["api_version", "created_at", "data", "id", "occurred_at", "sequence", "type"]);
      expect(schema.properties.type.enum).toEqual([type]);
      expect(schema.properties.api_version.enum).toEqual(["2026-05-27"]);
      if (type.startsWith("payout.")) {
        expect(schema.properties.data.required).toEqual(
          expect.arrayContaining(["payout_id", "external_ref", "beneficiary_id", "amount", "currency", "rail_ref", "status"]),
        );
      } else if (type.startsWith("bank_file.")) {
        // The ordering subject of bank_file.* events is the inbound file.
        expect(schema.properties.data.required).toEqual(
          expect.arrayContaining(["inbound_file_id", "rail", "file_name", "reason"]),
        );
      } else if (type.startsWith("top_up.")) {
        // The ordering subject of top_up.* events is the top-up.
        expect(schema.properties.data.required).toEqual(
          expect.arrayContaining(["top_up_id", "funding_account_id", "amount", "amount_minor", "currency", "status"]),
        );
      } else if (type.startsWith("statement_line.")) {
        // The ordering subject of statement_line.* events is the bank statement's line.
        expect(schema.properties.data.required).toEqual(
          expect.arrayContaining(["statement_line_id", "statement_id", "funding_account_id", "amount_minor", "currency"]),
        );
      } else if (type === "funding_account.balance_mismatch") {
        // The statement whose closing balance or sequence number disagrees with the ledger.
        expect(schema.properties.data.required).toEqual(expect.arrayContaining(["funding_account_id", "statement_id"]));
      } else if (type === "funding_account.credited") {
        // A statement credit that matched nothing funded the account: its amount and the balances after it.
        expect(schema.properties.data.required).toEqual(
          expect.arrayContaining(["funding_account_id", "currency", "amount_minor", "posted_minor", "available_minor"]),
        );
      } else if (type.startsWith("funding_account.")) {
        // The ordering subject of funding_account.* events is the funding account; its balances after the posting.
        expect(schema.properties.data.required).toEqual(
          expect.arrayContaining(["funding_account_id", "currency", "posted_minor", "pending_minor", "available_minor"]),
        );
      } else {
        expect(schema.properties.data.required).toContain("beneficiary_id");
      }
    }
    const delivered = webhooks["payout.delivered"]?.post.requestBody.content["application/json"].schema as {
      properties: { data: { required: string[] } };
    };
    expect(delivered.properties.data.required).toContain("delivered_at");
  });

  it("what is sent validates against what is published (a real registration, and spec-shaped payout data)", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    bed.receiver.requests.length = 0;
    const beneficiary = await createBeneficiary(bed.testApp.app, bed.key);
    await registerBankAccount(bed.testApp.app, bed.key, beneficiary.id);
    const payoutId = "0190aaaa-0000-7000-8000-0000000000aa";
    const base = {
      payout_id: payoutId,
      external_ref: "INV-42",
      beneficiary_id: beneficiary.id,
      amount: "1234.50",
      currency: "EUR",
      rail_ref: "RAIL-1",
    };
    await bed.recordEvent("payout.disbursed", { data: { ...base, status: "disbursed" } });
    await bed.recordEvent("payout.delivered", {
      data: { ...base, status: "disbursed", delivered_at: "2026-05-27T11:00:00.000Z" },
    });
    await bed.drain();
    const received = bed.receiver.deliveries();
    expect(received).toHaveLength(3);
    for (const request of received) {
      const envelope = JSON.parse(request.rawBody.toString()) as { type: string };
      const schema = webhooks[envelope.type]?.post.requestBody.content["application/json"].schema;
      const validate = ajv.compile(schema as object);
      expect(validate(envelope), `${envelope.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    // And a payload missing a published field does not. The three deliveries ran concurrently, in any order:
    // find the payout.disbursed one by its type (another type would fail this schema for its type alone).
    const schema = webhooks["payout.disbursed"]?.post.requestBody.content["application/json"].schema;
    const disbursed = received
      .map((request) => JSON.parse(request.rawBody.toString()) as { type: string; data: Record<string, unknown> })
      .find((envelope) => envelope.type === "payout.disbursed");
    if (disbursed === undefined) throw new Error("no payout.disbursed delivery");
    expect(ajv.compile(schema as object)(disbursed)).toBe(true);
    delete disbursed.data.payout_id;
    expect(ajv.compile(schema as object)(disbursed)).toBe(false);
  });

  describe("delivery log", () => {
    const list = (query: string) =>
      bed.testApp.app.inject({ method: "GET", url: `/v1/webhook-deliveries${query}`, headers: bearer(bed.key) });

    it("lists newest first with attempts, filters by type, status and time, and pages with a cursor", async () => {
      await bed.patch({ enabled_events: ["beneficiary.details_submitted", "beneficiary.enrollment_rejected"] });
      bed.testApp.clock.advance(60_000);
      const since = bed.testApp.clock.now();
      let failingId = "";
      bed.receiver.respondWith((request) => ({
        status: (JSON.parse(request.rawBody.toString()) as { id?: string }).id === failingId ? 500 : 200,
      }));
      const failed = await bed.recordEvent("beneficiary.details_submitted");
      failingId = failed.id;
      bed.testApp.clock.advance(1000);
      const ok1 = await bed.recordEvent("beneficiary.details_submitted");
      bed.testApp.clock.advance(1000);
      const rejected = await bed.recordEvent("beneficiary.enrollment_rejected", {
        data: {
          beneficiary_id: "0190aaaa-0000-7000-8000-0000000000bb",
          status: "rejected",
          bank_account_id: null,
          reason: "Closed account",
        },
      });
      await bed.worker.drain();

      const all = (await list(`?since=${encodeURIComponent(since.toISOString())}`)).json();
      expect(all.deliveries.map((d: { id: string }) => d.id)).toEqual([rejected.id, ok1.id, failed.id]);
      expect(all.next_cursor).toBeNull();
      const failedEntry = all.deliveries[2];
      expect(failedEntry).toMatchObject({
        event_type: "beneficiary.details_submitted",
        status: "pending",
        attempt_count: 1,
        next_attempt_at: new Date(bed.testApp.clock.now().getTime() + 30_000).toISOString(),
        attempts: [
          {
            series: 1,
            attempt_number: 1,
            succeeded: false,
            status_code: 500,
            error_class: "http_status",
            duration_ms: expect.any(Number),
            sent_at: expect.any(String),
          },
        ],
      });

      const byType = (
        await list(`?since=${encodeURIComponent(since.toISOString())}&event_type=beneficiary.enrollment_rejected`)
      ).json();
      expect(byType.deliveries.map((d: { id: string }) => d.id)).toEqual([rejected.id]);
      const pending = (await list(`?since=${encodeURIComponent(since.toISOString())}&status=pending`)).json();
      expect(pending.deliveries.map((d: { id: string }) => d.id)).toEqual([failed.id]);
      const until = (
        await list(
          `?since=${encodeURIComponent(since.toISOString())}&until=${encodeURIComponent(new Date(since.getTime() + 1500).toISOString())}`,
        )
      ).json();
      expect(until.deliveries.map((d: { id: string }) => d.id)).toEqual([ok1.id, failed.id]);

      const first = (await list(`?since=${encodeURIComponent(since.toISOString())}&limit=2`)).json();
      expect(first.deliveries).toHaveLength(2);
      expect(typeof first.next_cursor).toBe("string");
      const second = (
        await list(`?since=${encodeURIComponent(since.toISOString())}&limit=2&cursor=${encodeURIComponent(first.next_cursor)}`)
      ).json();
      expect(second.deliveries.map((d: { id: string }) => d.id)).toEqual([failed.id]);
      expect(second.next_cursor).toBeNull();
    });

    it("filters by subject_id: the deliveries of the events about one payout, and no other", async () => {
      await bed.patch({ enabled_events: ["payout.disbursed", "payout.delivered"] });
      bed.receiver.respondWith(() => ({ status: 200 }));
      const mine = "0190aaaa-0000-7000-8000-0000000000d1";
      const other = "0190aaaa-0000-7000-8000-0000000000d2";
      const data = (payoutId: string) => ({
        payout_id: payoutId,
        external_ref: null,
        beneficiary_id: "0190aaaa-0000-7000-8000-0000000000bb",
        amount: "1.00",
        currency: "EUR",
        rail_ref: null,
        status: "disbursed",
      });
      const disbursed = await bed.recordEvent("payout.disbursed", { data: data(mine) });
      await bed.recordEvent("payout.disbursed", { data: data(other) });
      const delivered = await bed.recordEvent("payout.delivered", {
        data: { ...data(mine), delivered_at: "2026-05-27T11:00:00.000Z" },
      });
      await bed.worker.drain();
      const body = (await list(`?subject_id=${mine.toUpperCase()}`)).json();
      expect(body.deliveries.map((d: { id: string }) => d.id)).toEqual([delivered.id, disbursed.id]);
      const none = (await list("?subject_id=0190aaaa-0000-7000-8000-0000000000d3")).json();
      expect(none.deliveries).toEqual([]);
      // Another Business's key sees none of them.
      const stranger = await registerBusiness(bed.testApp.app);
      const foreign = await bed.testApp.app.inject({
        method: "GET",
        url: `/v1/webhook-deliveries?subject_id=${mine}`,
        headers: bearer(stranger.keys.sandbox),
      });
      expect(foreign.json().deliveries).toEqual([]);
    });

    it("refuses bad filters with validation_failed, and an unknown delivery with 404", async () => {
      for (const query of [
        "?status=lost",
        "?event_type=payout.nope",
        "?since=yesterday",
        "?subject_id=not-a-uuid",
        "?limit=0",
        "?cursor=bogus",
        "?colour=red",
      ]) {
        const response = await list(query);
        expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
        expect(response.json().error.code).toBe("validation_failed");
      }
      const missing = await bed.testApp.app.inject({
        method: "GET",
        url: "/v1/webhook-deliveries/0190aaaa-0000-7000-8000-0000000000cc",
        headers: bearer(bed.key),
      });
      expect(missing.statusCode).toBe(404);
      const notUuid = await bed.testApp.app.inject({
        method: "GET",
        url: "/v1/webhook-deliveries/abc",
        headers: bearer(bed.key),
      });
      expect(notUuid.statusCode).toBe(400);
      expect(notUuid.json().error.code).toBe("bad_request");
    });
  });
});
