// Secrets of the people module: session secrets, invitation and reset tokens (32 random bytes, base64url,
// stored only as SHA-256), the per-session CSRF token (derived from the session secret, never stored) and
// recovery codes.
import { createHash, randomBytes } from "node:crypto";
import { digestsEqual, hashSecret } from "../../platform/crypto.js";

/** 32 random bytes, base64url: 43 characters, 256 bits. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashToken(token: string): string {
  return hashSecret(token);
}

/** Derived from the secret, so only the cookie's holder can know it, and nothing more is stored. */
export function csrfTokenOf(sessionSecret: string): string {
  return createHash("sha256").update(`csrf:${sessionSecret}`, "utf8").digest("hex");
}

export function csrfTokensEqual(expected: string, presented: string): boolean {
  return /^[0-9a-f]{64}$/.test(presented) && digestsEqual(expected, presented);
}

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** `xxxxx-xxxxx` from an unambiguous alphabet (no 0/o, 1/l/i): about 49 bits each. */
export function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let code = "";
  for (const byte of bytes) code += RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

export function normalizeRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace(/\s+/g, "");
}
