// Bank-rail configuration changes and reads of a bank file's bytes are in the audit log, with the actor,
// time, client address and user agent, written in the transaction of the act.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { asPerson } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide } from "../payouts/payout-fixtures.js";
import { achConfig, sepaConfig, sepaPayee } from "./bank-rail-fixtures.js";

let t: TestApp;
let root: string;
let business: RegisteredBusiness;
let key: string;

interface AuditRecord {
  action: string;
  environment: string | null;
  occurred_at: string;
  actor: { user_id: string | null; api_key_id: string | null };
  subject: { type: string; id: string } | null;
  client_address: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
}

async function audit(action: string): Promise<AuditRecord[]> {
  const response = await t.app.inject({ method: "GET", url: `/v1/audit-records?action=${action}`, headers: bearer(key) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().audit_records;
}

const asAdmin = (agent: string) => ({ ...bearer(key), "user-agent": agent });

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "bank-rail-audit-"));
  t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root } });
  business = await registerBusiness(t.app, "Audited Rails Co");
  key = business.keys.production;
});
afterAll(async () => {
  await t?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("bank rails in the audit log", () => {
  it("records configuring, reconfiguring and removing a rail, without its secrets", async () => {
    const created = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/ach",
      headers: asAdmin("Rail Admin/1.0"),
      payload: achConfig(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const changed = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: asAdmin("Rail Admin/1.0"),
      payload: sepaConfig(),
    });
    expect(changed.statusCode, changed.body).toBe(201);
    const records = await audit("bank_rail_configured");
    expect(records.map((r) => r.details.rail)).toEqual(["sepa", "ach"]);
    const [sepa] = records;
    expect(sepa).toMatchObject({
      environment: "production",
      actor: { user_id: business.userId, api_key_id: business.keyIds.production },
      subject: { type: "bank_rail" },
      user_agent: "Rail Admin/1.0",
      details: { created: true, file_format: "pain.001.001.09", has_password: true },
    });
    expect(sepa?.client_address).not.toBeNull();
    expect(JSON.stringify(records)).not.toContain("s3cret-sftp-password");

    expect(
      (await t.app.inject({ method: "DELETE", url: "/v1/bank-rails/ach", headers: asAdmin("Rail Admin/1.0") })).statusCode,
    ).toBe(204);
    const removed = await audit("bank_rail_removed");
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({ details: { rail: "ach" }, subject: { type: "bank_rail" } });
    // Removing a rail that is not configured changes nothing and records nothing.
    await t.app.inject({ method: "DELETE", url: "/v1/bank-rails/ach", headers: asAdmin("Rail Admin/1.0") });
    expect(await audit("bank_rail_removed")).toHaveLength(1);
  });

  it("records every read of a bank file's bytes, with who read it and from where", async () => {
    const delivery = { kind: "local_directory", outbound_directory: "sepa/out", inbound_directory: "sepa/in" };
    const put = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      // Moving the configured rail to another target is for a person, not a key (CONTROL_WEAKENING_NEEDS_PERSON).
      headers: await asPerson(t.app, business.email, "production"),
      payload: sepaConfig({ delivery }),
    });
    expect(put.statusCode, put.body).toBe(200);
    const { beneficiaryId } = await sepaPayee(t.app, key);
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 1_500, currency: "EUR" });
    expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
    // Queued for the rail's cut-off (15:00 Berlin, 13:00Z on the test's day), then built and delivered.
    await t.runtime.createWorker(`w-${Math.random()}`).drain();
    t.clock.set(new Date("2026-05-27T13:00:00.000Z"));
    await t.runtime.createWorker(`w-${Math.random()}`).drain();
    const [file] = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
    expect(file).toBeDefined();

    // Listing and reading the metadata are not content reads.
    await t.app.inject({ method: "GET", url: `/v1/bank-files/${file.id}`, headers: bearer(key) });
    expect(await audit("bank_file_content_read")).toHaveLength(0);
    for (const agent of ["Downloader/1", "Downloader/2"]) {
      const content = await t.app.inject({ method: "GET", url: `/v1/bank-files/${file.id}/content`, headers: asAdmin(agent) });
      expect(content.statusCode).toBe(200);
    }
    const reads = await audit("bank_file_content_read");
    expect(reads.map((r) => r.user_agent)).toEqual(["Downloader/2", "Downloader/1"]);
    expect(reads[0]).toMatchObject({
      environment: "production",
      occurred_at: "2026-05-27T13:00:00.000Z",
      actor: { user_id: business.userId, api_key_id: business.keyIds.production },
      subject: { type: "bank_file", id: file.id },
      details: { rail: "sepa", file_name: file.file_name },
    });
    // A file that does not exist is not read, so nothing is recorded.
    const missing = await t.app.inject({
      method: "GET",
      url: "/v1/bank-files/00000000-0000-7000-8000-000000000000/content",
      headers: bearer(key),
    });
    expect(missing.statusCode).toBe(404);
    expect(await audit("bank_file_content_read")).toHaveLength(2);
  });
});
