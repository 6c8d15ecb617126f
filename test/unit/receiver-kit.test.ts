// The receiver kit (src/receiver-kit): signature verification exactly as the spec says, and the ordering
// rules for applying events. Pure unit tests; the end-to-end check against real deliveries is in
// test/webhooks/delivery.test.ts.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  computeSignature,
  createEventApplier,
  parseSignatureHeader,
  verifySignature,
  verifyWebhook,
  type WebhookEvent,
} from "../../src/receiver-kit/index.js";

const SECRET = "whsec_sandbox_00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const NOW = 1_780_000_000;
const BODY =
  '{"id":"e1","type":"payout.disbursed","api_version":"2026-05-27","occurred_at":"2026-05-27T12:00:00.000Z","created_at":"2026-05-27T12:00:00.000Z","sequence":7,"data":{"payout_id":"p1","status":"disbursed"}}';

function sign(body: string, t: number, secret = SECRET): string {
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

describe("signature verification", () => {
  it("accepts a correct signature over the raw bytes, as a string or a Buffer", () => {
    expect(verifySignature({ rawBody: BODY, header: sign(BODY, NOW), secret: SECRET, nowSeconds: NOW })).toEqual({ ok: true });
    expect(verifySignature({ rawBody: Buffer.from(BODY), header: sign(BODY, NOW), secret: SECRET, nowSeconds: NOW }).ok).toBe(
      true,
    );
    const result = verifyWebhook({ rawBody: BODY, header: [sign(BODY, NOW)], secret: SECRET, nowSeconds: NOW });
    expect(result.ok && result.event.id).toBe("e1");
    expect(computeSignature(SECRET, NOW, BODY)).toBe(sign(BODY, NOW).split("v1=")[1]);
  });

  it("rejects a body changed by even one byte, or re-serialized JSON", () => {
    const header = sign(BODY, NOW);
    expect(verifySignature({ rawBody: BODY.replace("7", "8"), header, secret: SECRET, nowSeconds: NOW })).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
    const reserialized = JSON.stringify(JSON.parse(BODY), null, 1);
    expect(verifySignature({ rawBody: reserialized, header, secret: SECRET, nowSeconds: NOW }).ok).toBe(false);
    expect(verifySignature({ rawBody: BODY, header, secret: `${SECRET}0`, nowSeconds: NOW }).ok).toBe(false);
  });

  it("allows 300 seconds of clock difference either way, and not one more", () => {
    for (const skew of [-300, 0, 300]) {
      expect(
        verifySignature({ rawBody: BODY, header: sign(BODY, NOW + skew), secret: SECRET, nowSeconds: NOW }).ok,
        String(skew),
      ).toBe(true);
    }
    for (const skew of [-301, 301, -86_400]) {
      expect(verifySignature({ rawBody: BODY, header: sign(BODY, NOW + skew), secret: SECRET, nowSeconds: NOW })).toEqual({
        ok: false,
        reason: "timestamp_out_of_tolerance",
      });
    }
  });

  it("rejects a missing or malformed header", () => {
    const v1 = sign(BODY, NOW).split(",")[1];
    const cases: Array<[string | undefined | string[], string]> = [
      [undefined, "missing_header"],
      ["", "missing_header"],
      [[], "missing_header"],
      ["garbage", "malformed_header"],
      [`t=${NOW}`, "malformed_header"],
      [String(v1), "malformed_header"],
      [`t=abc,${v1}`, "malformed_header"],
      [`t=${NOW},v1=XYZ`, "malformed_header"],
      [`t=${NOW},v1=${"A".repeat(64)}`, "malformed_header"],
      [`t=${NOW},t=${NOW},${v1}`, "malformed_header"],
      [`t=-5,${v1}`, "malformed_header"],
    ];
    for (const [header, reason] of cases) {
      expect(verifySignature({ rawBody: BODY, header, secret: SECRET, nowSeconds: NOW }), JSON.stringify(header)).toEqual({
        ok: false,
        reason,
      });
    }
    expect(parseSignatureHeader(`t=${NOW},v1=${"a".repeat(64)},v2=whatever`)).toEqual({ t: NOW, v1: ["a".repeat(64)] });
  });

  it("rejects a signed body that is not an envelope", () => {
    expect(verifyWebhook({ rawBody: "[1,2]", header: sign("[1,2]", NOW), secret: SECRET, nowSeconds: NOW })).toEqual({
      ok: false,
      reason: "malformed_body",
    });
    expect(verifyWebhook({ rawBody: "{", header: sign("{", NOW), secret: SECRET, nowSeconds: NOW })).toEqual({
      ok: false,
      reason: "malformed_body",
    });
  });
});

describe("applying events in order", () => {
  let n = 0;
  const event = (
    type: string,
    subject: string,
    occurredAt: string,
    sequence: number,
    extra: Record<string, unknown> = {},
  ): WebhookEvent => {
    n += 1;
    const key = type.startsWith("payout.") ? "payout_id" : "beneficiary_id";
    return {
      id: `evt-${n}`,
      type,
      api_version: "2026-05-27",
      occurred_at: occurredAt,
      created_at: occurredAt,
      sequence,
      data: { [key]: subject, ...extra },
    };
  };

  it("deduplicates on id, and ignores an event sorting before the newest applied one of its subject", async () => {
    const applier = createEventApplier();
    const applied: string[] = [];
    const apply = async (e: WebhookEvent) => {
      applied.push(e.id);
    };
    const disbursed = event("payout.disbursed", "p1", "2026-05-27T12:00:00.000Z", 10);
    const settled = event("payout.settled", "p1", "2026-05-28T12:00:00.000Z", 20);
    expect(await applier.handle(settled, apply)).toBe("applied");
    expect(await applier.handle(disbursed, apply)).toBe("stale");
    expect(await applier.handle(settled, apply)).toBe("duplicate");
    // Equal occurred_at: sequence breaks the tie.
    const tieLow = event("payout.returned", "p1", "2026-05-28T12:00:00.000Z", 19);
    const tieHigh = event("payout.returned", "p1", "2026-05-28T12:00:00.000Z", 21);
    expect(await applier.handle(tieLow, apply)).toBe("stale");
    expect(await applier.handle(tieHigh, apply)).toBe("applied");
    // Another subject, and the other family, are ordered on their own.
    const otherPayout = event("payout.disbursed", "p2", "2026-05-01T00:00:00.000Z", 1);
    const otherFamily = event("beneficiary.details_submitted", "p1", "2026-05-01T00:00:00.000Z", 2);
    expect(await applier.handle(otherPayout, apply)).toBe("applied");
    expect(await applier.handle(otherFamily, apply)).toBe("applied");
    expect(applied).toEqual([settled.id, tieHigh.id, otherPayout.id, otherFamily.id]);
  });

  it("always applies payout.delivered, even dated before a disbursed already applied; the higher sequence is the correction", async () => {
    const applier = createEventApplier();
    const applied: string[] = [];
    const apply = async (e: WebhookEvent) => {
      applied.push(e.id);
    };
    const disbursed = event("payout.disbursed", "p9", "2026-05-27T12:00:00.000Z", 50);
    const delivered = event("payout.delivered", "p9", "2026-05-27T11:59:00.000Z", 51, {
      delivered_at: "2026-05-27T11:59:00.000Z",
    });
    const correction = event("payout.delivered", "p9", "2026-05-27T11:58:00.000Z", 60, {
      delivered_at: "2026-05-27T11:58:00.000Z",
    });
    const lateOriginal = event("payout.delivered", "p9", "2026-05-27T11:57:00.000Z", 40, {
      delivered_at: "2026-05-27T11:57:00.000Z",
    });
    expect(await applier.handle(disbursed, apply)).toBe("applied");
    expect(await applier.handle(delivered, apply)).toBe("applied");
    expect(await applier.handle(correction, apply)).toBe("applied");
    expect(await applier.handle(lateOriginal, apply)).toBe("stale");
    // delivered does not move the status high-water mark: a later status event still applies.
    const settled = event("payout.settled", "p9", "2026-05-29T00:00:00.000Z", 70);
    expect(await applier.handle(settled, apply)).toBe("applied");
    expect(applied).toEqual([disbursed.id, delivered.id, correction.id, settled.id]);
  });

  it("does not mark an event seen when applying it fails, so the retry applies it", async () => {
    const applier = createEventApplier();
    const e = event("beneficiary.details_submitted", "b1", "2026-05-27T12:00:00.000Z", 1);
    await expect(
      applier.handle(e, async () => {
        throw new Error("database down");
      }),
    ).rejects.toThrow("database down");
    expect(await applier.handle(e, async () => {})).toBe("applied");
  });
});

describe("the example receiver (examples/webhook-receiver.ts)", () => {
  it("acknowledges a signed delivery once, answers 400 to an unsigned or forged one", async () => {
    const { createServer } = await import("node:http");
    const { createWebhookRequestListener } = await import("../../examples/webhook-receiver.js");
    const seen: string[] = [];
    const server = createServer(
      createWebhookRequestListener({
        secret: SECRET,
        nowSeconds: () => NOW,
        onEvent: async (e) => {
          seen.push(e.id);
        },
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const post = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${port}/`, {
        method: "POST",
        body: BODY,
        headers: { "content-type": "application/json", ...headers },
      });
    try {
      const first = await post({ "x-service-signature": sign(BODY, NOW) });
      expect(first.status).toBe(204);
      expect(first.headers.get("x-outcome")).toBe("applied");
      const again = await post({ "x-service-signature": sign(BODY, NOW + 30) });
      expect(again.headers.get("x-outcome")).toBe("duplicate");
      expect((await post({})).status).toBe(400);
      expect((await post({ "x-service-signature": sign(BODY, NOW, `${SECRET}x`) })).status).toBe(400);
      expect(seen).toEqual(["e1"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
