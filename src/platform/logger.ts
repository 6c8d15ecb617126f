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

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      base: { service: "payout-orchestration" },
    },
    destination,
  );
}
