// The SSRF matrix with WEBHOOK_ALLOW_PRIVATE_TARGETS off (the production default): every non-public form
// is refused at subscription time, and a delivery to one (a subscription stored before, or a name that
// resolves differently later) fails without reaching the receiver.
import { type AddressInfo, connect, createServer } from "node:net";
import ipaddr from "ipaddr.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookSubscriptions } from "../../src/modules/webhooks/webhooks.schema.js";
import type { Resolver } from "../../src/platform/outbound-http/url-safety.js";
import {
  addressRange,
  checkConnectedSocket,
  isPublicAddress,
  parseWebhookUrl,
} from "../../src/platform/outbound-http/url-safety.js";
import { bearer } from "../helpers/factories.js";
import { startWebhookTestBed, type WebhookTestBed } from "./webhook-test-bed.js";

/** Fake DNS for names under .test (no network in tests); every other name goes to the system resolver. */
let rebindCalls = 0;
const fakeDns: Record<string, () => string[]> = {
  "internal.corp.test": () => ["10.1.2.3"],
  "metadata.corp.test": () => ["169.254.169.254"],
  "mixed.corp.test": () => ["93.184.216.34", "10.0.0.5"],
  "v6-private.corp.test": () => ["fd12:3456:789a::1"],
  "mapped.corp.test": () => ["::ffff:192.168.0.10"],
  "compat.corp.test": () => ["::7f00:1"],
  "v6-doc.corp.test": () => ["2001:db8::5"],
  "split-horizon.corp.test": () => ["10.20.30.40", "fd00:1234::40"],
  // Public when checked, loopback when connected: DNS rebinding.
  "rebind.corp.test": () => (rebindCalls++ === 0 ? ["93.184.216.34"] : ["127.0.0.1"]),
};
/** What a host name of the matrix resolves to, in the forms a message could print (empty for an IP literal). */
function resolvedAddresses(host: string): string[] {
  if (host === "localhost") return ["127.0.0.1", "::1"];
  const entry = fakeDns[host];
  if (entry === undefined) return [];
  const saved = rebindCalls;
  const addresses = entry();
  rebindCalls = saved;
  return addresses.flatMap((address) => [address, ipaddr.parse(address).toString(), ipaddr.parse(address).toNormalizedString()]);
}

const resolver: Resolver = async (hostname) => {
  const entry = fakeDns[hostname];
  if (entry === undefined) {
    const { systemResolver } = await import("../../src/platform/outbound-http/url-safety.js");
    return systemResolver(hostname);
  }
  return entry().map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

describe("SSRF protection with private targets not allowed", () => {
  let bed: WebhookTestBed;
  beforeAll(async () => {
    bed = await startWebhookTestBed({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "false" }, resolver });
  });
  afterAll(async () => bed?.close());

  const subscribe = (url: string) =>
    bed.testApp.app.inject({
      method: "POST",
      url: "/v1/webhook-subscriptions",
      headers: bearer(bed.key),
      payload: { url, enabled_events: ["beneficiary.details_submitted"] },
    });

  const refused: Array<[string, string]> = [
    ["IPv4 loopback", "https://127.0.0.1/hook"],
    ["IPv4 loopback, other address of 127/8", "https://127.8.9.10/hook"],
    ["the receiver itself (loopback with a port)", "RECEIVER"],
    ["a name resolving to loopback (localhost)", "https://localhost/hook"],
    ["private 10/8", "https://10.0.0.1/hook"],
    ["private 172.16/12", "https://172.16.5.4/hook"],
    ["private 192.168/16", "https://192.168.1.1/hook"],
    ["link-local", "https://169.254.10.10/hook"],
    ["the cloud metadata address", "https://169.254.169.254/latest/meta-data/"],
    ["carrier-grade NAT", "https://100.64.0.1/hook"],
    ["unspecified 0.0.0.0", "https://0.0.0.0/hook"],
    ["broadcast", "https://255.255.255.255/hook"],
    ["multicast", "https://224.0.0.1/hook"],
    ["documentation range", "https://192.0.2.10/hook"],
    ["decimal host (2130706433 = 127.0.0.1)", "https://2130706433/hook"],
    ["hex host (0x7f000001)", "https://0x7f000001/hook"],
    ["dotted hex (0x7f.1)", "https://0x7f.1/hook"],
    ["octal (0177.0.0.1)", "https://0177.0.0.1/hook"],
    ["short form (127.1)", "https://127.1/hook"],
    ["decimal private (167772161 = 10.0.0.1)", "https://167772161/hook"],
    ["IPv6 loopback", "https://[::1]/hook"],
    ["IPv6 unspecified", "https://[::]/hook"],
    ["IPv6 link-local", "https://[fe80::1]/hook"],
    ["IPv6 unique local (AWS metadata fd00:ec2::254)", "https://[fd00:ec2::254]/hook"],
    ["IPv4-mapped loopback", "https://[::ffff:127.0.0.1]/hook"],
    ["IPv4-mapped metadata, hex form", "https://[::ffff:a9fe:a9fe]/hook"],
    ["NAT64 of a private address", "https://[64:ff9b::a00:1]/hook"],
    ["6to4", "https://[2002:7f00:1::1]/hook"],
    ["IPv6 multicast", "https://[ff02::1]/hook"],
    ["IPv4-compatible IPv6 loopback (deprecated ::/96)", "https://[::127.0.0.1]/hook"],
    ["IPv4-compatible IPv6 private address", "https://[::10.0.0.1]/hook"],
    ["IPv4-compatible IPv6 of a public address", "https://[::8.8.8.8]/hook"],
    ["IPv4-mapped IPv6 of a public address", "https://[::ffff:8.8.8.8]/hook"],
    ["IPv4-translated IPv6 (::ffff:0:0:0/96)", "https://[::ffff:0:7f00:1]/hook"],
    ["NAT64 local-use prefix", "https://[64:ff9b:1::a00:1]/hook"],
    ["IPv6 documentation 2001:db8::/32", "https://[2001:db8::1]/hook"],
    ["IPv6 documentation 3fff::/20", "https://[3fff::1]/hook"],
    ["Teredo", "https://[2001::1]/hook"],
    ["IPv6 benchmarking", "https://[2001:2::1]/hook"],
    ["IPv6 discard prefix", "https://[100::1]/hook"],
    ["IPv6 deprecated site-local", "https://[fec0::1]/hook"],
    ["IPv6 segment routing", "https://[5f00::1]/hook"],
    ["IPv6 outside 2000::/3 (unallocated)", "https://[4000::1]/hook"],
    ["a name resolving to a private address", "https://internal.corp.test/hook"],
    ["a name resolving to the metadata address", "https://metadata.corp.test/hook"],
    ["a name with one public and one private address", "https://mixed.corp.test/hook"],
    ["a name resolving to a unique-local IPv6 address", "https://v6-private.corp.test/hook"],
    ["a name resolving to an IPv4-mapped private address", "https://mapped.corp.test/hook"],
    ["a name resolving to an IPv4-compatible loopback address", "https://compat.corp.test/hook"],
    ["a name resolving to an IPv6 documentation address", "https://v6-doc.corp.test/hook"],
    ["a name resolving to private IPv4 and IPv6 addresses", "https://split-horizon.corp.test/hook"],
  ];
  for (const [name, rawUrl] of refused) {
    it(`refuses ${name} with 422 WEBHOOK_URL_NOT_PUBLIC and sends nothing`, async () => {
      const url = rawUrl === "RECEIVER" ? bed.hookUrl : rawUrl;
      const before = bed.receiver.requests.length;
      const logsBefore = bed.testApp.logLines.length;
      const response = await subscribe(url);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().error.code).toBe("WEBHOOK_URL_NOT_PUBLIC");
      expect(bed.receiver.requests.length).toBe(before);
      // A refusal never tells the caller (or the logs) what a host name resolved to: that would map internal DNS.
      const host = new URL(url).hostname;
      for (const address of resolvedAddresses(host)) {
        expect(response.body).not.toContain(address);
        expect(bed.testApp.logLines.slice(logsBefore).join("")).not.toContain(address);
      }
    });
  }

  it("names the host the caller gave, never what it resolved to", async () => {
    const byName = await subscribe("https://internal.corp.test/hook");
    expect(byName.json().error.message).toMatch(/^internal\.corp\.test resolves to an address that is not public\. /);
    const literal = await subscribe("https://[::127.0.0.1]/hook");
    expect(literal.json().error.message).toMatch(/^::7f00:1 is not a public address \(ipv4Compatible\)\. /);
  });

  it("a localhost URL's refusal names the setting that allows it for local development", async () => {
    for (const url of ["https://127.0.0.1/hook", "https://[::1]/hook"]) {
      const refused = await subscribe(url);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().error.message).toContain("WEBHOOK_ALLOW_PRIVATE_TARGETS=true");
      expect(refused.json().error.message).toContain("local development");
    }
  });

  it("refuses a plain-http URL even to a public host (400 https_required)", async () => {
    const response = await subscribe("http://93.184.216.34/hook");
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0]).toMatchObject({ field: "url", code: "https_required" });
  });

  it("refuses a name that is public when checked but loopback when connected (DNS rebinding)", async () => {
    rebindCalls = 0;
    const response = await subscribe(`https://rebind.corp.test:${bed.receiver.port}/hook`);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().error.code).toBe("WEBHOOK_URL_NOT_PUBLIC");
    expect(rebindCalls).toBe(2);
    expect(bed.receiver.requests).toHaveLength(0);
  });

  describe("at delivery time", () => {
    /** A subscription stored as if it had been accepted earlier (the flag was on then, or DNS changed since). */
    async function storeSubscription(url: string): Promise<void> {
      const { db } = bed.testApp.runtime.deps.database;
      await db.delete(webhookSubscriptions);
      const now = bed.testApp.clock.now();
      await db.insert(webhookSubscriptions).values({
        id: bed.testApp.runtime.deps.ids.newId(),
        businessId: bed.business.businessId,
        environment: "sandbox",
        url,
        enabledEvents: ["beneficiary.details_submitted"],
        enabled: true,
        secretEncrypted: bed.testApp.runtime.deps.cipher.encrypt("whsec_sandbox_0123"),
        createdAt: now,
        updatedAt: now,
      });
    }

    const cases: Array<[string, () => string]> = [
      ["an IP literal on loopback", () => bed.hookUrl],
      ["a name resolving to loopback", () => `https://localhost:${bed.receiver.port}/hook`],
      [
        "a name that now resolves to loopback (rebinding)",
        () => {
          rebindCalls = 1;
          return `https://rebind.corp.test:${bed.receiver.port}/hook`;
        },
      ],
      ["an IPv4-mapped loopback literal", () => `https://[::ffff:127.0.0.1]:${bed.receiver.port}/hook`],
      ["an IPv4-compatible loopback literal", () => `https://[::127.0.0.1]:${bed.receiver.port}/hook`],
      ["a name resolving to an IPv4-compatible loopback address", () => `https://compat.corp.test:${bed.receiver.port}/hook`],
    ];
    for (const [name, url] of cases) {
      it(`fails the attempt to ${name} as blocked_address, without reaching the receiver`, async () => {
        const target = url();
        await storeSubscription(target);
        const logsBefore = bed.testApp.logLines.length;
        const event = await bed.recordEvent("beneficiary.details_submitted");
        await bed.drain();
        expect(bed.receiver.requests).toHaveLength(0);
        const delivery = await bed.delivery(event.id);
        expect(delivery.attempts).toEqual([
          expect.objectContaining({ succeeded: false, status_code: null, error_class: "blocked_address" }),
        ]);
        // The failed attempt is logged for the operator, without the address the name resolved to.
        const logs = bed.testApp.logLines.slice(logsBefore).join("");
        expect(logs).toContain("webhook attempt failed");
        for (const address of resolvedAddresses(new URL(target).hostname)) expect(logs).not.toContain(address);
      });
    }
  });
});

describe("address classification", () => {
  it("treats only global unicast as public", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of [
      "127.0.0.1",
      "10.0.0.1",
      "172.31.255.255",
      "192.168.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fe80::1",
      "fc00::1",
      "::ffff:10.0.0.1",
      "::ffff:8.8.8.8",
      "::7f00:1",
      "::a00:1",
      "::808:808",
      "64:ff9b::7f00:1",
      "2001:db8::1",
      "3fff::1",
      "2002:808:808::1",
      "100::1",
      "fec0::1",
      "4000::1",
      "fe80::1%eth0",
      "not an ip",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    expect(addressRange("::ffff:169.254.169.254")).toBe("linkLocal");
    expect(addressRange("::127.0.0.1")).toBe("ipv4Compatible");
    expect(addressRange("::ffff:8.8.8.8")).toBe("ipv4Mapped");
    expect(addressRange("4000::1")).toBe("notGlobalUnicast");
  });

  it("parses the URL before judging it: numeric and hex hosts become the address they stand for", () => {
    expect(parseWebhookUrl("https://2130706433/").hostname).toBe("127.0.0.1");
    expect(parseWebhookUrl("https://0x7f.1/").hostname).toBe("127.0.0.1");
    expect(parseWebhookUrl("https://[::ffff:7f00:1]/").hostname).toBe("[::ffff:7f00:1]");
  });

  it("checks the address a socket is actually connected to", async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
    try {
      const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
      await new Promise<void>((resolve, reject) => {
        socket.once("connect", resolve);
        socket.once("error", reject);
      });
      const policy = { allowPrivateTargets: false, resolve: resolver };
      expect(() => checkConnectedSocket(socket, policy)).toThrow("The connection's peer is not a public address.");
      expect(() => checkConnectedSocket(socket, { ...policy, allowPrivateTargets: true })).not.toThrow();
      socket.destroy();
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });
});
