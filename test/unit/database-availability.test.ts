// Which database errors a start waits out (and a request answers with 503), how the wait backs off and logs, and
// how a worker's failed polls back off. The processes themselves: test/startup/database-restart-postgres.test.ts.
import { describe, expect, it } from "vitest";
import { isDatabaseUnreachable, untilDatabaseReachable } from "../../src/platform/db/availability.js";
import { failedPollDelayMs } from "../../src/platform/jobs/worker.js";

function pgError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe("isDatabaseUnreachable", () => {
  it.each([
    ["connection refused", pgError("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")],
    ["a host not resolvable yet", pgError("getaddrinfo ENOTFOUND db", "ENOTFOUND")],
    ["the pool's connection deadline", new Error("timeout exceeded when trying to connect")],
    ["a connection closed under a query", new Error("Connection terminated unexpectedly")],
    ["a client used after its connection failed", new Error("Client has encountered a connection error and is not queryable")],
    ["postmaster gone (admin_shutdown)", pgError("terminating connection due to unexpected postmaster exit", "57P01")],
    ["the server starting up", pgError("the database system is starting up", "57P03")],
    ["too many connections", pgError("sorry, too many clients already", "53300")],
    ["a connection exception (class 08)", pgError("connection failure", "08006")],
    [
      "wrapped by the query builder",
      new Error("Failed query: select 1", { cause: pgError("connect ECONNREFUSED", "ECONNREFUSED") }),
    ],
  ])("%s: waits / 503", (_name, error) => {
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it.each([
    ["a wrong password", pgError('password authentication failed for user "payouts"', "28P01")],
    ["an unknown role", pgError('role "nobody" does not exist', "28000")],
    ["a database that does not exist", pgError('database "nope" does not exist', "3D000")],
    ["no permission to connect", pgError("permission denied for database payouts", "42501")],
    ["a failing statement", pgError('relation "jobs" does not exist', "42P01")],
    ["not an error at all", "ECONNREFUSED"],
  ])("%s: fails at once / not a 503", (_name, error) => {
    expect(isDatabaseUnreachable(error)).toBe(false);
  });
});

describe("untilDatabaseReachable", () => {
  function recordingLog() {
    const lines: Array<{ level: "warn" | "info"; fields: Record<string, unknown>; message: string }> = [];
    return {
      lines,
      log: {
        warn: (fields: object, message: string) =>
          lines.push({ level: "warn", fields: fields as Record<string, unknown>, message }),
        info: (fields: object, message: string) =>
          lines.push({ level: "info", fields: fields as Record<string, unknown>, message }),
      },
    };
  }

  it("retries while the database is unreachable, logging each try and doubling the delay up to the cap", async () => {
    const { lines, log } = recordingLog();
    let calls = 0;
    const result = await untilDatabaseReachable(
      async () => {
        calls += 1;
        if (calls <= 4) throw pgError("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED");
        return "migrated";
      },
      { log, firstDelayMs: 1, maxDelayMs: 4 },
    );
    expect(result).toBe("migrated");
    expect(calls).toBe(5);
    expect(lines.filter((line) => line.level === "warn").map((line) => [line.fields.attempt, line.fields.retry_in_ms])).toEqual([
      [1, 1],
      [2, 2],
      [3, 4],
      [4, 4],
    ]);
    expect(lines.at(-1)).toMatchObject({ level: "info", message: "database reachable", fields: { attempts: 5 } });
  });

  it("throws at once an error no wait can fix, without a retry", async () => {
    const { lines, log } = recordingLog();
    let calls = 0;
    const refused = pgError('password authentication failed for user "payouts"', "28P01");
    await expect(
      untilDatabaseReachable(
        async () => {
          calls += 1;
          throw refused;
        },
        { log, firstDelayMs: 1 },
      ),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
    expect(lines).toEqual([]);
  });

  it("stops waiting when the signal aborts (shutdown before the database came)", async () => {
    const { log } = recordingLog();
    const controller = new AbortController();
    const waiting = untilDatabaseReachable(
      async () => {
        throw pgError("connect ECONNREFUSED", "ECONNREFUSED");
      },
      { log, firstDelayMs: 60_000, signal: controller.signal },
    );
    controller.abort(new Error("shutting down"));
    await expect(waiting).rejects.toThrow("shutting down");
  });
});

describe("failedPollDelayMs", () => {
  it("doubles the poll interval per failed poll, up to 5 s (or the interval when it is longer)", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((failures) => failedPollDelayMs(250, failures))).toEqual([
      250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000,
    ]);
    expect(failedPollDelayMs(60_000, 3)).toBe(60_000);
  });
});
