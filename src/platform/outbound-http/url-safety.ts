// Where the service may send a request on a customer's behalf (webhook URLs). See README.md here.
//
// Every check happens on what the network stack will actually use, never on the text the customer typed:
// - the URL is parsed first, so `https://2130706433/`, `https://0x7f.1/` and `https://[::ffff:127.0.0.1]/`
//   are judged as the 127.0.0.1 / ::ffff:7f00:1 they become;
// - an IP literal is checked directly (it skips DNS), a name by every address it resolves to;
// - the connection itself resolves through the same check (a guarded `lookup`), and the address the socket
//   is connected to is checked once more, so a DNS answer that changes between the check and the
//   connection (rebinding) cannot reach a private address.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type Socket } from "node:net";
import ipaddr from "ipaddr.js";

export type UnsafeUrlReason = "invalid_url" | "not_https" | "credentials_in_url" | "not_public" | "unresolvable";

export class UnsafeUrlError extends Error {
  override readonly name = "UnsafeUrlError";
  readonly reason: UnsafeUrlReason;
  constructor(reason: UnsafeUrlReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Resolves a host name to every address it has (A and AAAA). */
export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

export interface TargetPolicy {
  /** Loopback, private, link-local… receivers allowed (tests and local development only). */
  readonly allowPrivateTargets: boolean;
  readonly resolve: Resolver;
}

/**
 * The range an address falls in, by ipaddr.js's special-purpose ranges; `unicast` means a public address.
 * An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries.
 */
export function addressRange(address: string): string {
  if (!ipaddr.isValid(address)) return "invalid";
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range();
}

/**
 * Only globally routable unicast addresses are public. Everything else is refused: loopback, RFC 1918
 * private, link-local (169.254.169.254, the cloud metadata address, is one), carrier-grade NAT, unique
 * local IPv6 (fd00:ec2::254 is another metadata address), multicast, reserved and documentation ranges,
 * and the IPv6 forms that embed an IPv4 address (NAT64 64:ff9b::/96, 6to4, Teredo) since the embedded
 * address could be a private one.
 */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === "unicast";
}

/** The host as the network stack sees it: brackets removed from an IPv6 literal. */
function bareHost(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/** Parses a webhook URL: HTTPS only, no user name or password in it. Throws UnsafeUrlError. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError("invalid_url", "Not a valid absolute URL.");
  }
  if (url.protocol !== "https:") throw new UnsafeUrlError("not_https", "The URL must use https.");
  if (url.username !== "" || url.password !== "") {
    throw new UnsafeUrlError("credentials_in_url", "The URL must not carry a user name or password.");
  }
  if (url.hostname === "") throw new UnsafeUrlError("invalid_url", "The URL must name a host.");
  return url;
}

function refuse(host: string, address: string): never {
  throw new UnsafeUrlError(
    "not_public",
    `${host} ${host === address ? "is" : `resolves to ${address}, which is`} not a public address (${addressRange(address)}).`,
  );
}

/**
 * Every address the URL's host stands for, each checked. An IP literal is checked as parsed; a name must
 * resolve, and every address it resolves to must be public (one private answer is enough to refuse).
 */
export async function checkTarget(url: URL, policy: TargetPolicy): Promise<readonly string[]> {
  return checkHost(bareHost(url.hostname), policy);
}

async function checkHost(host: string, policy: TargetPolicy): Promise<readonly string[]> {
  if (isIP(host) !== 0) {
    if (!policy.allowPrivateTargets && !isPublicAddress(host)) refuse(host, host);
    return [host];
  }
  let addresses: readonly LookupAddress[];
  try {
    addresses = await policy.resolve(host);
  } catch {
    throw new UnsafeUrlError("unresolvable", `${host} does not resolve to any address.`);
  }
  if (addresses.length === 0) throw new UnsafeUrlError("unresolvable", `${host} does not resolve to any address.`);
  if (!policy.allowPrivateTargets) {
    for (const { address } of addresses) if (!isPublicAddress(address)) refuse(host, address);
  }
  return addresses.map(({ address }) => address);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that resolves through the policy and refuses the connection when any
 * address is not public, so the address connected to is one that was checked at that moment.
 */
export function guardedLookup(policy: TargetPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    checkHost(bareHost(hostname), policy)
      .then((addresses) => {
        const entries = addresses.map((address) => ({ address, family: isIP(address) }));
        const first = entries[0];
        if (first === undefined) throw new UnsafeUrlError("unresolvable", `${hostname} does not resolve to any address.`);
        if (options.all) callback(null, entries);
        else callback(null, first.address, first.family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, "", 0));
  };
}

/** The last line of defence: the peer of an open socket must be public unless the policy allows private targets. */
export function checkConnectedSocket(socket: Socket, policy: TargetPolicy): void {
  if (policy.allowPrivateTargets) return;
  const address = socket.remoteAddress;
  if (address === undefined) throw new UnsafeUrlError("not_public", "The connection has no peer address.");
  if (!isPublicAddress(address)) refuse(address, address);
}
