// The reconciliation routes (issue 28): statements uploaded as the bank's bytes (camt.053/052 written by the
// test writers, validated against the ISO schemas), the same statement three ways changing nothing, the inbound
// folder handing statements over, error envelopes for bad bytes, roles and tenant isolation, and the manual acts
// (match, unmatch, ignore) with their audit records.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BankStatement } from "../../src/modules/reconciliation/index.js";
import { writeCamtStatement } from "../fixtures/statements/writers.js";
import { bearer, createApiKey, registerBusiness } from "../helpers/factories.js";
import { expectIsoValid } from "../helpers/iso-xsd.js";
import type { TestApp } from "../helpers/test-app.js";
import { getPayout, payoutEvents } from "../payouts/payout-fixtures.js";
import {
  bookingOf,
  buildReconApp,
  drain,
  getJson,
  line,
  linesOf,
  localFolder,
  sentPayouts,
  statement,
  unique,
} from "./recon-fixtures.js";

let t: TestApp;
let root: string;
const db = () => t.runtime.deps.database.db;

beforeAll(async () => {
  ({ t, root } = await buildReconApp());
});
afterAll(async () => t?.close());

function camt(s: BankStatement, version: "camt.053.001.08" | "camt.053.001.02" | "camt.052.001.08" = "camt.053.001.08"): string {
  return writeCamtStatement({ version, messageId: s.messageId, createdAt: "2026-06-02T20:00:00Z" }, [
    { ...s, format: version.startsWith("camt.052") ? "camt.052" : "camt.053", messageVersion: version },
  ]);
}

const upload = (key: string, body: string, contentType = "application/xml") =>
  t.app.inject({
    method: "POST",
    url: "/v1/bank-statements",
    headers: { ...bearer(key), "content-type": contentType },
    payload: body,
  });

describe("upload", () => {
  it("the same statement three ways (after a camt.052 of the same entries, again under a new message id, the same bytes) changes nothing", async () => {
    const s = await sentPayouts(t, [1_111, 2_222]);
    const [a, b] = s.payouts as [string, string];
    const entries = [bookingOf(a, 1_111, { bankReference: "ACSR-A" }), bookingOf(b, 2_222, { bankReference: null })];
    const intraday = statement(s, entries, {
      format: "camt.052",
      messageVersion: "camt.052.001.08",
      openingBookedMinor: 0,
      closingBookedMinor: null,
    });
    const intradayXml = camt(intraday, "camt.052.001.08");
    await expectIsoValid(intradayXml);
    const first = await upload(s.key, intradayXml);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ format: "camt.052", line_count: 2, lines_by_status: { matched: 2 } });
    const eventsAfterFirst = (await payoutEvents(db(), a)).length + (await payoutEvents(db(), b)).length;
    const balanceAfterFirst = (await getJson(t, s.key, `/v1/funding-accounts/${s.fundingAccountId}`)).posted_minor;

    const endOfDay = statement(s, entries, { openingBookedMinor: 0, closingBookedMinor: 0 });
    const endOfDayXml = camt(endOfDay);
    await expectIsoValid(endOfDayXml);
    const second = await upload(s.key, endOfDayXml);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json()).toMatchObject({ format: "camt.053", line_count: 0, lines_received: 2 });
    const resent = await upload(s.key, camt({ ...endOfDay, messageId: unique("RESENT") }, "camt.053.001.02"));
    expect(resent.statusCode, resent.body).toBe(201);
    expect(resent.json()).toMatchObject({ line_count: 0, lines_received: 2 });
    const same = await upload(s.key, endOfDayXml, "text/xml");
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().id).toBe(second.json().id);

    expect((await payoutEvents(db(), a)).length + (await payoutEvents(db(), b)).length).toBe(eventsAfterFirst);
    expect((await getJson(t, s.key, `/v1/funding-accounts/${s.fundingAccountId}`)).posted_minor).toBe(balanceAfterFirst);
    const all = await getJson(t, s.key, `/v1/statement-lines?funding_account_id=${s.fundingAccountId}`);
    expect((all.statement_lines as unknown[]).length).toBe(2);

    // And once more through the bank rail's inbound folder: read, recorded, nothing added.
    const dir = localFolder(root, s.business.businessId, "sepa/in");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "statement-again.xml"), camt({ ...endOfDay, messageId: unique("INBOUND") }));
    t.clock.advance(61_000);
    await drain(t);
    await drain(t);
    const statements = (await getJson(t, s.key, "/v1/bank-statements")).bank_statements as Array<{
      source: string;
      line_count: number;
    }>;
    expect(statements.find((x) => x.source === "inbound_folder")).toMatchObject({ line_count: 0 });
    expect(
      (await getJson(t, s.key, `/v1/statement-lines?funding_account_id=${s.fundingAccountId}`)).statement_lines,
    ).toHaveLength(2);
    expect((await payoutEvents(db(), a)).length + (await payoutEvents(db(), b)).length).toBe(eventsAfterFirst);
  });

  it("answers bad bytes, JSON, an unknown account and a read-only key with error envelopes, never a 500", async () => {
    const s = await sentPayouts(t, [1_000]);
    const garbage = await upload(s.key, "<Document><nonsense/></Document>");
    expect(garbage.statusCode, garbage.body).toBe(422);
    expect(garbage.json().error.code).toBe("STATEMENT_UNREADABLE");
    const binary = await t.app.inject({
      method: "POST",
      url: "/v1/bank-statements",
      headers: { ...bearer(s.key), "content-type": "text/plain" },
      payload: Buffer.from([0xff, 0xfe, 0x00, 0x41]),
    });
    expect(binary.statusCode, binary.body).toBe(400);
    const json = await t.app.inject({ method: "POST", url: "/v1/bank-statements", headers: bearer(s.key), payload: { a: 1 } });
    expect(json.statusCode, json.body).toBe(415);
    expect(json.json().error.code).toBe("unsupported_media_type");
    const empty = await upload(s.key, "   ", "text/plain");
    expect(empty.statusCode, empty.body).toBe(422);
    const foreign = await upload(
      s.key,
      camt(statement({ iban: "FR7630006000011234567890189" }, [line()], { closingBookedMinor: 0, openingBookedMinor: 0 })),
    );
    expect(foreign.statusCode, foreign.body).toBe(422);
    expect(foreign.json().error.code).toBe("STATEMENT_ACCOUNT_UNKNOWN");
    // Sandbox has no bank rail: the same statement names none of its accounts.
    const ours = camt(statement(s, [line()], { closingBookedMinor: 0, openingBookedMinor: 0 }));
    expect((await upload(s.business.keys.sandbox, ours)).json().error.code).toBe("STATEMENT_ACCOUNT_UNKNOWN");
    const readOnly = await createApiKey(t.app, s.key, "business_read_only");
    expect((await upload(readOnly.key, ours)).statusCode).toBe(403);
  });
});

describe("manual acts", () => {
  it("match, unmatch and ignore by approvers and admins, audited; another Business sees nothing", async () => {
    const s = await sentPayouts(t, [5_555, 5_555]);
    const today = t.clock.now().toISOString().slice(0, 10);
    const uploaded = await upload(
      s.key,
      camt(
        statement(
          s,
          [
            line({ amountMinor: 5_555, bookingDate: today, valueDate: today }),
            line({ direction: "credit", amountMinor: 999, bookingDate: today, valueDate: today }),
          ],
          { openingBookedMinor: 0, closingBookedMinor: 0 },
        ),
      ),
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const lines = await linesOf(t, s.key, uploaded.json().id);
    const review = lines.find((l) => l.status === "needs_review") as { id: string };
    const credit = lines.find((l) => l.direction === "credit") as { id: string };
    const other = await registerBusiness(t.app);
    expect(
      (await t.app.inject({ method: "GET", url: `/v1/statement-lines/${review.id}`, headers: bearer(other.keys.production) }))
        .statusCode,
    ).toBe(404);
    const theirs = await t.app.inject({
      method: "POST",
      url: `/v1/statement-lines/${review.id}/match`,
      headers: bearer(other.keys.production),
      payload: { payout_ids: [s.payouts[0]] },
    });
    expect(theirs.statusCode).toBe(404);
    const readOnly = await createApiKey(t.app, s.key, "business_read_only");
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: `/v1/statement-lines/${review.id}/match`,
          headers: bearer(readOnly.key),
          payload: { payout_ids: [s.payouts[0]] },
        })
      ).statusCode,
    ).toBe(403);

    const wrong = await t.app.inject({
      method: "POST",
      url: `/v1/statement-lines/${review.id}/match`,
      headers: bearer(s.key),
      payload: { payout_ids: s.payouts },
    });
    expect(wrong.statusCode, wrong.body).toBe(422);
    expect(wrong.json().error.code).toBe("STATEMENT_MATCH_REFUSED");
    const matched = await t.app.inject({
      method: "POST",
      url: `/v1/statement-lines/${review.id}/match`,
      headers: bearer(s.key),
      payload: { payout_ids: [s.payouts[1]] },
    });
    expect(matched.statusCode, matched.body).toBe(200);
    expect(matched.json()).toMatchObject({
      status: "matched",
      match: { rule: "manual", payout_ids: [s.payouts[1]], matched_by: { kind: "person" } },
    });
    expect(await getPayout(t.app, s.key, s.payouts[1] as string)).toMatchObject({
      status: "disbursed",
      reconciliation_status: "reconciled",
    });
    const unmatched = await t.app.inject({
      method: "POST",
      url: `/v1/statement-lines/${review.id}/unmatch`,
      headers: bearer(s.key),
    });
    expect(unmatched.statusCode, unmatched.body).toBe(200);
    expect(unmatched.json()).toMatchObject({ status: "needs_review", match: null });
    expect(await getPayout(t.app, s.key, s.payouts[1] as string)).toMatchObject({
      status: "disbursed",
      reconciliation_status: "unreconciled",
    });
    const ignored = await t.app.inject({
      method: "POST",
      url: `/v1/statement-lines/${credit.id}/ignore`,
      headers: bearer(s.key),
      payload: { reason: "Interest, booked by hand" },
    });
    expect(ignored.statusCode, ignored.body).toBe(200);
    expect(ignored.json()).toMatchObject({ status: "ignored", ignored_reason: "Interest, booked by hand" });
    const twice = await t.app.inject({
      method: "POST",
      url: `/v1/statement-lines/${credit.id}/ignore`,
      headers: bearer(s.key),
      payload: { reason: "again" },
    });
    expect(twice.statusCode).toBe(409);
    const audit = await getJson(t, s.key, "/v1/audit-records?limit=100");
    const actions = (audit.audit_records as Array<{ action: string }>).map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(["statement_line_matched", "statement_line_unmatched", "statement_line_ignored"]),
    );
  });
});
