// Job definitions for the probe job types tests enqueue ("probe.touch", "probe.fail", …): any object payload,
// version 1, read back without its version field like every job's payload.
import { Type } from "@sinclair/typebox";
import { defineJob, type JobDefinition, jobHandler } from "../../src/platform/jobs/job-definition.js";
import type { EnqueueOptions } from "../../src/platform/jobs/job-store.js";
import type { JobContext, JobHandlers } from "../../src/platform/jobs/worker.js";

/** Harmless when shared between test files: a definition depends only on its type. */
const definitions = new Map<string, JobDefinition<Record<string, unknown>>>();

export function probeJob(type: string): JobDefinition<Record<string, unknown>> {
  let definition = definitions.get(type);
  if (definition === undefined) {
    definition = defineJob({ type, version: 1, payload: Type.Object({}) }) as JobDefinition<Record<string, unknown>>;
    definitions.set(type, definition);
  }
  return definition;
}

/** Handlers by probe type, each receiving the decoded payload. */
export function probeHandlers(
  handlers: Readonly<Record<string, (payload: unknown, context: JobContext) => Promise<void>>>,
): JobHandlers {
  return Object.assign({}, ...Object.entries(handlers).map(([type, handler]) => jobHandler(probeJob(type), handler)));
}

/** The arguments of JobStore.enqueue for a probe job, from the `{ type, payload, …options }` shape tests write. */
export function probeEnqueue(
  job: { readonly type: string; readonly payload: object } & EnqueueOptions,
): [JobDefinition<Record<string, unknown>>, Record<string, unknown>, EnqueueOptions] {
  const { type, payload, ...options } = job;
  return [probeJob(type), payload as Record<string, unknown>, options];
}
