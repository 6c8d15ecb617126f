// "Test connection" of a bank rail (POST /v1/bank-rails/{rail}/test-connection) against a real OpenSSH server
// (Debian's sshd, test/helpers/sshd.ts): a working configuration passes every step and writes nothing; a wrong
// password, a changed host key and a missing directory each fail at their step, in words, without echoing a
// secret; the test is audited, for admins of production only. A server that accepts the connection but never
// speaks SSH is answered "no SSH server answered" within the limit (no sshd needed for that one).
// Without /usr/sbin/sshd the SFTP part is skipped with a notice, unless REQUIRE_SFTP=1 (CI), which makes it fail.
import { readdirSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testSftpConnection } from "../../src/modules/bank-rails/bank-rails.connection-test.js";
import { systemResolver } from "../../src/platform/outbound-http/url-safety.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { addMember, asPerson, STRONG_PASSWORD } from "../helpers/sessions.js";
import { removeSshdDir, SSHD_PATH, sshdAvailable, startTestSshd, type TestSshd } from "../helpers/sshd.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { FINGERPRINT, sepaConfig } from "./bank-rail-fixtures.js";

const required = process.env.REQUIRE_SFTP === "1";
const available = sshdAvailable();
if (!available)
  console.warn(`NOTICE: SFTP test-connection tests skipped: no ${SSHD_PATH} (set REQUIRE_SFTP=1 to make this fatal)`);

describe("OpenSSH server for the connection test", () => {
  it.runIf(required)("is installed (REQUIRE_SFTP=1)", () => {
    expect(available, `REQUIRE_SFTP=1 but ${SSHD_PATH} is missing: apt-get install -y openssh-server`).toBe(true);
  });
});

interface Step {
  step: string;
  status: string;
  message: string;
}

describe.runIf(available)("testing a rail's SFTP connection", () => {
  let t: TestApp;
  let sshd: TestSshd;
  let business: RegisteredBusiness;
  let key: string;
  let admin: Record<string, string>;

  const test = (headers: Record<string, string> = admin) =>
    t.app.inject({ method: "POST", url: "/v1/bank-rails/sepa/test-connection", headers });

  async function configure(delivery: Record<string, unknown>): Promise<void> {
    const response = await t.app.inject({
      method: "PUT",
      url: "/v1/bank-rails/sepa",
      headers: admin,
      payload: sepaConfig({
        delivery: {
          kind: "sftp",
          host: "127.0.0.1",
          port: sshd.port,
          username: sshd.username,
          host_key_fingerprint: sshd.hostKeyFingerprint,
          outbound_directory: "out",
          inbound_directory: "in",
          ...delivery,
        },
      }),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  }

  const byStep = (steps: Step[]) => Object.fromEntries(steps.map((s) => [s.step, s]));

  beforeAll(async () => {
    sshd = await startTestSshd({ passwordAuthentication: true });
    t = await buildTestApp({ env: { BANK_RAIL_ALLOW_PRIVATE_HOSTS: "true" } });
    business = await registerBusiness(t.app, "Rail Testers GmbH");
    key = business.keys.production;
    admin = await asPerson(t.app, business.email, "production");
  });
  afterAll(async () => {
    await t?.close();
    await sshd?.stop();
    if (sshd) removeSshdDir(sshd);
  });

  it("answers 404 in words before a rail is configured", async () => {
    const response = await test();
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe("No sepa rail is configured: save it first.");
  });

  it("connects, checks the host key, logs in and lists both directories, sending nothing", async () => {
    await configure({ private_key: sshd.privateKey });
    const before = readdirSync(path.join(sshd.root, "out"));
    const response = await test();
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      rail: "sepa",
      ok: true,
      summary: "Connected, logged in and listed both directories. Nothing was sent.",
    });
    expect(body.steps.map((s: Step) => [s.step, s.status])).toEqual([
      ["connect", "passed"],
      ["host_key", "passed"],
      ["login", "passed"],
      ["outbound_directory", "passed"],
      ["inbound_directory", "passed"],
    ]);
    expect(byStep(body.steps).login?.message).toBe(`Logged in as ${sshd.username} with the stored private key.`);
    expect(byStep(body.steps).inbound_directory?.message).toBe('Listed the inbound directory "in": 0 files.');
    expect(readdirSync(path.join(sshd.root, "out"))).toEqual(before);
    expect(response.body).not.toContain("PRIVATE KEY");

    const audit = await t.app.inject({
      method: "GET",
      url: "/v1/audit-records?action=bank_rail_connection_tested",
      headers: bearer(key),
    });
    expect(audit.json().audit_records[0]).toMatchObject({
      environment: "production",
      actor: { user_id: business.userId },
      subject: { type: "bank_rail" },
      details: { rail: "sepa", kind: "sftp", ok: true, failed_step: null },
    });
  });

  it("names a missing directory", async () => {
    await configure({ private_key: sshd.privateKey, inbound_directory: "incoming/statements" });
    const body = (await test()).json();
    expect(body.ok).toBe(false);
    expect(byStep(body.steps).outbound_directory?.status).toBe("passed");
    expect(byStep(body.steps).inbound_directory).toEqual({
      step: "inbound_directory",
      status: "failed",
      message:
        'The inbound directory "incoming/statements" does not exist on the server: ask your bank for the right path, or have it created.',
    });
    expect(body.summary).toBe(byStep(body.steps).inbound_directory?.message);
  });

  it("says the server refused a wrong password, and never echoes it", async () => {
    await configure({ password: "not-the-password-4711" });
    const response = await test();
    const body = response.json();
    expect(body.ok).toBe(false);
    expect(body.steps.map((s: Step) => s.status)).toEqual(["passed", "passed", "failed", "skipped", "skipped"]);
    expect(byStep(body.steps).login?.message).toBe(
      `The server refused the password for user ${sshd.username}: check the username and the credential with your bank.`,
    );
    expect(response.body).not.toContain("not-the-password-4711");
    const audit = await t.app.inject({
      method: "GET",
      url: "/v1/audit-records?action=bank_rail_connection_tested",
      headers: bearer(key),
    });
    expect(audit.json().audit_records[0].details).toEqual({ rail: "sepa", kind: "sftp", ok: false, failed_step: "login" });
    expect(audit.body).not.toContain("not-the-password-4711");
  });

  it("refuses a server presenting another host key, naming the key it presented, before any credential", async () => {
    await configure({ private_key: sshd.privateKey, host_key_fingerprint: FINGERPRINT });
    const body = (await test()).json();
    expect(body.ok).toBe(false);
    expect(body.steps.map((s: Step) => s.status)).toEqual(["passed", "failed", "skipped", "skipped", "skipped"]);
    expect(byStep(body.steps).host_key?.message).toContain(
      `The server presented host key ${sshd.hostKeyFingerprint}, not the pinned ${FINGERPRINT}. Nothing was sent.`,
    );
  });

  it("says when nothing answers on the port", async () => {
    await sshd.stop();
    try {
      const body = (await test()).json();
      expect(byStep(body.steps).connect).toMatchObject({ status: "failed" });
      expect(byStep(body.steps).connect?.message).toMatch(
        /^Could not connect to 127\.0\.0\.1 port \d+ \(the connection was refused/,
      );
    } finally {
      await sshd.restart();
    }
  });

  it("is for admins of production", async () => {
    const approver = await addMember(t.app, business.keys.sandbox, "business_approver");
    const approverSession = await asPerson(t.app, approver.email, "production", STRONG_PASSWORD);
    expect((await test(approverSession)).statusCode).toBe(403);
    expect((await test(bearer(business.keys.sandbox))).statusCode).toBe(403);
    // An admin's production key is a machine's credential: allowed without step-up.
    expect((await test(bearer(key))).statusCode).toBe(200);
  });
});

describe("a server that accepts the connection but never speaks SSH", () => {
  let server: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it("is answered within the limit: no SSH server answered", async () => {
    const port = (server.address() as { port: number }).port;
    const steps = await testSftpConnection(
      {
        host: "127.0.0.1",
        port,
        username: "acme",
        password: "secret",
        hostKeyFingerprint: FINGERPRINT,
        outboundDirectory: "out",
        inboundDirectory: "in",
      },
      { allowPrivateTargets: true, resolve: systemResolver },
      1_000,
    );
    expect(steps[0]).toEqual({
      step: "connect",
      status: "failed",
      message: `127.0.0.1 port ${port} accepted the connection but no SSH server answered within 1 second: check the port.`,
    });
    expect(steps.slice(1).map((s) => s.status)).toEqual(["skipped", "skipped", "skipped", "skipped"]);
  });
});
