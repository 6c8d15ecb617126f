import os from "node:os";
import type { Json } from "./types.js";

export function machineInfo(): { readonly [key: string]: Json } {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpu_model: cpus[0]?.model ?? null,
    total_memory_mb: Math.round(os.totalmem() / 1024 / 1024),
    /** At the start of the run: other work on the machine skews every figure (see machine_busy_cores). */
    load_average_1m_at_start: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
    node_version: process.version,
    platform: `${os.platform()} ${os.release()}`,
    arch: os.arch(),
  };
}
