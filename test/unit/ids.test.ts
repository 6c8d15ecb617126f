// The id generator: UUIDv7 (version and variant bits) that strictly ascend within a process, also many in one
// millisecond and across the random pool's refills, and differ between generators.
import { describe, expect, it } from "vitest";
import { createUuidV7Generator, isUuid } from "../../src/platform/ids.js";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("the UUIDv7 generator", () => {
  it("makes valid UUIDv7 that strictly ascend, 5,000 in one millisecond and across the pool's refills", () => {
    let clock = 1_780_000_000_000;
    const ids = createUuidV7Generator(() => clock);
    const made: string[] = [];
    for (let i = 0; i < 5_000; i += 1) made.push(ids.newId());
    clock += 1;
    for (let i = 0; i < 5_000; i += 1) made.push(ids.newId());
    for (const id of made) {
      expect(id).toMatch(V7);
      expect(isUuid(id)).toBe(true);
    }
    for (let i = 1; i < made.length; i += 1) expect((made[i - 1] as string) < (made[i] as string)).toBe(true);
    // The first 48 bits are the millisecond.
    expect(Number.parseInt((made[0] as string).replace(/-/g, "").slice(0, 12), 16)).toBe(1_780_000_000_000);
  });

  it("draws fresh random bytes: two generators at the same instant make different ids", () => {
    const a = createUuidV7Generator(() => 1_780_000_000_000);
    const b = createUuidV7Generator(() => 1_780_000_000_000);
    const fromA = new Set(Array.from({ length: 2_000 }, () => a.newId()));
    const fromB = Array.from({ length: 2_000 }, () => b.newId());
    expect(fromA.size).toBe(2_000);
    expect(fromB.filter((id) => fromA.has(id))).toEqual([]);
  });

  it("keeps ascending when the clock steps back", () => {
    let clock = 1_780_000_000_500;
    const ids = createUuidV7Generator(() => clock);
    const first = ids.newId();
    clock -= 400;
    const second = ids.newId();
    expect(first < second).toBe(true);
  });
});
