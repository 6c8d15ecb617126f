// Top-ups: recorded by one person, pending until a different person approves (credited once, in the approval's
// transaction, with top_up.approved and an audit record) or rejects (nothing credited); listed with filters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createApiKey, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { addTeamMember, type TeamMember } from "../helpers/team.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { balancesOf, decideTopUp, openFundingAccount, recordTopUp, topUpEvents } from "./top-up-fixtures.js";

let t: TestApp;
let business: RegisteredBusiness;
let checker: TeamMember;
let maker: string;
let accountId: string;
const tenant = () => ({ businessId: business.businessId, environment: "sandbox" as const });
const db = () => t.runtime.deps.database.db;

beforeAll(async () => {
  t = await buildTestApp();
  business = await registerBusiness(t.app);
  maker = business.keys.sandbox;
  checker = await addTeamMember(t, business.businessId);
  accountId = await openFundingAccount(t, tenant(), "EUR");
});
afterAll(async () => t?.close());

async function audit(action: string) {
  const response = await t.app.inject({ method: "GET", url: `/v1/audit-records?action=${action}`, headers: bearer(maker) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().audit_records as { subject: { id: string } | null; details: Record<string, unknown> }[];
}

describe("top-ups", () => {
  it("records a top-up pending approval in the account's currency, crediting nothing", async () => {
    const before = await balancesOf(t, tenant(), accountId);
    const response = await recordTopUp(t, maker, accountId, { amount_minor: 50_000, reference: "WIRE-2026-001" });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      funding_account_id: accountId,
      amount_minor: 50_000,
      currency: "EUR",
      reference: "WIRE-2026-001",
      status: "pending_approval",
      created_by: { api_key_id: business.keyIds.sandbox, membership_id: business.membershipId, user_id: business.userId },
      decided_by: null,
      decided_at: null,
      transfer_id: null,
    });
    expect(await balancesOf(t, tenant(), accountId)).toEqual(before);
    const read = await t.app.inject({ method: "GET", url: `/v1/top-ups/${response.json().id}`, headers: bearer(maker) });
    expect(read.json()).toEqual(response.json());
    expect((await audit("top_up_created")).map((r) => r.subject?.id)).toContain(response.json().id);
  });

  it("refuses an unknown funding account, and another Business's, with 404", async () => {
    const unknown = await recordTopUp(t, maker, "0196f1a2-7b3c-7d10-8a11-4c5e6f708199", { amount_minor: 1, reference: "X" });
    expectErrorEnvelope(unknown, {
      status: 404,
      code: "not_found",
      actor: { user_id: business.userId, membership_id: business.membershipId, role: "business_admin", environment: "sandbox" },
    });
    const other = await registerBusiness(t.app);
    const theirs = await recordTopUp(t, other.keys.sandbox, accountId, { amount_minor: 1, reference: "X" });
    expect(theirs.statusCode).toBe(404);
    // Nor is a production key's account the sandbox one.
    expect((await recordTopUp(t, business.keys.production, accountId, { amount_minor: 1, reference: "X" })).statusCode).toBe(404);
  });

  it("validates the amount and the reference", async () => {
    for (const payload of [
      { amount_minor: 0, reference: "R" },
      { amount_minor: 1.5, reference: "R" },
      { amount_minor: 100, reference: "   " },
      { amount_minor: 100 },
    ]) {
      const response = await recordTopUp(t, maker, accountId, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe("validation_failed");
    }
  });

  it("lets neither the maker's key nor their second key approve; a second person approves and the account is credited once", async () => {
    const topUp = (await recordTopUp(t, maker, accountId, { amount_minor: 12_345, reference: "WIRE-2" })).json();
    const makersOtherKey = await createApiKey(t.app, maker, "business_admin", "maker's second key");
    for (const sameMaker of [maker, makersOtherKey.key]) {
      const own = await decideTopUp(t, sameMaker, topUp.id, "approve");
      expect(own.statusCode, own.body).toBe(403);
      expect(own.json().error.code).toBe("TOP_UP_MAKER_CHECKER_VIOLATION");
    }
    const before = await balancesOf(t, tenant(), accountId);
    const approved = await decideTopUp(t, checker.keys.sandbox, topUp.id, "approve");
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: "approved",
      decided_by: { membership_id: checker.membershipId, user_id: checker.userId },
      reason: null,
    });
    expect(approved.json().transfer_id).toEqual(expect.any(String));
    expect(await balancesOf(t, tenant(), accountId)).toEqual({ posted: before.posted + 12_345, pending: before.pending });

    const events = await topUpEvents(db(), topUp.id);
    expect(events).toEqual([
      {
        type: "top_up.approved",
        data: {
          top_up_id: topUp.id,
          funding_account_id: accountId,
          amount: "123.45",
          amount_minor: 12_345,
          currency: "EUR",
          reference: "WIRE-2",
          status: "approved",
          transfer_id: approved.json().transfer_id,
        },
      },
    ]);
    const decided = (await audit("top_up_decided")).find((r) => r.subject?.id === topUp.id);
    expect(decided?.details).toMatchObject({
      outcome: "approve",
      amount_minor: 12_345,
      transfer_id: approved.json().transfer_id,
    });

    // Decided once: a second approval, or a rejection, is 409 and credits nothing more.
    const again = await decideTopUp(t, checker.keys.sandbox, topUp.id, "approve");
    expectErrorEnvelope(again, {
      status: 409,
      code: "TOP_UP_ALREADY_DECIDED",
      actor: { user_id: checker.userId, membership_id: checker.membershipId, role: "business_admin", environment: "sandbox" },
    });
    expect((await decideTopUp(t, checker.keys.sandbox, topUp.id, "reject", "late")).statusCode).toBe(409);
    expect(await balancesOf(t, tenant(), accountId)).toEqual({ posted: before.posted + 12_345, pending: before.pending });
    expect(await topUpEvents(db(), topUp.id)).toHaveLength(1);
  });

  it("rejects with a required reason (the maker may withdraw their own), crediting nothing", async () => {
    const topUp = (await recordTopUp(t, maker, accountId, { amount_minor: 700, reference: "WIRE-3" })).json();
    const noReason = await decideTopUp(t, checker.keys.sandbox, topUp.id, "reject");
    expect(noReason.statusCode).toBe(400);
    const before = await balancesOf(t, tenant(), accountId);
    const rejected = await decideTopUp(t, maker, topUp.id, "reject", "Recorded twice");
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({ status: "rejected", reason: "Recorded twice", transfer_id: null });
    expect(await balancesOf(t, tenant(), accountId)).toEqual(before);
    expect((await topUpEvents(db(), topUp.id)).map((e) => [e.type, e.data.reason])).toEqual([
      ["top_up.rejected", "Recorded twice"],
    ]);
    expect((await decideTopUp(t, checker.keys.sandbox, topUp.id, "approve")).statusCode).toBe(409);
  });

  it("lists newest first in cursor pages, filtered by status and funding account; read-only keys read but do not write", async () => {
    const usd = await openFundingAccount(t, tenant(), "USD");
    const usdTopUp = (await recordTopUp(t, maker, usd, { amount_minor: 100, reference: "USD-1" })).json();
    expect(usdTopUp.currency).toBe("USD");
    const list = async (query: string) => {
      const response = await t.app.inject({ method: "GET", url: `/v1/top-ups?${query}`, headers: bearer(maker) });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as {
        top_ups: { id: string; status: string; funding_account_id: string }[];
        next_cursor: string | null;
      };
    };
    const onlyUsd = await list(`funding_account_id=${usd}`);
    expect(onlyUsd.top_ups.map((x) => x.id)).toEqual([usdTopUp.id]);
    const approved = await list("status=approved");
    expect(approved.top_ups.length).toBeGreaterThan(0);
    expect(approved.top_ups.every((x) => x.status === "approved")).toBe(true);
    const all = await list("limit=200");
    const first = await list("limit=2");
    expect(first.top_ups.map((x) => x.id)).toEqual(all.top_ups.slice(0, 2).map((x) => x.id));
    const second = await list(`limit=2&cursor=${first.next_cursor}`);
    expect(second.top_ups.map((x) => x.id)).toEqual(all.top_ups.slice(2, 4).map((x) => x.id));

    const reader = await createApiKey(t.app, maker, "business_read_only", "reader");
    expect((await list("limit=1")).top_ups).toHaveLength(1);
    expect((await recordTopUp(t, reader.key, usd, { amount_minor: 1, reference: "R" })).statusCode).toBe(403);
    expect((await decideTopUp(t, reader.key, usdTopUp.id, "approve")).statusCode).toBe(403);
    const other = await registerBusiness(t.app);
    expect(
      (await t.app.inject({ method: "GET", url: `/v1/top-ups/${usdTopUp.id}`, headers: bearer(other.keys.sandbox) })).statusCode,
    ).toBe(404);
  });
});
