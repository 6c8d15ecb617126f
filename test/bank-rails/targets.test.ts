// Where a bank rail's files go, and what may follow them there (issue 24, items 2, 3 and 9), through the API:
// - stored SFTP credentials stay bound to the server they were given for (host, port, username, host key);
// - an SFTP host follows the webhook address rules when it is configured (non-public refused unless the
//   operator allows private hosts), judged on the canonical form the network stack would use;
// - one debtor account belongs to one Business per environment;
// - two Businesses that configure the same local folder names get folders of their own, and a `.part` link
//   planted in a Business's folder does not write outside the root.
// The real-server half (a second OpenSSH server never receives the password; connect-time checks) is in
// sftp-targets.test.ts.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankFileName } from "../../src/modules/bank-rails/index.js";
import type { Resolver } from "../../src/platform/outbound-http/url-safety.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { asPerson } from "../helpers/sessions.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide } from "../payouts/payout-fixtures.js";
import {
  achConfig,
  FINGERPRINT,
  localFolder,
  sepaConfig,
  sepaPayee,
  uniqueAchOriginator,
  uniqueSepaOriginator,
} from "./bank-rail-fixtures.js";

const OTHER_FINGERPRINT = "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s";

/** Names the tests choose addresses for; anything else does not resolve. */
const NAMES: Record<string, string> = {
  "public.bank.example": "93.184.215.14",
  "other.bank.example": "93.184.215.15",
  "internal.bank.example": "10.1.2.3",
  "metadata.bank.example": "169.254.169.254",
};
const resolver: Resolver = async (hostname) => {
  const address = NAMES[hostname];
  if (address === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return [{ address, family: address.includes(":") ? 6 : 4 }];
};

function sftp(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...(sepaConfig().delivery as object), host: "public.bank.example", ...overrides };
}

/** PUT as a key, or with a person's session headers (re-pointing a configured rail is a person's act). */
async function putSepa(t: TestApp, as: string | Record<string, string>, body: Record<string, unknown>) {
  const headers = typeof as === "string" ? bearer(as) : as;
  return t.app.inject({ method: "PUT", url: "/v1/bank-rails/sepa", headers, payload: body });
}

describe("stored SFTP credentials stay bound to their server", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ runtime: { bankRailResolver: resolver } });
  });
  afterAll(async () => {
    await t?.close();
  });

  // Each change of the target, made without sending the password again.
  const rebinding: Array<[string, Record<string, unknown>]> = [
    ["host", { host: "other.bank.example" }],
    ["port", { port: 2223 }],
    ["username", { username: "someone-else" }],
    ["host key fingerprint", { host_key_fingerprint: OTHER_FINGERPRINT }],
  ];
  for (const [what, change] of rebinding) {
    it(`drops the stored password and private key when the ${what} changes without them`, async () => {
      const business = await registerBusiness(t.app);
      const key = await asPerson(t.app, business.email, "production");
      const originator = uniqueSepaOriginator();
      const created = await putSepa(t, key, sepaConfig({ originator, delivery: sftp() }));
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().delivery).toMatchObject({ has_password: true });
      const moved = await putSepa(t, key, sepaConfig({ originator, delivery: sftp({ ...change, password: undefined }) }));
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json().delivery).toMatchObject({ ...change, has_password: false, has_private_key: false });
      // Sent again with the change: stored again.
      const given = await putSepa(t, key, sepaConfig({ originator, delivery: sftp({ ...change, password: "new-password" }) }));
      expect(given.json().delivery).toMatchObject({ has_password: true });
    });
  }

  it("keeps them when only the folders, cut-offs or file format change", async () => {
    const business = await registerBusiness(t.app);
    const key = await asPerson(t.app, business.email, "production");
    const originator = uniqueSepaOriginator();
    expect((await putSepa(t, key, sepaConfig({ originator, delivery: sftp() }))).statusCode).toBe(201);
    const edited = await putSepa(
      t,
      key,
      sepaConfig({
        originator,
        file_format: "pain.001.001.03",
        cutoff_times: ["11:00"],
        // The same server written differently (case, `=` padding of the fingerprint) is the same server.
        delivery: sftp({
          host: "PUBLIC.Bank.Example",
          host_key_fingerprint: `${FINGERPRINT}=`,
          outbound_directory: "elsewhere/out",
          password: undefined,
        }),
      }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().delivery).toMatchObject({
      host: "public.bank.example",
      outbound_directory: "elsewhere/out",
      has_password: true,
    });
  });

  it("records which parts of the target changed and that the credentials were dropped", async () => {
    const business = await registerBusiness(t.app);
    const key = await asPerson(t.app, business.email, "production");
    const originator = uniqueSepaOriginator();
    await putSepa(t, key, sepaConfig({ originator, delivery: sftp() }));
    await putSepa(t, key, sepaConfig({ originator, delivery: sftp({ host: "other.bank.example", password: undefined }) }));
    const audit = await t.app.inject({
      method: "GET",
      url: "/v1/audit-records?action=bank_rail_configured",
      headers: key,
    });
    expect(audit.statusCode, audit.body).toBe(200);
    const records = audit.json().audit_records as Array<{ details: Record<string, unknown> }>;
    expect(records.map((r) => [r.details.delivery_target_changed, r.details.credentials_dropped])).toContainEqual([
      ["host"],
      true,
    ]);
  });
});

describe("SFTP hosts follow the outbound address rules when configured", () => {
  let t: TestApp;
  let allowing: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ runtime: { bankRailResolver: resolver } });
    allowing = await buildTestApp({ env: { BANK_RAIL_ALLOW_PRIVATE_HOSTS: "true" }, runtime: { bankRailResolver: resolver } });
  });
  afterAll(async () => {
    await t?.close();
    await allowing?.close();
  });

  const refused = [
    "127.0.0.1",
    "2130706433", // 127.0.0.1 once parsed
    "0x7f.1", // 127.0.0.1 once parsed
    "[::1]",
    "::1",
    "[::127.0.0.1]",
    "::ffff:10.0.0.1",
    "10.0.0.5",
    "192.168.1.10",
    "169.254.169.254",
    "internal.bank.example", // resolves to 10.1.2.3
    "metadata.bank.example", // resolves to 169.254.169.254
  ];
  for (const host of refused) {
    it(`refuses ${host} with BANK_RAIL_HOST_NOT_PUBLIC, naming no resolved address`, async () => {
      const business = await registerBusiness(t.app);
      const response = await putSepa(
        t,
        business.keys.production,
        sepaConfig({ originator: uniqueSepaOriginator(), delivery: sftp({ host }) }),
      );
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().error.code).toBe("BANK_RAIL_HOST_NOT_PUBLIC");
      expect(response.body).not.toContain("10.1.2.3");
      // Nothing was stored.
      const read = await t.app.inject({ method: "GET", url: "/v1/bank-rails/sepa", headers: bearer(business.keys.production) });
      expect(read.statusCode).toBe(404);
    });
  }

  it("takes a public host, stored in canonical form, and a name that does not resolve yet", async () => {
    const business = await registerBusiness(t.app);
    // The second PUT moves the rail to another host: a person's act (CONTROL_WEAKENING_NEEDS_PERSON for a key).
    const key = await asPerson(t.app, business.email, "production");
    const originator = uniqueSepaOriginator();
    const upper = await putSepa(t, key, sepaConfig({ originator, delivery: sftp({ host: "Public.BANK.example" }) }));
    expect(upper.statusCode, upper.body).toBe(201);
    expect(upper.json().delivery.host).toBe("public.bank.example");
    const unknown = await putSepa(t, key, sepaConfig({ originator, delivery: sftp({ host: "sftp.bank.example" }) }));
    expect(unknown.statusCode, unknown.body).toBe(200);
  });

  it("refuses a host that is not one bare host name", async () => {
    const business = await registerBusiness(t.app);
    const response = await putSepa(
      t,
      business.keys.production,
      sepaConfig({ originator: uniqueSepaOriginator(), delivery: sftp({ host: "public.bank.example:22" }) }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0]).toMatchObject({ field: "delivery.host" });
  });

  it("takes private and loopback hosts where the operator allows them", async () => {
    const business = await registerBusiness(allowing.app);
    const response = await putSepa(
      allowing,
      business.keys.production,
      sepaConfig({ originator: uniqueSepaOriginator(), delivery: sftp({ host: "0x7f.1" }) }),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().delivery.host).toBe("127.0.0.1");
  });
});

describe("one debtor account belongs to one Business per environment", () => {
  let t: TestApp;
  let first: RegisteredBusiness;
  let second: RegisteredBusiness;
  beforeAll(async () => {
    t = await buildTestApp({ runtime: { bankRailResolver: resolver } });
    first = await registerBusiness(t.app);
    second = await registerBusiness(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses a second Business the first one's IBAN, however it is written, until the first lets it go", async () => {
    const originator = uniqueSepaOriginator();
    const spaced = String(originator.iban)
      .replace(/(.{4})/g, "$1 ")
      .trim();
    expect((await putSepa(t, first.keys.production, sepaConfig({ originator, delivery: sftp() }))).statusCode).toBe(201);
    const taken = await putSepa(
      t,
      second.keys.production,
      sepaConfig({ originator: { ...originator, iban: spaced.toLowerCase() }, delivery: sftp() }),
    );
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json().error.code).toBe("BANK_RAIL_DEBTOR_ACCOUNT_TAKEN");
    expect(taken.body).not.toContain(first.businessId);
    // The owner reconfigures its own rail freely.
    expect((await putSepa(t, first.keys.production, sepaConfig({ originator, delivery: sftp() }))).statusCode).toBe(200);
    // Once the first Business removed its rail, the account is free.
    await t.app.inject({ method: "DELETE", url: "/v1/bank-rails/sepa", headers: bearer(first.keys.production) });
    expect((await putSepa(t, second.keys.production, sepaConfig({ originator, delivery: sftp() }))).statusCode).toBe(201);
  });

  it("refuses a second Business the first one's ACH originator (ODFI and Company Identification)", async () => {
    const originator = uniqueAchOriginator();
    const delivery = sftp();
    const put = (business: RegisteredBusiness, body: Record<string, unknown>) =>
      t.app.inject({ method: "PUT", url: "/v1/bank-rails/ach", headers: bearer(business.keys.production), payload: body });
    expect((await put(first, achConfig({ originator, delivery }))).statusCode).toBe(201);
    const taken = await put(second, achConfig({ originator, delivery }));
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json().error.code).toBe("BANK_RAIL_DEBTOR_ACCOUNT_TAKEN");
    // Another Company Identification at the same ODFI is another originator.
    expect((await put(second, achConfig({ originator: uniqueAchOriginator(), delivery }))).statusCode).toBe(201);
  });
});

describe("local folders: two Businesses naming the same folders", () => {
  let t: TestApp;
  let root: string;
  let outside: string;
  const drain = () => t.runtime.createWorker(`w-${Math.random()}`).drain();

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "bank-targets-"));
    outside = mkdtempSync(path.join(tmpdir(), "bank-targets-outside-"));
    t = await buildTestApp({ env: { BANK_RAIL_LOCAL_ROOT: root } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  async function businessWithLocalRail(): Promise<{ business: RegisteredBusiness; beneficiaryId: string }> {
    const business = await registerBusiness(t.app);
    const key = business.keys.production;
    const delivery = { kind: "local_directory", outbound_directory: "sepa/out", inbound_directory: "sepa/in" };
    const put = await putSepa(t, key, sepaConfig({ originator: uniqueSepaOriginator(), delivery, cutoff_times: ["15:00"] }));
    expect(put.statusCode, put.body).toBe(201);
    const { beneficiaryId } = await sepaPayee(t.app, key);
    return { business, beneficiaryId };
  }

  async function approvedPayout(business: RegisteredBusiness, beneficiaryId: string): Promise<void> {
    const key = business.keys.production;
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 1_000, currency: "EUR" });
    expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
  }

  async function filesOf(business: RegisteredBusiness): Promise<Array<Record<string, unknown>>> {
    return (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(business.keys.production) })).json()
      .bank_files;
  }

  it("delivers each Business's file to its own folder; a planted `.part` link writes nothing outside the root", async () => {
    const first = await businessWithLocalRail();
    const second = await businessWithLocalRail();
    await approvedPayout(first.business, first.beneficiaryId);
    await approvedPayout(second.business, second.beneficiaryId);
    await drain();
    // The second Business's folder holds a link planted under the temporary name of its next file.
    const cutoff = new Date("2026-05-27T13:00:00.000Z"); // 15:00 in Berlin
    const secondName = bankFileName(second.business.businessId, "sepa", cutoff);
    const secondOut = localFolder(root, second.business.businessId, "sepa/out");
    mkdirSync(secondOut, { recursive: true });
    writeFileSync(path.join(outside, "victim.txt"), "must stay");
    symlinkSync(path.join(outside, "victim.txt"), path.join(secondOut, `.${secondName}.part`));
    t.clock.set(cutoff);
    await drain();

    const [firstFile] = await filesOf(first.business);
    expect(firstFile).toMatchObject({ status: "uploaded" });
    expect(readdirSync(localFolder(root, first.business.businessId, "sepa/out"))).toEqual([firstFile?.file_name]);
    const [secondFile] = await filesOf(second.business);
    expect(secondFile).toMatchObject({ status: "built", file_name: secondName });
    expect(String(secondFile?.last_upload_error)).toMatch(/symbolic link/);
    expect(String(secondFile?.last_upload_error)).not.toContain(root);
    expect(readFileSync(path.join(outside, "victim.txt"), "utf8")).toBe("must stay");
    // Nothing of the second Business reached the first one's folder.
    expect(readdirSync(localFolder(root, first.business.businessId, "sepa/out"))).not.toContain(secondName);
  });
});
