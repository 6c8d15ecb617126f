// One definition per job type: its name, the version and TypeBox schema of its payload, its default retry budget
// and, where the job has one, the shape of its dedupe key. Enqueueing (JobStore.enqueue and the SQL builders in
// job-store.ts) and handling (`jobHandler`) both go through it, so a job's name and payload encoding exist in one
// place. See README.md in this folder.
import type { Static, TObject } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { sql } from "drizzle-orm";
import { PermanentJobError, RetryJobError } from "./job-errors.js";
import type { JobContext, JobDefinition, JobHandlers } from "./job-types.js";

export type { JobDefinition, PayloadOf } from "./job-types.js";

/** Stored payloads carry their version in this field, beside the payload's own fields. */
export const PAYLOAD_VERSION_FIELD = "v";

/**
 * A payload of a newer version than this worker reads is retried after this long: during a rolling deploy a
 * worker of the newer release takes it. After the job's attempts are used up it is buried with the same message.
 */
export const NEWER_PAYLOAD_RETRY_MS = 60_000;

const TYPE_PATTERN = /^[a-z][a-z0-9_.-]*$/;
const FIELD_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function defineJob<S extends TObject>(spec: {
  readonly type: string;
  readonly version: number;
  readonly payload: S;
  readonly maxAttempts?: number;
  readonly dedupeKey?: { readonly prefix: string; readonly fields: readonly (keyof Static<S> & string)[] };
}): JobDefinition<Static<S>> {
  type P = Static<S>;
  const { type, version } = spec;
  if (!TYPE_PATTERN.test(type)) throw new Error(`job type ${type}: lower case, dots, underscores and dashes only`);
  if (!Number.isInteger(version) || version < 1) throw new Error(`job type ${type}: version must be a positive integer`);
  const fields = Object.keys(spec.payload.properties);
  if (fields.includes(PAYLOAD_VERSION_FIELD) || fields.some((field) => !FIELD_PATTERN.test(field)))
    throw new Error(`job type ${type}: payload fields must be identifiers other than "${PAYLOAD_VERSION_FIELD}"`);
  const dedupe = spec.dedupeKey;
  if (dedupe !== undefined && (dedupe.prefix.includes("'") || dedupe.fields.length === 0))
    throw new Error(`job type ${type}: bad dedupe key`);
  const check = TypeCompiler.Compile(spec.payload);

  return {
    type,
    version,
    ...(spec.maxAttempts === undefined ? {} : { maxAttempts: spec.maxAttempts }),
    ...(dedupe === undefined ? {} : { dedupeKey: dedupe }),
    encode: (payload) => ({ [PAYLOAD_VERSION_FIELD]: version, ...payload }),
    decode(stored) {
      if (stored === null || typeof stored !== "object" || Array.isArray(stored))
        throw new PermanentJobError(`${type} payload is not an object`);
      const { [PAYLOAD_VERSION_FIELD]: storedVersion = 1, ...payload } = stored as Record<string, unknown>;
      // A payload without a version was written before versions existed: it has version 1's shape.
      if (storedVersion !== version) {
        const message = `${type} payload version ${JSON.stringify(storedVersion)} is not read by this worker (it reads version ${version})`;
        if (typeof storedVersion === "number" && Number.isInteger(storedVersion) && storedVersion > version)
          throw new RetryJobError(message, NEWER_PAYLOAD_RETRY_MS);
        throw new PermanentJobError(message);
      }
      if (!check.Check(payload)) {
        const first = check.Errors(payload).First();
        throw new PermanentJobError(
          `malformed ${type} payload (version ${version})${first === undefined ? "" : `: ${first.path || "/"} ${first.message}`}`,
        );
      }
      return payload as P;
    },
    dedupeKeyOf: (payload) =>
      dedupe === undefined ? null : [dedupe.prefix, ...dedupe.fields.map((field) => String(payload[field]))].join(":"),
    payloadSql: (expressions) =>
      sql`jsonb_build_object(${sql.raw(`'${PAYLOAD_VERSION_FIELD}', ${version}`)}${sql.join(
        fields.map((field) => sql`, ${sql.raw(`'${field}'`)}, ${expressions[field as keyof P]}`),
        sql``,
      )})`,
    dedupeKeySql: (expressions) =>
      dedupe === undefined
        ? null
        : sql`${sql.raw(`'${dedupe.prefix}'`)}${sql.join(
            dedupe.fields.map((field) => sql` || ':' || (${expressions[field]})`),
            sql``,
          )}`,
  };
}

/**
 * The handler of one job type, registered under the definition's name: it receives the decoded payload. A
 * payload that does not decode fails the job with the reason as its recorded error (see `decode`); the
 * handler never sees it.
 */
export function jobHandler<P extends object>(
  definition: JobDefinition<P>,
  handler: (payload: P, context: JobContext) => Promise<void>,
): JobHandlers {
  return { [definition.type]: async (stored, context) => handler(definition.decode(stored), context) };
}
