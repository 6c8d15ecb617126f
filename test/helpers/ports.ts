// Loopback ports for tests that use one port more than once: a server stopped and started again on the same
// address, or an address that must refuse connections. listen(0) takes its port from the kernel's ephemeral
// range, and once it is free again the kernel may give it to any other process of the run (the other worker's
// servers and outgoing connections) before the test uses it again. A port below that range is never handed out
// by the kernel: only another test picking at random from the same range could take it.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** The kernel's ephemeral port range (Linux), or the usual default elsewhere. */
function ephemeralRange(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (low !== undefined && high !== undefined && Number.isInteger(low) && Number.isInteger(high)) return { low, high };
  } catch {
    // not Linux
  }
  return { low: 32768, high: 60999 };
}

/** Ports the kernel never assigns on its own: the 12,000 below the ephemeral range, or those above it. */
function candidateRange(): { from: number; to: number } {
  const { low, high } = ephemeralRange();
  if (low - 1025 >= 2000) return { from: Math.max(1025, low - 12_000), to: low - 1 };
  return { from: high + 1, to: 65_535 };
}

function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A port outside the ephemeral range that nothing listens on now (connections to it are refused). */
export async function portOutsideEphemeralRange(host = "127.0.0.1"): Promise<number> {
  const { from, to } = candidateRange();
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (await bindable(port, host)) return port;
  }
  throw new Error(`no free port between ${from} and ${to} on ${host}`);
}
