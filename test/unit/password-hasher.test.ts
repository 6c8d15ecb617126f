// The password hasher: the same hashes as scrypt on libuv's pool, computed on threads whose scheduling
// priority is the lowest, at most `threads` at once.
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../src/platform/crypto.js";
import { createPasswordHasher, type PasswordHasher } from "../../src/platform/password-hasher.js";

let hasher: PasswordHasher | null = null;
afterEach(async () => {
  await hasher?.close();
  hasher = null;
});

/** Nice value of every thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

describe("password hasher", () => {
  it("hashes and verifies interchangeably with scrypt on libuv's pool", async () => {
    hasher = createPasswordHasher({ threads: 1 });
    const onThreads = await hashPassword("correct horse battery staple", hasher.deriveKey);
    expect(await verifyPassword("correct horse battery staple", onThreads)).toBe(true);
    expect(await verifyPassword("wrong horse battery staple", onThreads)).toBe(false);
    const onPool = await hashPassword("another long passphrase");
    expect(await verifyPassword("another long passphrase", onPool, hasher.deriveKey)).toBe(true);
    expect(await verifyPassword("another long passphrase!", onPool, hasher.deriveKey)).toBe(false);
  });

  it("runs at most `threads` hashes at once, on threads with the lowest priority, and answers every queued one", async () => {
    hasher = createPasswordHasher({ threads: 2 });
    const before = readdirSync("/proc/self/task").length;
    const hashes = Array.from({ length: 6 }, (_, i) => hashPassword(`passphrase number ${i}`, hasher?.deriveKey));
    expect(hasher.pending()).toBe(6);
    const results = await Promise.all(hashes);
    expect(new Set(results).size).toBe(6);
    expect(hasher.pending()).toBe(0);
    if (process.platform === "linux") {
      // Two new threads, each lowered to nice 19 (a worker thread brings a few helper threads of V8's too).
      expect(threadNiceValues().filter((nice) => nice === 19)).toHaveLength(2);
      expect(readdirSync("/proc/self/task").length).toBeGreaterThan(before);
    }
  });

  it("refuses work after close", async () => {
    hasher = createPasswordHasher({ threads: 1 });
    await hasher.close();
    await expect(hashPassword("a passphrase after close", hasher.deriveKey)).rejects.toThrow(/closed/);
  });
});
