import { describe, expect, it } from "vitest";
import { formatApiKey, generateApiKeySecret, parseApiKey } from "../../src/platform/auth/api-key-format.js";
import { createFieldCipher, digestsEqual, hashPassword, hashSecret, verifyPassword } from "../../src/platform/crypto.js";

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

  it("encrypts at rest with AES-256-GCM and detects tampering", () => {
    const cipher = createFieldCipher(Buffer.alloc(32, 9));
    const sealed = cipher.encrypt("DE89370400440532013000");
    expect(sealed).not.toContain("DE89370400440532013000");
    expect(cipher.encrypt("DE89370400440532013000")).not.toBe(sealed);
    expect(cipher.decrypt(sealed)).toBe("DE89370400440532013000");
    const [v, iv, tag, body] = sealed.split(".");
    const flipped = `${v}.${iv}.${tag}.${body?.slice(0, -2)}${body?.endsWith("A") ? "B" : "A"}${body?.slice(-1)}`;
    expect(() => cipher.decrypt(flipped)).toThrow();
    expect(() => createFieldCipher(Buffer.alloc(32, 1)).decrypt(sealed)).toThrow();
  });
});
