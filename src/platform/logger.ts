// pino, with every key that could carry a credential or account data censored at any depth. Request logs
// carry the request id. Fastify's own request logging is off; app.ts writes one line per request.
import { type DestinationStream, type Logger, pino } from "pino";

/** The LOG_LEVEL values (config.ts reads the variable into one). */
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

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

const SENSITIVE = new Set(SENSITIVE_KEYS.map((key) => key.toLowerCase()));
const CENSOR = "[redacted]";

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Censors sensitive keys at any depth of a log object. Returns the same object when nothing changed, so a
 * flat log line (the common case) costs a few set lookups, far less than pino's wildcard redaction paths.
 * Errors are left to the `err` serializer.
 */
export function redactSensitive<T>(value: T, depth = 0): T {
  if (depth > 8 || !isPlainContainer(value)) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    value.forEach((item, index) => {
      const scrubbed = redactSensitive(item, depth + 1);
      if (scrubbed !== item) {
        copy ??= [...value];
        copy[index] = scrubbed;
      }
    });
    return (copy ?? value) as T;
  }
  let copy: Record<string, unknown> | null = null;
  for (const [key, field] of Object.entries(value)) {
    const scrubbed = SENSITIVE.has(key.toLowerCase()) ? CENSOR : redactSensitive(field, depth + 1);
    if (scrubbed !== field) {
      copy ??= { ...value };
      copy[key] = scrubbed;
    }
  }
  return (copy ?? value) as T;
}

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
      formatters: { log: (object) => redactSensitive(object) },
      base: { service: "payout-orchestration" },
    },
    destination,
  );
}
