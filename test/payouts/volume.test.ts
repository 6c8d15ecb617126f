// GET /v1/payouts/volume: payouts created per UTC day and currency over the last N days (the Home page's
// chart), without the payouts that never moved money; only the caller's Business and environment.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, TEST_START, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide, payableBeneficiary } from "./payout-fixtures.js";

const DAY = 24 * 3600 * 1000;

describe("GET /v1/payouts/volume", () => {
  let t: TestApp;
  let biz: RegisteredBusiness;
  let other: RegisteredBusiness;

  const volume = (key: string, query = "") =>
    t.app.inject({ method: "GET", url: `/v1/payouts/volume${query}`, headers: bearer(key) });

  beforeAll(async () => {
    t = await buildTestApp();
    // Everything starts 40 days ago (a payee's bank details are usable from their creation, never before it).
    t.clock.set(new Date(TEST_START.getTime() - 40 * DAY));
    biz = await registerBusiness(t.app, "Volume Co");
    other = await registerBusiness(t.app, "Other Volume Co");
    const { beneficiaryId } = await payableBeneficiary(t.app, biz.keys.sandbox);
    const { beneficiaryId: otherPayee } = await payableBeneficiary(t.app, other.keys.sandbox);
    const pay = (amount: number, key = biz.keys.sandbox, payee = beneficiaryId) =>
      createPayout(t.app, key, { beneficiary_id: payee, amount_minor: amount });
    // 40 days ago: outside a 30-day window.
    await pay(9_999);
    // Day one (2026-05-27): two payouts.
    t.clock.set(TEST_START);
    await pay(100_000);
    await pay(250);
    // Day two: one that counts, one rejected (never moves money), and another Business's.
    t.clock.set(new Date(TEST_START.getTime() + DAY));
    await pay(500);
    const rejected = await pay(700);
    expect((await decide(t.app, biz.keys.sandbox, rejected.payout_id, "reject")).statusCode).toBe(201);
    await pay(31_337, other.keys.sandbox, otherPayee);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("sums per UTC day and currency, oldest first, without rejected payouts or days outside the window", async () => {
    const response = await volume(biz.keys.sandbox);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      since: "2026-04-29",
      until: "2026-05-28",
      time_zone: "UTC",
      days: [
        { date: "2026-05-27", currency: "EUR", count: 2, amount_minor: 100_250 },
        { date: "2026-05-28", currency: "EUR", count: 1, amount_minor: 500 },
      ],
    });
  });

  it("counts only the days asked for, today included", async () => {
    const response = await volume(biz.keys.sandbox, "?days=1");
    expect(response.json()).toEqual({
      since: "2026-05-28",
      until: "2026-05-28",
      time_zone: "UTC",
      days: [{ date: "2026-05-28", currency: "EUR", count: 1, amount_minor: 500 }],
    });
  });

  it("counts the days of the time zone asked for: a payout late in the UTC day falls on the next day east of it", async () => {
    // The clock's now is 2026-05-28 12:00 UTC. In Pacific/Kiritimati (UTC+14) it is the 29th: day two's
    // payouts (12:00 UTC on the 28th) were created at 02:00 on the 29th, day one's on the 28th.
    const east = await volume(biz.keys.sandbox, "?days=2&time_zone=Pacific/Kiritimati");
    expect(east.statusCode, east.body).toBe(200);
    expect(east.json()).toEqual({
      since: "2026-05-28",
      until: "2026-05-29",
      time_zone: "Pacific/Kiritimati",
      days: [
        { date: "2026-05-28", currency: "EUR", count: 2, amount_minor: 100_250 },
        { date: "2026-05-29", currency: "EUR", count: 1, amount_minor: 500 },
      ],
    });
    // In Pacific/Pago_Pago (UTC-11) it is 01:00 on the 28th: day one's payouts were created at 01:00 on the 27th.
    const west = await volume(biz.keys.sandbox, "?days=2&time_zone=Pacific/Pago_Pago");
    expect(west.json()).toEqual({
      since: "2026-05-27",
      until: "2026-05-28",
      time_zone: "Pacific/Pago_Pago",
      days: [
        { date: "2026-05-27", currency: "EUR", count: 2, amount_minor: 100_250 },
        { date: "2026-05-28", currency: "EUR", count: 1, amount_minor: 500 },
      ],
    });
    // A one-day window in New York (08:00 on the 28th) holds only that day.
    expect((await volume(biz.keys.sandbox, "?days=1&time_zone=America/New_York")).json()).toMatchObject({
      since: "2026-05-28",
      days: [{ date: "2026-05-28", amount_minor: 500 }],
    });
  });

  it("shows only the caller's Business and environment; a read-only key may read it", async () => {
    expect((await volume(biz.keys.production)).json()).toMatchObject({ days: [] });
    expect((await volume(other.keys.sandbox)).json()).toMatchObject({
      days: [{ date: "2026-05-28", currency: "EUR", count: 1, amount_minor: 31_337 }],
    });
    const readOnly = await createApiKey(t.app, biz.keys.sandbox, "business_read_only");
    const response = await volume(readOnly.key);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ days: [{ amount_minor: 100_250 }, { amount_minor: 500 }] });
  });

  it("refuses a window outside 1 to 90 days and unknown parameters with the error envelope", async () => {
    for (const query of ["?days=0", "?days=91", "?days=x", "?currency=EUR", "?time_zone=Mars/Olympus"]) {
      const refused = await volume(biz.keys.sandbox, query);
      expect(refused.statusCode, `${query}: ${refused.body}`).toBe(400);
      expect(refused.json()).toMatchObject({ error: { code: "validation_failed" } });
    }
    expect((await t.app.inject({ method: "GET", url: "/v1/payouts/volume" })).statusCode).toBe(401);
  });
});
