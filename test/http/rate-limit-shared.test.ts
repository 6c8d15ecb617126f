// The PostgreSQL-backed rate limiter shared by several API processes: counts are batched, yet the limit
// holds across processes once the shared count is known, and small limits are exact.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "../../src/platform/db/migrate.js";
import { createRateLimiter, type RateLimiter } from "../../src/platform/rate-limit.js";
import { onPostgres, openTestDatabase, type TestDatabase } from "../helpers/test-database.js";

async function until(condition: () => Promise<boolean>, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error("condition not reached before the deadline");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!onPostgres)("shared rate limit on PostgreSQL", () => {
  let testDatabase: TestDatabase;
  let pool: pg.Pool;
  const limiters: RateLimiter[] = [];

  function processLimiter(points: number, exactBelowRemaining: number): RateLimiter {
    // Each limiter stands for one API process: its own pool, its own local counts.
    const limiter = createRateLimiter({ points, windowSeconds: 60 }, { kind: "postgres", pool }, "tenant", {
      flushIntervalMs: 20,
      exactBelowRemaining,
    });
    limiters.push(limiter);
    return limiter;
  }

  async function sharedCount(key: string): Promise<number> {
    const result = await pool.query<{ points: number }>("select points from rate_limits where key = $1", [`tenant:${key}`]);
    return result.rows[0]?.points ?? 0;
  }

  beforeAll(async () => {
    testDatabase = await openTestDatabase();
    await runMigrations(testDatabase.database.db);
    pool = new pg.Pool({ connectionString: testDatabase.url ?? "", max: 4 });
  });
  afterAll(async () => {
    for (const limiter of limiters) await limiter.close();
    await pool?.end();
    await testDatabase?.close();
  });

  it("admits exactly the limit across two processes once counts are shared, then refuses", async () => {
    const processA = processLimiter(50, 10);
    const processB = processLimiter(50, 10);
    let allowed = 0;
    for (let i = 0; i < 30; i += 1) if ((await processA.consume("biz:sandbox")).allowed) allowed += 1;
    expect(allowed).toBe(30);
    await until(async () => (await sharedCount("biz:sandbox")) === 30);

    const decisionsB = [];
    for (let i = 0; i < 25; i += 1) decisionsB.push(await processB.consume("biz:sandbox"));
    const allowedB = decisionsB.filter((d) => d.allowed).length;
    expect(allowed + allowedB).toBe(50);
    expect(decisionsB.at(-1)).toMatchObject({ allowed: false, remaining: 0 });
    // Process A's view of the shared total is at most one flush interval old; after that it refuses too.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await processA.consume("biz:sandbox")).allowed).toBe(false);
  });

  it("counts every request in the store when the limit is small", async () => {
    const processA = processLimiter(3, 10);
    const processB = processLimiter(3, 10);
    const results = [
      await processA.consume("small"),
      await processB.consume("small"),
      await processA.consume("small"),
      await processB.consume("small"),
    ].map((d) => d.allowed);
    expect(results).toEqual([true, true, true, false]);
  });

  it("shares locally admitted requests on close", async () => {
    const processA = processLimiter(1000, 10);
    for (let i = 0; i < 40; i += 1) await processA.consume("flush-on-close");
    await processA.close();
    expect(await sharedCount("flush-on-close")).toBe(40);
  });

  it("keeps tenants apart", async () => {
    const processA = processLimiter(2, 10);
    expect((await processA.consume("one")).allowed).toBe(true);
    expect((await processA.consume("one")).allowed).toBe(true);
    expect((await processA.consume("one")).allowed).toBe(false);
    expect((await processA.consume("two")).allowed).toBe(true);
  });
});
