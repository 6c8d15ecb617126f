// What a Business can learn from a failed SFTP connection (`last_upload_error`): nothing beyond "could not
// connect". A closed port, an open port that does not speak SSH, a silent one (timeout), an address the rules
// refuse and a name that does not resolve all read the same, so the field is no port scanner; the cause is in
// the detail, for the server log. The address rules apply on the address connected (a name resolving to
// loopback is refused before any connection), and no connection is made without a credential to use.
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  COULD_NOT_CONNECT,
  describeDeliveryFailure,
  openSftpTarget,
  type SftpSettings,
} from "../../../src/modules/bank-rails/bank-rails.delivery.js";
import type { Resolver, TargetPolicy } from "../../../src/platform/outbound-http/url-safety.js";

const FINGERPRINT = "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU";
const resolver: Resolver = async (hostname) => {
  if (hostname === "loopback.bank.example") return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
};
const allowing: TargetPolicy = { allowPrivateTargets: true, resolve: resolver };
const refusing: TargetPolicy = { allowPrivateTargets: false, resolve: resolver };

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A loopback TCP server that counts its connections and answers each as told. */
async function tcpServer(answer: (socket: Socket) => void): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.push(socket);
    socket.on("error", () => undefined);
    answer(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { port: address.port, connections: () => connections };
}

async function closedPort(): Promise<number> {
  const { port } = await tcpServer(() => undefined);
  const server = servers.pop();
  await new Promise((resolve) => server?.close(resolve));
  return port;
}

function settings(overrides: Partial<SftpSettings>): SftpSettings {
  return {
    host: "127.0.0.1",
    port: 22,
    username: "acme",
    password: "the-bank-password",
    hostKeyFingerprint: FINGERPRINT,
    outboundDirectory: "out",
    inboundDirectory: "in",
    timeoutMs: 1_500,
    ...overrides,
  };
}

async function failure(target: SftpSettings, policy: TargetPolicy) {
  try {
    const opened = await openSftpTarget(target, policy);
    await opened.close();
  } catch (error) {
    return describeDeliveryFailure(error);
  }
  throw new Error("the connection succeeded");
}

describe("a failed SFTP connection tells the Business nothing but that it failed", () => {
  it("reads the same for a closed port, a non-SSH service, a silent one, a refused address and an unknown name", async () => {
    const http = await tcpServer((socket) => socket.end("HTTP/1.1 400 Bad Request\r\n\r\n"));
    const silent = await tcpServer(() => undefined);
    const cases = {
      closed: await failure(settings({ port: await closedPort() }), allowing),
      notSsh: await failure(settings({ port: http.port }), allowing),
      silent: await failure(settings({ port: silent.port }), allowing),
      refusedAddress: await failure(settings({ port: silent.port }), refusing),
      unknownName: await failure(settings({ host: "nowhere.bank.example", port: silent.port }), allowing),
    };
    for (const [name, outcome] of Object.entries(cases)) {
      expect(outcome.shown, name).toBe(COULD_NOT_CONNECT);
      expect(outcome.kind, name).toBe("unreachable");
    }
    // The server log keeps the cause.
    expect(cases.closed.logged).toMatch(/ECONNREFUSED/);
    expect(cases.refusedAddress.logged).toMatch(/not a public address/);
  });

  it("connects only to checked addresses: a name resolving to loopback is refused before any connection", async () => {
    const silent = await tcpServer(() => undefined);
    const outcome = await failure(settings({ host: "loopback.bank.example", port: silent.port }), refusing);
    expect(outcome.shown).toBe(COULD_NOT_CONNECT);
    expect(silent.connections()).toBe(0);
    // The same literal address, typed in another form, is judged as what it is.
    expect((await failure(settings({ host: "2130706433", port: silent.port }), refusing)).shown).toBe(COULD_NOT_CONNECT);
    expect(silent.connections()).toBe(0);
  });

  it("makes no connection at all without a credential to use", async () => {
    const silent = await tcpServer(() => undefined);
    const { password: _none, ...withoutPassword } = settings({ port: silent.port });
    const outcome = await failure(withoutPassword, allowing);
    expect(outcome.kind).toBe("missing_credentials");
    expect(outcome.shown).toMatch(/no SFTP password or private key/);
    expect(silent.connections()).toBe(0);
  });
});
