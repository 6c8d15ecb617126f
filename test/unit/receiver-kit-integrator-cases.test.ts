// The receiver kit as an integrator meets it: the system clock when no `nowSeconds` is passed, a secret
// rotation (the header carries one `v1` per active secret), headers written by hand with spaces, envelopes
// missing one field, and Beneficiary events ordered on their own. Pure unit tests.
import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createEventApplier,
  subjectOf,
  verifySignature,
  verifyWebhook,
  type WebhookEvent,
} from "../../src/receiver-kit/index.js";

const OLD_SECRET = "whsec_old_00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const NEW_SECRET = "whsec_new_ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";
const NOW = 1_780_000_000;

const ENVELOPE = {
  id: "e1",
  type: "beneficiary.details_submitted",
  api_version: "2026-05-27",
  occurred_at: "2026-05-27T12:00:00.000Z",
  created_at: "2026-05-27T12:00:00.000Z",
  sequence: 3,
  data: { beneficiary_id: "b1" },
};
const BODY = JSON.stringify(ENVELOPE);

function v1(body: string, t: number, secret: string): string {
  return createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
}

describe("the system clock when nowSeconds is not given", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("accepts a delivery signed now and refuses one signed 301 seconds ago, reading the clock in seconds", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(NOW * 1000 + 999));
    const fresh = `t=${NOW},v1=${v1(BODY, NOW, NEW_SECRET)}`;
    expect(verifySignature({ rawBody: BODY, header: fresh, secret: NEW_SECRET })).toEqual({ ok: true });
    const stale = `t=${NOW - 301},v1=${v1(BODY, NOW - 301, NEW_SECRET)}`;
    expect(verifySignature({ rawBody: BODY, header: stale, secret: NEW_SECRET })).toEqual({
      ok: false,
      reason: "timestamp_out_of_tolerance",
    });
  });

  it("honours a custom tolerance against the system clock", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(NOW * 1000));
    const header = `t=${NOW - 301},v1=${v1(BODY, NOW - 301, NEW_SECRET)}`;
    expect(verifySignature({ rawBody: BODY, header, secret: NEW_SECRET, toleranceSeconds: 600 }).ok).toBe(true);
    expect(verifySignature({ rawBody: BODY, header, secret: NEW_SECRET, toleranceSeconds: 60 }).ok).toBe(false);
  });
});

describe("a secret rotation", () => {
  const both = `t=${NOW},v1=${v1(BODY, NOW, OLD_SECRET)},v1=${v1(BODY, NOW, NEW_SECRET)}`;

  it("a signature header carrying the old and the new v1 during a rotation verifies with either secret", () => {
    expect(verifySignature({ rawBody: BODY, header: both, secret: OLD_SECRET, nowSeconds: NOW })).toEqual({ ok: true });
    expect(verifySignature({ rawBody: BODY, header: both, secret: NEW_SECRET, nowSeconds: NOW })).toEqual({ ok: true });
  });

  it("the same header still refuses a third secret, and a body changed under both signatures", () => {
    expect(verifySignature({ rawBody: BODY, header: both, secret: `${NEW_SECRET}x`, nowSeconds: NOW })).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
    expect(verifySignature({ rawBody: `${BODY} `, header: both, secret: OLD_SECRET, nowSeconds: NOW })).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
  });
});

describe("headers written with spaces", () => {
  it("accepts spaces after the commas and around the values, as hand-written or proxied headers have them", () => {
    const sig = v1(BODY, NOW, NEW_SECRET);
    for (const header of [`t=${NOW}, v1=${sig}`, ` t=${NOW} ,v1=${sig} `, `t= ${NOW},v1= ${sig}`]) {
      expect(verifySignature({ rawBody: BODY, header, secret: NEW_SECRET, nowSeconds: NOW }), header).toEqual({ ok: true });
    }
  });

  it("calls a header of blanks missing, and one with an empty part malformed", () => {
    expect(verifySignature({ rawBody: BODY, header: "   ", secret: NEW_SECRET, nowSeconds: NOW })).toEqual({
      ok: false,
      reason: "missing_header",
    });
    const sig = v1(BODY, NOW, NEW_SECRET);
    expect(verifySignature({ rawBody: BODY, header: `t=${NOW},,v1=${sig}`, secret: NEW_SECRET, nowSeconds: NOW })).toEqual({
      ok: false,
      reason: "malformed_header",
    });
    expect(verifySignature({ rawBody: BODY, header: `t=${NOW},=${sig}`, secret: NEW_SECRET, nowSeconds: NOW })).toEqual({
      ok: false,
      reason: "malformed_header",
    });
  });
});

describe("the envelope behind a valid signature", () => {
  const verify = (body: string) =>
    verifyWebhook({ rawBody: body, header: `t=${NOW},v1=${v1(body, NOW, NEW_SECRET)}`, secret: NEW_SECRET, nowSeconds: NOW });

  it("hands over the parsed event when every field the applier reads is there", () => {
    const result = verify(BODY);
    expect(result).toEqual({ ok: true, event: ENVELOPE });
    expect(
      verifyWebhook({
        rawBody: Buffer.from(BODY),
        header: `t=${NOW},v1=${v1(BODY, NOW, NEW_SECRET)}`,
        secret: NEW_SECRET,
        nowSeconds: NOW,
      }),
    ).toEqual({ ok: true, event: ENVELOPE });
  });

  it.each([
    ["id missing", { id: undefined }],
    ["id a number", { id: 1 }],
    ["type missing", { type: undefined }],
    ["occurred_at a number", { occurred_at: 1_780_000_000 }],
    ["sequence as text", { sequence: "3" }],
    ["sequence missing", { sequence: undefined }],
    ["data missing", { data: undefined }],
    ["data null", { data: null }],
    ["data a string", { data: "b1" }],
  ])("refuses a signed envelope with %s as malformed_body", (_label, change) => {
    expect(verify(JSON.stringify({ ...ENVELOPE, ...change }))).toEqual({ ok: false, reason: "malformed_body" });
  });

  it.each(["null", "42", '"text"'])("refuses the signed JSON value %s as malformed_body", (body) => {
    expect(verify(body)).toEqual({ ok: false, reason: "malformed_body" });
  });

  it("reports a bad signature before looking at the body", () => {
    expect(verifyWebhook({ rawBody: "{", header: `t=${NOW},v1=${"0".repeat(64)}`, secret: NEW_SECRET, nowSeconds: NOW })).toEqual(
      {
        ok: false,
        reason: "signature_mismatch",
      },
    );
  });
});

describe("ordering beneficiary.* events", () => {
  let n = 0;
  const event = (type: string, data: Record<string, unknown>, occurredAt: string, sequence: number): WebhookEvent => {
    n += 1;
    return { id: `evt-${n}`, type, api_version: "2026-05-27", occurred_at: occurredAt, created_at: occurredAt, sequence, data };
  };

  it("ignores a Beneficiary event older than the newest applied for that Beneficiary, and orders each Beneficiary alone", async () => {
    const applier = createEventApplier();
    const applied: string[] = [];
    const apply = async (e: WebhookEvent) => {
      applied.push(e.id);
    };
    const rejected = event("beneficiary.enrollment_rejected", { beneficiary_id: "b1" }, "2026-05-28T00:00:00.000Z", 9);
    const submitted = event("beneficiary.details_submitted", { beneficiary_id: "b1" }, "2026-05-27T00:00:00.000Z", 4);
    const otherBeneficiary = event("beneficiary.details_submitted", { beneficiary_id: "b2" }, "2026-05-27T00:00:00.000Z", 5);
    expect(await applier.handle(rejected, apply)).toBe("applied");
    expect(await applier.handle(submitted, apply)).toBe("stale");
    expect(await applier.handle(otherBeneficiary, apply)).toBe("applied");
    expect(applied).toEqual([rejected.id, otherBeneficiary.id]);
  });

  it("names the subject of each family, and none for an event without one", () => {
    expect(subjectOf(event("beneficiary.details_submitted", { beneficiary_id: "b1" }, "2026-05-27T00:00:00.000Z", 1))).toBe(
      "beneficiary_id:b1",
    );
    expect(subjectOf(event("payout.settled", { payout_id: "p1" }, "2026-05-27T00:00:00.000Z", 1))).toBe("payout_id:p1");
    // A payout event does not carry its Beneficiary as its subject, nor a Beneficiary event its payout.
    expect(subjectOf(event("payout.settled", { beneficiary_id: "b1" }, "2026-05-27T00:00:00.000Z", 1))).toBeNull();
    expect(subjectOf(event("beneficiary.details_submitted", { payout_id: "p1" }, "2026-05-27T00:00:00.000Z", 1))).toBeNull();
    expect(subjectOf(event("account.updated", { payout_id: "p1" }, "2026-05-27T00:00:00.000Z", 1))).toBeNull();
    expect(subjectOf(event("payout.settled", { payout_id: 7 }, "2026-05-27T00:00:00.000Z", 1))).toBeNull();
  });

  // A family the kit does not know (one the service may add later) has no subject to order by.
  it("applies events without a subject in any order, deduplicated on id only", async () => {
    const applier = createEventApplier();
    const late = event("account.updated", {}, "2026-05-28T00:00:00.000Z", 2);
    const early = event("account.updated", {}, "2026-05-27T00:00:00.000Z", 1);
    expect(await applier.handle(late, async () => {})).toBe("applied");
    expect(await applier.handle(early, async () => {})).toBe("applied");
    expect(await applier.handle(early, async () => {})).toBe("duplicate");
  });
});

describe("headers with something extra", () => {
  const sig = v1(BODY, NOW, NEW_SECRET);
  it.each([
    ["a nameless part beside valid ones", `t=${NOW},v1=${sig},=x`],
    ["a timestamp with trailing letters", `t=${NOW}abc,v1=${sig}`],
    ["a 13-digit timestamp", `t=${NOW}000,v1=${sig}`],
    ["a signature with two extra hex digits", `t=${NOW},v1=${sig}00`],
    ["a signature with a character in front", `t=${NOW},v1=x${sig}`],
  ])("refuses %s as malformed, even when the rest would verify", (_label, header) => {
    expect(verifySignature({ rawBody: BODY, header, secret: NEW_SECRET, nowSeconds: NOW })).toEqual({
      ok: false,
      reason: "malformed_header",
    });
  });
});

describe("ordering by occurred_at before sequence", () => {
  const event = (
    id: string,
    type: string,
    occurredAt: string,
    sequence: number,
    data: Record<string, unknown>,
  ): WebhookEvent => ({
    id,
    type,
    api_version: "2026-05-27",
    occurred_at: occurredAt,
    created_at: occurredAt,
    sequence,
    data,
  });

  it("an event that happened earlier is stale even when it was recorded with a higher sequence", async () => {
    const applier = createEventApplier();
    const settled = event("a", "payout.settled", "2026-05-29T00:00:00.000Z", 5, { payout_id: "p1" });
    const disbursed = event("b", "payout.disbursed", "2026-05-27T00:00:00.000Z", 9, { payout_id: "p1" });
    expect(await applier.handle(settled, async () => {})).toBe("applied");
    expect(await applier.handle(disbursed, async () => {})).toBe("stale");
  });

  it("an event that happened later applies even when it was recorded with a lower sequence", async () => {
    const applier = createEventApplier();
    const disbursed = event("a", "payout.disbursed", "2026-05-27T00:00:00.000Z", 9, { payout_id: "p1" });
    const settled = event("b", "payout.settled", "2026-05-29T00:00:00.000Z", 5, { payout_id: "p1" });
    expect(await applier.handle(disbursed, async () => {})).toBe("applied");
    expect(await applier.handle(settled, async () => {})).toBe("applied");
  });

  it("does not order an unknown event family by a beneficiary_id it happens to carry", () => {
    expect(subjectOf(event("a", "account.updated", "2026-05-27T00:00:00.000Z", 1, { beneficiary_id: "b1" }))).toBeNull();
  });
});
