// Downloading a bank file's bytes (GET /v1/bank-files/{id}/content), as the dashboard's Bank files page does:
// admins only (an approver or a read-only member is refused, by key and by session), only the Business's own
// file in its own environment (another Business, or the same Business's sandbox, gets 404 and reads nothing),
// the content type and Content-Disposition of the file, and every read in the audit log with the reader.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { addMember, asPerson, STRONG_PASSWORD } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide } from "../payouts/payout-fixtures.js";
import { sepaConfig, sepaPayee } from "./bank-rail-fixtures.js";

let t: TestApp;
let root: string;
let business: RegisteredBusiness;
let key: string;
let fileId: string;
let fileName: string;

const content = (headers: Record<string, string>, id = fileId) =>
  t.app.inject({ method: "GET", url: `/v1/bank-files/${id}/content`, headers });
const reads = async () =>
  (await t.app.inject({ method: "GET", url: "/v1/audit-records?action=bank_file_content_read", headers: bearer(key) })).json()
    .audit_records as Array<{ actor: { user_id: string | null }; subject: { id: string } }>;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "bank-file-download-"));
  t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root } });
  business = await registerBusiness(t.app, "Download Rails Co");
  key = business.keys.production;
  const delivery = { kind: "local_directory", outbound_directory: "out", inbound_directory: "in" };
  const put = await t.app.inject({
    method: "PUT",
    url: "/v1/bank-rails/sepa",
    headers: bearer(key),
    payload: sepaConfig({ delivery }),
  });
  expect(put.statusCode, put.body).toBe(201);
  const { beneficiaryId } = await sepaPayee(t.app, key);
  const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 2_500, currency: "EUR" });
  expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
  await t.runtime.createWorker(`w-${Math.random()}`).drain();
  t.clock.set(new Date("2026-05-27T13:00:00.000Z"));
  await t.runtime.createWorker(`w-${Math.random()}`).drain();
  const [file] = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
  fileId = file.id;
  fileName = file.file_name;
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("downloading a bank file", () => {
  it("gives an admin the file as an XML attachment named as sent, and records the read", async () => {
    const session = await asPerson(t.app, business.email, "production");
    const response = await content(session);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe(`attachment; filename="${fileName}"`);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.body).toContain("<CstmrCdtTrfInitn>");
    const [read] = await reads();
    expect(read).toMatchObject({ actor: { user_id: business.userId }, subject: { id: fileId } });
  });

  it("refuses approvers and read-only members, and records nothing", async () => {
    const before = (await reads()).length;
    for (const role of ["business_approver", "business_read_only"] as const) {
      const member = await addMember(t.app, business.keys.sandbox, role);
      const session = await asPerson(t.app, member.email, "production", STRONG_PASSWORD);
      expect((await content(session)).statusCode, role).toBe(403);
    }
    expect((await reads()).length).toBe(before);
  });

  it("is not found from another Business or from the sandbox", async () => {
    const before = (await reads()).length;
    const other = await registerBusiness(t.app, "Other Rails Co");
    expect((await content(bearer(other.keys.production))).statusCode).toBe(404);
    expect((await content(bearer(business.keys.sandbox))).statusCode).toBe(404);
    expect((await reads()).length).toBe(before);
  });
});
