// Credentials stay with the server they were given for, proven against real OpenSSH servers that log every
// connection and authentication attempt (issue 24, item 2), and SFTP hosts are checked again on the address
// actually connected (item 9). On both engines (TEST_DATABASE_URL); skipped with a notice without sshd.
//
// The reproduction: a rail configured with a password for server A is moved to server B (another sshd: other
// port, other host key) by a PUT that does not send the password. Before the fix the answer said
// `has_password: true` and the next cut-off offered A's password to B. Now the answer says false, the cut-off
// reports the missing credential without connecting, and B's log shows no connection and no password.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../../src/platform/outbound-http/url-safety.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { asPerson } from "../helpers/sessions.js";
import { removeSshdDir, sshdAvailable, startTestSshd, type TestSshd } from "../helpers/sshd.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide } from "../payouts/payout-fixtures.js";
import { sepaConfig, sepaPayee, uniqueSepaOriginator } from "./bank-rail-fixtures.js";

const available = sshdAvailable();
const PASSWORD = "password-given-for-server-A";

describe.runIf(available)("SFTP credentials and a second server", () => {
  let t: TestApp;
  let serverA: TestSshd;
  let serverB: TestSshd;
  let business: RegisteredBusiness;
  let key: string;
  let beneficiaryId: string;
  const originator = uniqueSepaOriginator();
  const drain = () => t.runtime.createWorker(`w-${Math.random()}`).drain();

  function delivery(server: TestSshd, secret: Record<string, string>): Record<string, unknown> {
    return {
      kind: "sftp",
      host: "127.0.0.1",
      port: server.port,
      username: server.username,
      host_key_fingerprint: server.hostKeyFingerprint,
      outbound_directory: "out",
      inbound_directory: "in",
      ...secret,
    };
  }

  /** As the Business's admin, signed in now: moving a configured rail to another server is a person's act. */
  async function put(body: Record<string, unknown>) {
    const headers = await asPerson(t.app, business.email, "production");
    return t.app.inject({ method: "PUT", url: "/v1/bank-rails/sepa", headers, payload: body });
  }

  async function files(): Promise<Array<Record<string, unknown>>> {
    return (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
  }

  beforeAll(async () => {
    serverA = await startTestSshd({ passwordAuthentication: true, logLevel: "VERBOSE" });
    serverB = await startTestSshd({ passwordAuthentication: true, logLevel: "VERBOSE" });
    t = await buildTestApp({ env: { BANK_RAIL_ALLOW_PRIVATE_HOSTS: "true" } });
    business = await registerBusiness(t.app);
    key = business.keys.production;
    ({ beneficiaryId } = await sepaPayee(t.app, key));
  });

  afterAll(async () => {
    await t?.close();
    for (const server of [serverA, serverB]) {
      await server?.stop();
      if (server) removeSshdDir(server);
    }
  });

  it("does not carry server A's password to server B; B gets a connection only with the key given for it", async () => {
    const created = await put(
      sepaConfig({ originator, cutoff_times: ["15:00"], delivery: delivery(serverA, { password: PASSWORD }) }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().delivery).toMatchObject({ has_password: true });

    // Moved to B without sending a credential.
    const moved = await put(sepaConfig({ originator, cutoff_times: ["15:00"], delivery: delivery(serverB, {}) }));
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().delivery).toMatchObject({ port: serverB.port, has_password: false, has_private_key: false });

    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 4_200, currency: "EUR" });
    expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
    await drain();
    // (The helper's readiness probe connected once at start: only what B logs from here on counts.)
    const mark = serverB.log().length;
    t.clock.set(new Date("2026-05-27T13:00:00.000Z")); // 15:00 in Berlin
    await drain();
    const [file] = await files();
    expect(file).toMatchObject({ status: "built", upload_attempts: 1 });
    expect(String(file?.last_upload_error)).toMatch(/no SFTP password or private key is stored/);
    // B saw nothing: no connection, no password attempt (and A's password appears in no log of either).
    expect(serverB.log().slice(mark)).not.toMatch(/Connection from|password/i);
    expect(serverA.log() + serverB.log()).not.toContain(PASSWORD);
    expect(t.logLines.join("\n")).not.toContain(PASSWORD);

    // The Business gives B's own credential (its key): the retry delivers, by key, never by password.
    const keyed = await put(
      sepaConfig({ originator, cutoff_times: ["15:00"], delivery: delivery(serverB, { private_key: serverB.privateKey }) }),
    );
    expect(keyed.json().delivery).toMatchObject({ has_password: false, has_private_key: true });
    t.clock.advance(60_000); // past the upload job's retry delay
    await drain();
    expect((await files()).find((f) => f.id === file?.id)).toMatchObject({ status: "uploaded", last_upload_error: null });
    expect(serverB.log().slice(mark)).toMatch(/Connection from[\s\S]*Accepted publickey/);
    expect(serverB.log()).not.toMatch(/password/i);
  });
});

describe.runIf(available)("an SFTP host is checked again on the address connected", () => {
  let t: TestApp;
  let server: TestSshd;
  let key: string;
  // The name resolves to a public address when the rail is configured, and to loopback afterwards (rebinding).
  let answer = "93.184.215.14";
  const resolver: Resolver = async () => [{ address: answer, family: 4 }];
  const drain = () => t.runtime.createWorker(`w-${Math.random()}`).drain();

  beforeAll(async () => {
    server = await startTestSshd({ logLevel: "VERBOSE" });
    t = await buildTestApp({ runtime: { bankRailResolver: resolver } }); // private hosts NOT allowed
    const business = await registerBusiness(t.app);
    key = business.keys.production;
  });
  afterAll(async () => {
    await t?.close();
    await server?.stop();
    if (server) removeSshdDir(server);
  });

  it("refuses at connection a name that now resolves to loopback, and says only that it could not connect", async () => {
    const put = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: bearer(key),
      payload: sepaConfig({
        originator: uniqueSepaOriginator(),
        cutoff_times: ["15:00"],
        delivery: {
          kind: "sftp",
          host: "sftp.rebinding.example",
          port: server.port,
          username: server.username,
          private_key: server.privateKey,
          host_key_fingerprint: server.hostKeyFingerprint,
          outbound_directory: "out",
          inbound_directory: "in",
        },
      }),
    });
    expect(put.statusCode, put.body).toBe(201);
    answer = "127.0.0.1";
    const { beneficiaryId } = await sepaPayee(t.app, key);
    const payout = await createPayout(t.app, key, { beneficiary_id: beneficiaryId, amount_minor: 1_000, currency: "EUR" });
    expect((await decide(t.app, key, payout.payout_id, "approve")).statusCode).toBe(201);
    await drain();
    const mark = server.log().length; // after the helper's readiness probe
    t.clock.set(new Date("2026-05-27T13:00:00.000Z"));
    await drain();
    const [file] = (await t.app.inject({ method: "GET", url: "/v1/bank-files", headers: bearer(key) })).json().bank_files;
    expect(file).toMatchObject({ status: "built", last_upload_error: "could not connect to the SFTP server" });
    expect(server.log().slice(mark)).not.toMatch(/Connection from/);
    // The cause is in the server log, not in the field.
    expect(t.logLines.join("\n")).toMatch(
      /bank file upload failed: SFTP connection to sftp.rebinding.example:[0-9]+ failed: sftp.rebinding.example resolves to an address that is not public/,
    );
  });
});
