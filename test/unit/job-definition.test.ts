// Job definitions (platform/jobs/job-definition.ts): what is stored for a payload, what a handler receives
// back, and the SQL the job-creating statements get from the same definition.
import { Type } from "@sinclair/typebox";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { defineJob } from "../../src/platform/jobs/job-definition.js";
import { PermanentJobError, RetryJobError } from "../../src/platform/jobs/worker.js";

const ATTEMPT_JOB = defineJob({
  type: "probe.attempt",
  version: 3,
  payload: Type.Object({ delivery_id: Type.String(), series: Type.Integer(), note: Type.Optional(Type.String()) }),
  maxAttempts: 5,
  dedupeKey: { prefix: "attempt", fields: ["delivery_id", "series"] },
});

describe("job definitions", () => {
  it("store the payload with its version and give it back without", () => {
    const stored = ATTEMPT_JOB.encode({ delivery_id: "d-1", series: 2 });
    expect(stored).toEqual({ v: 3, delivery_id: "d-1", series: 2 });
    expect(ATTEMPT_JOB.decode(JSON.parse(JSON.stringify(stored)))).toEqual({ delivery_id: "d-1", series: 2 });
  });

  it("derive the dedupe key from the named fields", () => {
    expect(ATTEMPT_JOB.dedupeKeyOf({ delivery_id: "d-1", series: 2, note: "x" })).toBe("attempt:d-1:2");
    expect(defineJob({ type: "probe.plain", version: 1, payload: Type.Object({}) }).dedupeKeyOf({})).toBeNull();
  });

  it("refuse what a handler could not use, saying why", () => {
    expect(() => ATTEMPT_JOB.decode(null)).toThrow(new PermanentJobError("probe.attempt payload is not an object"));
    expect(() => ATTEMPT_JOB.decode({ v: 2, delivery_id: "d", series: 1 })).toThrow(PermanentJobError);
    expect(() => ATTEMPT_JOB.decode({ v: "3", delivery_id: "d", series: 1 })).toThrow(
      'probe.attempt payload version "3" is not read by this worker (it reads version 3)',
    );
    expect(() => ATTEMPT_JOB.decode({ v: 4, delivery_id: "d", series: 1 })).toThrow(RetryJobError);
    expect(() => ATTEMPT_JOB.decode({ v: 3, delivery_id: "d", series: 1.5 })).toThrow(
      /^malformed probe\.attempt payload \(version 3\): \/series /,
    );
  });

  it("build the same payload and dedupe key in SQL, with fixed text", () => {
    const fields = { delivery_id: sql`d.id`, series: sql`d.series`, note: sql`null` };
    const dialect = new PgDialect();
    expect(dialect.sqlToQuery(ATTEMPT_JOB.payloadSql(fields))).toEqual({
      sql: "jsonb_build_object('v', 3, 'delivery_id', d.id, 'series', d.series, 'note', null)",
      params: [],
    });
    expect(dialect.sqlToQuery(ATTEMPT_JOB.dedupeKeySql(fields) ?? sql``)).toEqual({
      sql: "'attempt' || ':' || (d.id) || ':' || (d.series)",
      params: [],
    });
  });

  it("refuse a definition whose name or fields SQL could not carry", () => {
    expect(() => defineJob({ type: "Probe'x", version: 1, payload: Type.Object({}) })).toThrow(/job type/);
    expect(() => defineJob({ type: "probe.v", version: 1, payload: Type.Object({ v: Type.Integer() }) })).toThrow(/"v"/);
    expect(() => defineJob({ type: "probe.zero", version: 0, payload: Type.Object({}) })).toThrow(/version/);
  });
});
