// CPU time per request, which a busy shared machine distorts far less than requests per second: what the
// server process (and, on PostgreSQL, its database backends) spent, divided by the requests served.
// Linux only (reads /proc); elsewhere the figures are null. PostgreSQL backends are only visible when the
// server runs on this machine.
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import pg from "pg";

/** USER_HZ: clock ticks per second in /proc/<pid>/stat; 100 on every mainstream Linux build. */
const TICKS_PER_SECOND = 100;

/** utime + stime of a process in microseconds, or null when it cannot be read. */
export function processCpuMicros(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces; the fields after it are space-separated.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const user = Number(fields[11]);
    const system = Number(fields[12]);
    if (!Number.isFinite(user) || !Number.isFinite(system)) return null;
    return ((user + system) * 1_000_000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Busy and total CPU time of the whole machine in microseconds (all cores), from /proc/stat. */
function machineCpuMicros(): { busy: number; total: number } | null {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
    const values = line.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = values;
    const busy = user + nice + system + irq + softirq + steal;
    return { busy: (busy * 1_000_000) / TICKS_PER_SECOND, total: ((busy + idle + iowait) * 1_000_000) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/** Backend pids of every session connected to `databaseName` (the service's pool), seen from the server. */
export async function postgresBackendPids(serverUrl: string, databaseName: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const result = await client.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1", [databaseName]);
    return result.rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

interface Snapshot {
  readonly server: number | null;
  readonly backends: number | null;
  readonly machine: { busy: number; total: number } | null;
}

export interface CpuWindow {
  /** Ends the window: CPU microseconds per request of each part, and how busy the machine was. */
  finish(requests: number): CpuPerRequest;
}

export interface CpuPerRequest {
  readonly server_process_us: number | null;
  readonly postgres_backends_us: number | null;
  /** Busy cores of the whole machine during the window (load generator, other work included). */
  readonly machine_busy_cores: number | null;
}

function sum(values: readonly (number | null)[]): number | null {
  let total = 0;
  for (const value of values) {
    if (value === null) return null;
    total += value;
  }
  return total;
}

/** Starts measuring the CPU of `serverPid` and of the given PostgreSQL backends (empty on PGlite). */
export function startCpuWindow(serverPid: number, backendPids: readonly number[] | null): CpuWindow {
  const read = (): Snapshot => ({
    server: processCpuMicros(serverPid),
    backends: backendPids === null ? null : sum(backendPids.map(processCpuMicros)),
    machine: machineCpuMicros(),
  });
  const before = read();
  return {
    finish(requests) {
      const after = read();
      const per = (a: number | null, b: number | null) =>
        a === null || b === null || requests === 0 ? null : Math.round((b - a) / requests);
      const machine =
        before.machine !== null && after.machine !== null && after.machine.total > before.machine.total
          ? (after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)
          : null;
      const cores = machine === null ? null : Math.round(machine * cpus().length * 100) / 100;
      return {
        server_process_us: per(before.server, after.server),
        postgres_backends_us: per(before.backends, after.backends),
        machine_busy_cores: cores,
      };
    },
  };
}
