import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatApiKey, generateApiKeySecret, parseApiKey } from "../../src/platform/auth/api-key-format.js";
import {
  createFieldCipher,
  digestsEqual,
  hashPassword,
  hashSecret,
  PRODUCTION_PASSWORD_HASH_COST,
  passwordHashCost,
  usePasswordHashCostForTests,
  verifyPassword,
} from "../../src/platform/crypto.js";

describe("API key format", () => {
  const id = "01a2001e-f110-7520-a68e-4a7c4bccd76f";

  it("round-trips through four underscore-separated segments", () => {
    const secret = generateApiKeySecret();
    const key = formatApiKey("production", id, secret);
    expect(key.split("_")).toHaveLength(4);
    expect(parseApiKey(key)).toEqual({ environment: "production", id, secret });
  });

  it("uses at least 32 random bytes of secret", () => {
    const a = generateApiKeySecret();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(generateApiKeySecret()).not.toBe(a);
  });

  it.each([
    "",
    "Bearer x",
    `sk_sandbox_${"0".repeat(32)}_${"a".repeat(64)}`,
    `pok_staging_${"0".repeat(32)}_${"a".repeat(64)}`,
    `pok_sandbox_${"0".repeat(31)}_${"a".repeat(64)}`,
    `pok_sandbox_${"0".repeat(32)}_${"a".repeat(63)}`,
    `pok_sandbox_${"0".repeat(32)}_${"A".repeat(64)}`,
  ])("rejects malformed key %j", (raw) => {
    expect(parseApiKey(raw)).toBeNull();
  });
});

describe("secrets", () => {
  it("compares digests in constant time and only when equal", () => {
    expect(digestsEqual(hashSecret("a"), hashSecret("a"))).toBe(true);
    expect(digestsEqual(hashSecret("a"), hashSecret("b"))).toBe(false);
    expect(digestsEqual("", "")).toBe(false);
  });

  it("hashes passwords with scrypt and verifies them", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(hash.startsWith("scrypt$")).toBe(true);
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery staple", hash)).toBe(true);
    expect(await verifyPassword("wrong", hash)).toBe(false);
    expect(await verifyPassword("x", "garbage")).toBe(false);
  });

  it("hashes at production's cost unless the test harness lowered it, and verifies either by the cost in the hash", async () => {
    // test/setup/per-file.ts lowered the cost for this process; the production cost is restored for this test.
    expect(passwordHashCost()).toBe(1024);
    const lowered = await hashPassword("correct horse battery staple");
    expect(lowered.startsWith("scrypt$1024$8$1$")).toBe(true);
    try {
      usePasswordHashCostForTests(false);
      expect(passwordHashCost()).toBe(PRODUCTION_PASSWORD_HASH_COST);
      const production = await hashPassword("correct horse battery staple");
      expect(production.startsWith("scrypt$32768$8$1$")).toBe(true);
      expect(await verifyPassword("correct horse battery staple", lowered)).toBe(true);
      usePasswordHashCostForTests();
      expect(await verifyPassword("correct horse battery staple", production)).toBe(true);
      expect(await verifyPassword("wrong", production)).toBe(false);
    } finally {
      usePasswordHashCostForTests();
    }
  });

  it("lowers the password hash cost only from the test harness: nothing in src/ but its definition names it", async () => {
    const srcRoot = path.resolve(import.meta.dirname, "../../src");
    const files = (await readdir(srcRoot, { recursive: true })).filter((file) => file.endsWith(".ts"));
    const callers: string[] = [];
    for (const file of files) {
      if ((await readFile(path.join(srcRoot, file), "utf8")).includes("usePasswordHashCostForTests")) callers.push(file);
    }
    expect(callers).toEqual([path.join("platform", "crypto.ts")]);
    const main = await readFile(path.join(srcRoot, "main.ts"), "utf8");
    expect(main).toMatch(/passwordHashCost\(\) !== PRODUCTION_PASSWORD_HASH_COST/);
  });

  it("encrypts at rest with AES-256-GCM and detects tampering", () => {
    const cipher = createFieldCipher(Buffer.alloc(32, 9));
    const sealed = cipher.encrypt("DE89370400440532013000");
    expect(sealed).not.toContain("DE89370400440532013000");
    expect(cipher.encrypt("DE89370400440532013000")).not.toBe(sealed);
    expect(cipher.decrypt(sealed)).toBe("DE89370400440532013000");
    const [v, iv, tag, body] = sealed.split(".");
    // Flip one bit of the ciphertext's bytes (editing a base64 character can leave the bytes unchanged).
    const tamperedBody = Buffer.from(body ?? "", "base64url");
    tamperedBody[0] = (tamperedBody[0] ?? 0) ^ 0x01;
    const flipped = `${v}.${iv}.${tag}.${tamperedBody.toString("base64url")}`;
    expect(flipped).not.toBe(sealed);
    expect(() => cipher.decrypt(flipped)).toThrow();
    expect(() => createFieldCipher(Buffer.alloc(32, 1)).decrypt(sealed)).toThrow();
  });
});
