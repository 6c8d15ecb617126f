// pino, with every path that could carry a credential or account data redacted. Request logs carry the
// request id (Fastify's reqId). Fastify's default request serializer logs no headers or bodies.
import { type DestinationStream, type Logger, pino } from "pino";
import type { LogLevel } from "../config.js";

const SENSITIVE_KEYS = [
  "authorization",
  "cookie",
  "password",
  "password_hash",
  "passwordHash",
  "secret",
  "secret_hash",
  "secretHash",
  "key",
  "api_key",
  "apiKey",
  "token",
  "account_number",
  "accountNumber",
  "iban",
  "card_number",
  "cardNumber",
  "pan",
  "tax_id",
  "signing_secret",
];

export const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  ...SENSITIVE_KEYS,
  ...SENSITIVE_KEYS.map((key) => `*.${key}`),
  ...SENSITIVE_KEYS.map((key) => `*.*.${key}`),
];

/**
 * Database errors carry the values of the failed statement (Drizzle's `params` and "params: …" in its
 * message, PostgreSQL's `detail` such as "Key (email)=(…) already exists"). Those can be personal or
 * account data, so they are dropped from logged errors, however deeply the error is wrapped.
 */
function scrubError(value: unknown, depth = 0): unknown {
  if (depth > 5 || value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (key === "params" || key === "detail" || key === "where") continue;
    if ((key === "message" || key === "stack") && typeof field === "string") {
      out[key] = field.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, "\nparams: [redacted]");
    } else {
      out[key] = scrubError(field, depth + 1);
    }
  }
  return out;
}

export function serializeError(error: unknown): unknown {
  return scrubError(pino.stdSerializers.errWithCause(error as Error));
}

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      serializers: { err: serializeError },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      base: { service: "payout-orchestration" },
    },
    destination,
  );
}
