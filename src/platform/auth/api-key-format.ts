// API key shape: `pok_<environment>_<id>_<secret>`, four underscore-separated segments.
//   pok          fixed prefix ("payout orchestration key"), easy to spot in a leaked-secret scan
//   environment  sandbox | production, readable before any database lookup
//   id           the key's UUID without hyphens (32 hex): the lookup key, safe to log
//   secret       32 random bytes as 64 lowercase hex characters (url-safe, no underscore)
// Only SHA-256(secret) is stored.
import { randomHex } from "../crypto.js";

export type Environment = "sandbox" | "production";
export const ENVIRONMENTS = ["sandbox", "production"] as const satisfies readonly Environment[];

export const API_KEY_PREFIX = "pok";
const SECRET_BYTES = 32;
const KEY_PATTERN = /^pok_(sandbox|production)_([0-9a-f]{32})_([0-9a-f]{64})$/;

export interface ParsedApiKey {
  readonly environment: Environment;
  readonly id: string;
  readonly secret: string;
}

export function parseApiKey(raw: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(raw);
  if (match === null) return null;
  const [, environment, compactId, secret] = match;
  if (environment === undefined || compactId === undefined || secret === undefined) return null;
  return { environment: environment as Environment, id: expandUuid(compactId), secret };
}

export function formatApiKey(environment: Environment, id: string, secret: string): string {
  return `${API_KEY_PREFIX}_${environment}_${id.replaceAll("-", "")}_${secret}`;
}

export function generateApiKeySecret(): string {
  return randomHex(SECRET_BYTES);
}

function expandUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
