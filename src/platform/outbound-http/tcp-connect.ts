// A TCP connection to a host a customer named (an SFTP server), under the same address rules as webhook
// URLs (url-safety.ts): the host is resolved through the policy and every address checked, the socket is
// connected to one of those checked addresses (never to the name, so the system resolver cannot answer
// differently a second time), and the peer of the open socket is checked once more before anything is sent.
import { connect, type Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { canonicalHost, checkConnectedSocket, checkHost, type TargetPolicy } from "./url-safety.js";

export interface GuardedConnectOptions {
  readonly host: string;
  readonly port: number;
  readonly policy: TargetPolicy;
  /** Overall deadline, resolution and every address tried included. */
  readonly timeoutMs: number;
}

function connectOnce(address: string, port: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(Object.assign(new Error(`connection to port ${port} timed out`), { code: "ETIMEDOUT" }));
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      resolve(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    });
  });
}

/**
 * Opens a TCP connection to `host:port` under the policy. Rejects with UnsafeUrlError when the host is not
 * allowed (or does not resolve), or with the last connection error when no checked address answered. The
 * caller owns the socket (and must give it an error listener before the next tick's I/O).
 */
export async function connectGuarded(options: GuardedConnectOptions): Promise<Socket> {
  const deadline = performance.now() + options.timeoutMs;
  const addresses = await checkHost(canonicalHost(options.host), options.policy);
  let lastError: unknown = new Error("no address to connect to");
  for (const address of addresses) {
    const remaining = deadline - performance.now();
    if (remaining <= 0) break;
    let socket: Socket;
    try {
      socket = await connectOnce(address, options.port, remaining);
    } catch (error) {
      lastError = error;
      continue;
    }
    try {
      checkConnectedSocket(socket, options.policy);
    } catch (refusal) {
      socket.destroy();
      throw refusal;
    }
    return socket;
  }
  throw lastError;
}
