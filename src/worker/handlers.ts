// The worker's job handlers, by job type: every module's (its definition's `jobs`) and the process-level jobs
// of the composition (the retention sweep, the masking backfill), read from the one composition of the process
// (src/composition.ts, which hands it here: the worker imports nothing of the composition, whose process jobs
// live in this folder). Each must be idempotent because a job can run more than once.
import type { JobHandlers } from "../platform/jobs/worker.js";
import type { ModuleDefinition, ModuleJobs } from "../platform/modules/module-definition.js";

/**
 * Every handler of the composition. Refuses at start-up a handler whose job type its contributor does not
 * declare, a declared job without a handler, and two contributors for one job type.
 */
export function createJobHandlers(composed: {
  readonly modules: readonly ModuleDefinition[];
  readonly processJobs: ModuleJobs;
}): JobHandlers {
  const contributions: { readonly by: string; readonly jobs: ModuleJobs }[] = [
    ...composed.modules.flatMap((module) => (module.jobs === undefined ? [] : [{ by: module.name, jobs: module.jobs }])),
    { by: "the process (src/composition.ts processJobs)", jobs: composed.processJobs },
  ];
  const handlers: Record<string, JobHandlers[string]> = {};
  for (const { by, jobs } of contributions) {
    const declared = new Set(jobs.definitions.map((definition) => definition.type));
    for (const [type, handler] of Object.entries(jobs.handlers)) {
      if (!declared.has(type)) throw new Error(`${by} handles job type ${type} without declaring its definition`);
      if (type in handlers) throw new Error(`job type ${type} has two handlers (the second from ${by})`);
      handlers[type] = handler;
    }
    for (const type of declared) {
      if (!(type in jobs.handlers)) throw new Error(`${by} declares job type ${type} without a handler`);
    }
  }
  return handlers;
}
