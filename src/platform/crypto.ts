// Secrets we only need to recognise (API-key secrets, link tokens, passwords) are stored as hashes;
// values we must reuse later (webhook secrets, account numbers) are encrypted with AES-256-GCM.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from "node:crypto";

/** SHA-256 of a high-entropy secret. A salt adds nothing when the secret itself is 256 random bits. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Constant-time equality of two hex digests of equal length. */
export function digestsEqual(aHex: string, bHex: string): boolean {
  const a = Buffer.from(aHex, "hex");
  const b = Buffer.from(bHex, "hex");
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

// scrypt parameters: N=2^15, r=8, p=1 (OWASP's recommended minimum), 64-byte key, 16-byte salt.
const SCRYPT = { N: 32768, r: 8, p: 1, keyLength: 64, maxmem: 64 * 1024 * 1024 } as const;
/** The cost (scrypt's N) new password hashes are made with in production. */
export const PRODUCTION_PASSWORD_HASH_COST = SCRYPT.N;
/** The cost the test harness hashes with: about 1 ms instead of 100 ms per hash. */
const TEST_PASSWORD_HASH_COST = 1024;

// The one piece of module state in src/: the cost of new hashes. It is the production cost unless the test
// harness (test/setup/per-file.ts) lowers it through the function below, which nothing in src/ calls and no
// configuration reaches; main.ts refuses to start with a lowered cost. Verification reads N, r and p from
// the stored hash, so hashes made at either cost verify whatever the current setting is.
let newHashCost: number = PRODUCTION_PASSWORD_HASH_COST;

/**
 * Tests only: new password hashes use a cost of 2^10 instead of 2^15 (`lowered: false` restores production's).
 * Hundreds of sign-ins, invitations and resets in the test suite otherwise spend most of its CPU in scrypt.
 */
export function usePasswordHashCostForTests(lowered = true): void {
  newHashCost = lowered ? TEST_PASSWORD_HASH_COST : PRODUCTION_PASSWORD_HASH_COST;
}

/** The scrypt N of the hashes hashPassword makes now (main.ts checks it is production's). */
export function passwordHashCost(): number {
  return newHashCost;
}

/** scrypt with these parameters: libuv's pool by default, or the low-priority threads of password-hasher.ts. */
export type DeriveKey = (
  password: string,
  salt: Buffer,
  keyLength: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

const scryptOnLibuvPool: DeriveKey = (password, salt, keyLength, options) =>
  new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });

/** Returns a self-describing hash: `scrypt$N$r$p$<salt b64>$<key b64>`. */
export async function hashPassword(password: string, derive: DeriveKey = scryptOnLibuvPool): Promise<string> {
  const salt = randomBytes(16);
  const N = newHashCost;
  const key = await derive(password, salt, SCRYPT.keyLength, { N, r: SCRYPT.r, p: SCRYPT.p, maxmem: SCRYPT.maxmem });
  return ["scrypt", N, SCRYPT.r, SCRYPT.p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string, derive: DeriveKey = scryptOnLibuvPool): Promise<boolean> {
  const [scheme, n, r, p, saltB64, keyB64] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, "base64");
  const actual = await derive(password, Buffer.from(saltB64, "base64"), SCRYPT.keyLength, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export interface FieldCipher {
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
  /**
   * Keyed hash (HMAC-SHA256 under a key derived from the encryption key) of a sensitive value: recognises
   * the same account number again without decrypting anything, and is useless without the key.
   */
  fingerprint(value: string): string;
}

/** AES-256-GCM; the stored form is `v1.<iv>.<tag>.<ciphertext>` in base64url, so the key can be rotated later by version. */
export function createFieldCipher(key: Buffer): FieldCipher {
  if (key.length !== 32) throw new Error("encryption key must be 32 bytes");
  const fingerprintKey = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), "payout-orchestration fingerprint v1", 32));
  return {
    fingerprint(value) {
      return createHmac("sha256", fingerprintKey).update(value, "utf8").digest("hex");
    },
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return ["v1", iv, cipher.getAuthTag(), body]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    decrypt(ciphertext) {
      const [version, iv, tag, body] = ciphertext.split(".");
      if (version !== "v1" || iv === undefined || tag === undefined || body === undefined) {
        throw new Error("unrecognised ciphertext format");
      }
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}
