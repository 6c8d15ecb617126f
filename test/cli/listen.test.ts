// `payouts listen` as a child process: every new event forwarded once to a receiver that verifies the signature
// with the receiver kit, across a restart of the service (events committed while it was down are forwarded
// after it comes back, none twice), and a forward URL that refuses.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import type { AppInstance } from "../../src/platform/http/types.js";
import { verifyWebhook } from "../../src/receiver-kit/index.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { portOutsideEphemeralRange } from "../helpers/ports.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { createPayout, decide, payableBeneficiary } from "../payouts/payout-fixtures.js";
import { type CliHarness, createCliHarness } from "./cli-helpers.js";

let t: TestApp;
let business: RegisteredBusiness;
let cli: CliHarness;
let port: number;

beforeAll(async () => {
  t = await buildTestApp();
  // The test stops the service and starts it again on this port: one outside the ephemeral range, which no other
  // process of the run can be given while the service is down.
  port = await portOutsideEphemeralRange();
  await t.app.listen({ port, host: "127.0.0.1" });
  business = await registerBusiness(t.app);
  cli = await createCliHarness({ PAYOUTS_BASE_URL: `http://127.0.0.1:${port}`, PAYOUTS_API_KEY: business.keys.sandbox });
});
afterAll(async () => {
  await cli?.close();
  await t?.close();
});

interface Received {
  readonly id: string;
  readonly type: string;
  readonly verified: boolean;
}

async function startReceiver(secret: () => string | null): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    const key = secret();
    const result = key === null ? null : verifyWebhook({ rawBody, header: req.headers["x-service-signature"], secret: key });
    if (result?.ok) received.push({ id: result.event.id, type: result.event.type, verified: true });
    else received.push({ id: "", type: "", verified: false });
    res.writeHead(result?.ok ? 204 : 400).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, server };
}

/** A payout approved and disbursed by the sandbox worker: three payout events. */
async function payoutEvents(app: AppInstance, beneficiaryId: string): Promise<string> {
  const payout = await createPayout(app, business.keys.sandbox, { beneficiary_id: beneficiaryId });
  const approved = await decide(app, business.keys.sandbox, payout.payout_id, "approve");
  expect(approved.statusCode).toBe(201);
  await t.runtime.createWorker("w").drain();
  return payout.payout_id;
}

async function eventIdsOf(app: AppInstance, payoutId: string): Promise<string[]> {
  const response = await app.inject({
    method: "GET",
    url: `/v1/events?subject_id=${payoutId}`,
    headers: bearer(business.keys.sandbox),
  });
  return (response.json() as { events: { id: string }[] }).events.map((e) => e.id);
}

describe("payouts listen", () => {
  it("forwards every new event once, signed, and carries on across a restart of the service", async () => {
    const { beneficiaryId } = await payableBeneficiary(t.app, business.keys.sandbox);
    let secret: string | null = null;
    const receiver = await startReceiver(() => secret);
    try {
      const listen = cli.start(["listen", "--forward-to", receiver.url, "--json"]);
      // Complete lines only: the last one may still be arriving.
      const lines = () =>
        listen
          .stdout()
          .split("\n")
          .slice(0, -1)
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      const forwarded = () => lines().filter((line) => line.event === "forwarded");
      await listen.waitFor(() => lines()[0]?.event === "listening", 30_000, "the start line");
      secret = String(lines()[0]?.secret);
      expect(secret).toMatch(/^whsec_sandbox_[0-9a-f]{64}$/);

      const first = await payoutEvents(t.app, beneficiaryId);
      const firstIds = await eventIdsOf(t.app, first);
      expect(firstIds).toHaveLength(3);
      await listen.waitFor(() => receiver.received.length >= 3, 30_000, "the first three events");

      // The service goes away; events are committed meanwhile (through a second app on the same database, not
      // yet listening), then the service comes back on the same address.
      await t.app.close();
      await listen.waitFor(() => listen.stderr().includes("service unreachable"), 30_000, "the unreachable notice");
      const second = await buildApp(t.runtime.deps);
      try {
        const whileDown = await payoutEvents(second, beneficiaryId);
        const downIds = await eventIdsOf(second, whileDown);
        await second.listen({ port, host: "127.0.0.1" });
        await listen.waitFor(() => receiver.received.length >= 6, 30_000, "the events committed while the service was down");
        await listen.waitFor(() => listen.stderr().includes("reconnected"), 10_000, "the reconnected notice");
        const afterRestart = await payoutEvents(second, beneficiaryId);
        const afterIds = await eventIdsOf(second, afterRestart);
        await listen.waitFor(() => receiver.received.length >= 9, 30_000, "the events after the restart");
        // The CLI prints an event's line once the receiver has answered it, so the ninth line can come after the
        // ninth request: wait for it rather than count at once.
        await listen.waitFor(() => forwarded().length >= 9, 30_000, "the ninth forwarded line");
        // Counted once the CLI has exited: a forward ends with the receiver's answer, so after a clean exit the
        // receiver has seen every request the CLI will ever send, duplicates included.
        expect(await listen.stop()).toBe(0);

        expect(receiver.received.every((r) => r.verified)).toBe(true);
        const got = receiver.received.map((r) => r.id);
        expect(new Set(got).size).toBe(got.length);
        expect(got.sort()).toEqual([...firstIds, ...downIds, ...afterIds].sort());
        expect(forwarded()).toHaveLength(9);
        expect(forwarded().every((line) => line.status === 204 && line.ok === true)).toBe(true);
      } finally {
        await second.close();
      }
    } finally {
      receiver.server.close();
    }
  });
});

describe("payouts listen, bad input", () => {
  let app: TestApp;
  let key: string;
  let harness: CliHarness;
  beforeAll(async () => {
    app = await buildTestApp();
    await app.app.listen({ port: 0, host: "127.0.0.1" });
    const b = await registerBusiness(app.app);
    key = b.keys.sandbox;
    harness = await createCliHarness({
      PAYOUTS_BASE_URL: `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`,
      PAYOUTS_API_KEY: key,
    });
  });
  afterAll(async () => {
    await harness?.close();
    await app?.close();
  });

  it("reports a forward URL that refuses on the event's line and exits non-zero", async () => {
    // A port nothing listens on, outside the range the kernel hands to other processes' servers.
    const refusedUrl = `http://127.0.0.1:${await portOutsideEphemeralRange()}/hooks`;
    const listen = harness.start(["listen", "--forward-to", refusedUrl]);
    await listen.waitFor(() => listen.stdout().includes("Signing secret: whsec_"), 30_000, "the start line");
    await payableBeneficiary(app.app, key); // registering the bank account records an event
    await listen.waitFor(() => listen.stdout().includes("failed: connection refused"), 30_000, "the refused forward");
    expect(listen.stdout()).toContain("beneficiary.bank_account.registered");
    expect(await listen.stop()).toBe(1);
  });

  it("refuses a revoked key, an unknown event type and a bad URL with a clear message", async () => {
    const revoked = await harness.run(["listen", "--forward-to", "http://127.0.0.1:9/x"], {
      env: { PAYOUTS_API_KEY: "pok_sandbox_revoked" },
    });
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toMatch(/API key is missing, wrong or revoked/);
    const type = await harness.run(["listen", "--forward-to", "http://127.0.0.1:9/x", "--events", "payout.exploded"]);
    expect(type.code).toBe(2);
    expect(type.stderr).toContain('unknown event type "payout.exploded"');
    const url = await harness.run(["listen", "--forward-to", "ftp://example.com"]);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain("--forward-to must be an http:// or https:// URL");
  });
});
