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

/** IPv6 global unicast (RFC 4291 2.4): every globally routable IPv6 address is inside it. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");
/** The deprecated IPv4-compatible form `::a.b.c.d` (RFC 4291 2.5.5.1): the OS may reach the embedded IPv4 address. */
const IPV6_IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/**
 * The range an address falls in, for messages and tests: ipaddr.js's special-purpose ranges, `unicast` for
 * a global one. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) names the range of the IPv4 address it
 * carries (`ipv4Mapped` when that one is public); an IPv6 address outside 2000::/3 that ipaddr.js has no name for is `ipv4Compatible` (::/96) or
 * `notGlobalUnicast`.
 */
/**
 * Parses an address as the network stack reads it. ipaddr.js alone reads `::127.0.0.1` as the IPv4-mapped
 * `::ffff:7f00:1`, while Node connects to the IPv4-compatible `::7f00:1`; an IPv6 address is therefore first
 * put in the canonical form of the WHATWG URL parser (the one that parsed the webhook URL). Null when the
 * text is not one address (a zone index such as `fe80::1%eth0` included).
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.isValidFourPartDecimal(address) ? ipaddr.IPv4.parse(address) : null;
  if (family !== 6) return null;
  let canonical: string;
  try {
    canonical = bareHost(new URL(`https://[${address}]/`).hostname);
  } catch {
    return null;
  }
  return ipaddr.IPv6.isValid(canonical) ? ipaddr.IPv6.parse(canonical) : null;
}

export function addressRange(address: string): string {
  const parsed = parseAddress(address);
  if (parsed === null) return "invalid";
  if (parsed.kind() === "ipv4") return parsed.range();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) {
    // Never public (see isPublicAddress); named by what it carries unless that is itself a public address.
    const carried = v6.toIPv4Address().range();
    return carried === "unicast" ? "ipv4Mapped" : carried;
  }
  const range = v6.range();
  if (range !== "unicast" || v6.match(IPV6_GLOBAL_UNICAST)) return range;
  return v6.match(IPV6_IPV4_COMPATIBLE) ? "ipv4Compatible" : "notGlobalUnicast";
}

/**
 * Only global unicast addresses are public. IPv4: ipaddr.js's `unicast` range, so loopback, RFC 1918
 * private, link-local (169.254.169.254, the cloud metadata address, is one), carrier-grade NAT, unspecified,
 * broadcast, multicast, reserved, benchmarking and documentation ranges are refused. IPv6: inside 2000::/3
 * and in none of the special-purpose ranges, so `::1`, `::`, the IPv4-compatible `::/96`, IPv4-mapped
 * `::ffff:0:0/96` (even around a public IPv4 address: a real receiver publishes its A record instead),
 * unique local (fd00:ec2::254 is another metadata address), link-local, multicast, documentation, NAT64
 * 64:ff9b::/96, 6to4 and Teredo (which embed an IPv4 address that could be a private one) are refused.
 * An allow-list of the one global range, not a deny-list of the bad ones: a form nobody listed fails closed.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (parsed === null) return false;
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  return v6.match(IPV6_GLOBAL_UNICAST) && v6.range() === "unicast";
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

/**
 * Refusal messages reach API callers (422 responses) and logs, so they never name an address a host name
 * resolved to: that would map the service's internal DNS for anyone who can subscribe a URL. A literal the
 * caller typed is theirs already, so its range may be named.
 */
function refuseLiteral(host: string): never {
  throw new UnsafeUrlError("not_public", `${host} is not a public address (${addressRange(host)}).`);
}

function refuseName(host: string): never {
  throw new UnsafeUrlError("not_public", `${host} resolves to an address that is not public.`);
}

/**
 * Every address the URL's host stands for, each checked. An IP literal is checked as parsed; a name must
 * resolve, and every address it resolves to must be public (one private answer is enough to refuse).
 */
export async function checkTarget(url: URL, policy: TargetPolicy): Promise<readonly string[]> {
  return checkHost(bareHost(url.hostname), policy);
}

/**
 * A host name as typed for a non-URL destination (an SFTP server): put through the same WHATWG host parser as a
 * webhook URL, so `2130706433`, `0x7f.1` and `[::127.0.0.1]` become the `127.0.0.1` and `::7f00:1` the network
 * stack would use, names are lower-cased, and an IPv6 literal comes back without brackets. Anything that is not
 * one bare host (a port, a path, credentials, an empty or invalid host) throws UnsafeUrlError `invalid_url`.
 */
export function canonicalHost(raw: string): string {
  const text = isIP(raw) === 6 ? `[${raw}]` : raw;
  let url: URL;
  try {
    url = new URL(`https://${text}/`);
  } catch {
    throw new UnsafeUrlError("invalid_url", "Not a valid host name or IP address.");
  }
  if (url.hostname === "" || url.host !== url.hostname || url.pathname !== "/" || url.username !== "" || url.search !== "") {
    throw new UnsafeUrlError("invalid_url", "Not a valid host name or IP address (give the port in its own field).");
  }
  return bareHost(url.hostname);
}

/**
 * Every address a bare host (as canonicalHost gives it) stands for, each checked like a webhook URL's host:
 * a literal as it is, a name by every address it resolves to.
 */
export async function checkHost(host: string, policy: TargetPolicy): Promise<readonly string[]> {
  if (isIP(host) !== 0) {
    if (!policy.allowPrivateTargets && !isPublicAddress(host)) refuseLiteral(host);
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
    for (const { address } of addresses) if (!isPublicAddress(address)) refuseName(host);
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
  // The peer may be what a host name resolved to, so the message names no address (see refuseLiteral).
  if (address === undefined || !isPublicAddress(address)) {
    throw new UnsafeUrlError("not_public", "The connection's peer is not a public address.");
  }
}
