// The only reader of process.env. Everything is validated once at start-up; a bad value stops the
// process with a message naming the variable, instead of surfacing later as a confusing runtime error.
import { isIP } from "node:net";
import path from "node:path";
import type { LogLevel } from "./platform/logger.js";
import { parseMailbox } from "./platform/mail/address.js";
import type { RateLimitConfig } from "./platform/rate-limit.js";

export type ProcessRole = "all" | "api" | "worker";
// The types of the settings the platform's own parts take are theirs (config.ts reads the environment into
// them), so the platform never imports this file and the configuration stands above it.
export type { LogLevel } from "./platform/logger.js";
export type { RateLimitConfig } from "./platform/rate-limit.js";

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Where the service is reachable from outside; used in printed URLs and links. */
  readonly publicBaseUrl: string;
  /** `{docs_base}` of the spec: error `docs_url` values are `${docsBaseUrl}/errors#<code>`. */
  readonly docsBaseUrl: string;
  readonly dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database under dataDir is used. */
  readonly databaseUrl: string | null;
  readonly databasePoolSize: number;
  /** 32-byte key for AES-256-GCM encryption at rest; null means "derive/persist one under dataDir" (embedded only). */
  readonly encryptionKey: Buffer | null;
  readonly logLevel: LogLevel;
  readonly bodyLimitBytes: number;
  /** Slow or stalled clients: how long a connection may take to send its request, and how long it may idle. */
  readonly http: HttpTimeouts;
  /**
   * Which proxies in front of the service are believed about the client address (X-Forwarded-For):
   * none (false), the nearest N hops, or the proxies at these addresses/CIDRs. Never "every hop".
   */
  readonly trustProxy: TrustProxy;
  readonly rateLimit: RateLimitConfig;
  /** Per client address, shared by `POST /v1/registration` and `POST /v1/registration/verification`. */
  readonly registrationRateLimit: RateLimitConfig;
  readonly registration: {
    /** How long a registration's e-mailed verification token stays usable (REGISTRATION_TOKEN_TTL_HOURS). */
    readonly tokenTtlHours: number;
    /** Registration e-mails one address may receive in 24 hours; more registrations are answered alike and send nothing. */
    readonly emailsPerAddressPerDay: number;
  };
  readonly jobs: {
    readonly pollIntervalMs: number;
    readonly leaseSeconds: number;
    readonly concurrency: number;
    readonly maxAttempts: number;
  };
  readonly shutdownTimeoutMs: number;
  /**
   * Identity fields a Beneficiary needs for `identity_complete`, per type, as configured
   * (IDENTITY_REQUIRED_PERSON, IDENTITY_REQUIRED_BUSINESS): plain names, null when not set. The beneficiaries
   * module interprets them (`identityRequirementsOf`: which names exist, the defaults), since they are its rule.
   */
  readonly identityRequired: { readonly person: readonly string[] | null; readonly business: readonly string[] | null };
  readonly mail: {
    /** smtp:// or smtps:// URL of the outgoing relay; null writes each message as an .eml file under dataDir/mail. */
    readonly smtpUrl: string | null;
    /**
     * SMTP_ALLOW_PLAINTEXT: an smtp:// relay may be used without STARTTLS. Accepted only for a loopback relay
     * (localhost, 127.0.0.0/8, ::1), where the conversation never crosses a network.
     */
    readonly smtpAllowPlaintext: boolean;
    /** The From header of every message, e.g. `Payouts <no-reply@example.com>`. */
    readonly from: string;
    /** E-mails sent for one Business (both environments) in any 24 hours (MAIL_DAILY_LIMIT_PER_BUSINESS). */
    readonly dailyLimitPerBusiness: number;
  };
  /** Requests per client address per window on the hosted collection pages (against token guessing). */
  readonly collectionPageRateLimit: RateLimitConfig;
  readonly webhooks: {
    /**
     * Allow webhook URLs on loopback, private, link-local and other non-public addresses. Off by default
     * (SSRF protection); tests and local development turn it on. HTTPS is required either way.
     */
    readonly allowPrivateTargets: boolean;
  };
  /** The rail production payouts use: only the production simulator until a real rail is configured. */
  readonly productionRail: ProductionRail;
  /** Payee name checks (issue 29). */
  readonly nameCheck: {
    /** NAME_CHECK_VERIFIER: who answers production's checks: `local` (the comparator, default) or `simulator` (magic values). Sandbox always uses the simulator. */
    readonly verifier: "local" | "simulator";
  };
  /** Bank rails (SEPA, ACH by bank file). */
  readonly bankRails: {
    /**
     * BANK_RAIL_LOCAL_ROOT: an absolute directory under which Businesses may have bank files delivered to local
     * folders (for a bank connector running beside the service). Null (the default) allows SFTP only.
     */
    readonly localRoot: string | null;
    /**
     * BANK_RAIL_ALLOW_PRIVATE_HOSTS: allow SFTP servers on loopback, private, link-local and other non-public
     * addresses (a bank reached over a private link, tests, local development). Off by default: the same
     * address rules as webhook URLs. Separate from WEBHOOK_ALLOW_PRIVATE_TARGETS, so a private bank link does
     * not open webhooks to the internal network.
     */
    readonly allowPrivateHosts: boolean;
    /** BANK_RAIL_POLL_INTERVAL_SECONDS: how often each rail's inbound directory is read (default 900). */
    readonly pollIntervalSeconds: number;
    /**
     * BANK_RAIL_INBOUND_MAX_FILE_BYTES: the largest inbound bank file read (default 10 MiB, 1 KiB to 64 MiB); a
     * larger one is refused without being read whole.
     */
    readonly inboundMaxFileBytes: number;
  };
  /** Operator token of the simulator control endpoint; null leaves the endpoint off (it answers 404). */
  readonly simulatorControlToken: string | null;
  /**
   * OPERATOR_TOKEN: the installation operator's bearer token for `/operator/...` routes other than the
   * simulator's (loading sanctions lists); null leaves those routes off (they answer 404).
   */
  readonly operatorToken: string | null;
  /** Sanctions screening (issue 29). */
  readonly screening: {
    /**
     * SANCTIONS_LISTS: files loaded at every start of an `all` or `worker` process (comma-separated paths, each
     * `format:path` or a path whose name or content says its format: sdn.csv, alt.csv, add.csv, the EU CSV or XML).
     */
    readonly lists: readonly { readonly format: string | null; readonly path: string }[];
    /** SCREENING_THRESHOLD: the lowest name similarity (0.5 to 1, default 0.9) that is a hit. */
    readonly threshold: number;
  };
  /**
   * Where Prometheus reads /metrics. On its own listener when `port` is set (METRICS_PORT, bound to `host`);
   * otherwise on the API port only with a `token` (METRICS_TOKEN); with neither, /metrics is not served.
   * A set token is required on either listener.
   */
  readonly metrics: {
    readonly token: string | null;
    readonly port: number | null;
    readonly host: string;
  };
  /** Dashboard sessions and sign-in. */
  readonly sessions: {
    /** SESSION_IDLE_MINUTES: a session without a request for this long ends. */
    readonly idleMinutes: number;
    /** SESSION_ABSOLUTE_HOURS: a session ends this long after sign-in, whatever its activity. */
    readonly absoluteHours: number;
    /** STEP_UP_WINDOW_MINUTES: how recent a password or two-factor confirmation sensitive acts need. */
    readonly stepUpWindowMinutes: number;
    /** Failed sign-ins allowed per e-mail address and per client address within the window. */
    readonly failuresPerAccount: number;
    readonly failuresPerAddress: number;
    readonly throttleWindowMinutes: number;
  };
  /**
   * How long rows nobody can use any more are kept before the retention sweep deletes them (src/worker/retention.ts).
   * At least a day each: the per-recipient registration limit and the password-reset limit count the last
   * 24 hours and hour of rows, which a shorter period could delete.
   */
  readonly retention: {
    /** EXPIRED_TOKEN_RETENTION_DAYS: pending registrations, team invitations and password resets, after their token expired. */
    readonly expiredTokenDays: number;
    /** SANDBOX_EMAIL_RETENTION_DAYS: captured sandbox e-mail, after it was captured. */
    readonly sandboxEmailDays: number;
    /** ENDED_SESSION_RETENTION_DAYS: sessions, after they ended (a person's latest sign-in is always kept). */
    readonly endedSessionDays: number;
  };
  /** Payouts. */
  readonly payouts: {
    /** Hours after `disbursed` before a production payout settles, absent a rail return (PAYOUT_RETURN_WINDOW_HOURS). */
    readonly returnWindowHours: number;
  };
  readonly reconciliation: {
    /** RECONCILIATION_TOLERANCE_MINOR: the difference (a bank fee) a match may carry, posted to fees; 0 by default. */
    readonly toleranceMinor: number;
    /** RECONCILIATION_WINDOW_BUSINESS_DAYS: how far a booking may be from a payout's sending for `amount_date`. */
    readonly windowBusinessDays: number;
  };
}

export type ProductionRail = "simulator";

export interface HttpTimeouts {
  /** REQUEST_TIMEOUT_MS: the whole request (headers and body) must arrive within this; else 408 and close. */
  readonly requestTimeoutMs: number;
  /** HEADERS_TIMEOUT_MS: the request line and headers must arrive within this; at most requestTimeoutMs. */
  readonly headersTimeoutMs: number;
  /** KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after this, between requests. */
  readonly keepAliveTimeoutMs: number;
  /**
   * CONNECTION_TIMEOUT_MS: a socket with no traffic in either direction for this long is destroyed, even
   * mid-response (a client that stops reading). Must exceed the slowest request; 0 turns it off.
   */
  readonly connectionTimeoutMs: number;
}

function readHttpTimeouts(env: Env): HttpTimeouts {
  const requestTimeoutMs = readInt(env, "REQUEST_TIMEOUT_MS", 30_000, 100, 3_600_000);
  const headersTimeoutMs = readInt(env, "HEADERS_TIMEOUT_MS", Math.min(10_000, requestTimeoutMs), 100, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs}): the headers are part of the request`,
    );
  }
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: readInt(env, "KEEP_ALIVE_TIMEOUT_MS", 72_000, 100, 3_600_000),
    connectionTimeoutMs: readInt(env, "CONNECTION_TIMEOUT_MS", 300_000, 0, 3_600_000),
  };
}

/** false, a hop count (>= 1), or proxy addresses/CIDRs (and proxy-addr's names loopback, linklocal, uniquelocal). */
export type TrustProxy = false | number | readonly string[];

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

type Env = Readonly<Record<string, string | undefined>>;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "yes", "on"].includes(raw.toLowerCase())) return true;
  if (["0", "false", "no", "off"].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function readUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  try {
    const url = new URL(raw);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("scheme");
    return url.toString().replace(/\/$/, "");
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
}

function readEncryptionKey(env: Env): Buffer | null {
  const raw = env.ENCRYPTION_KEY;
  if (raw === undefined || raw === "") return null;
  const key = Buffer.from(raw, "base64");
  if (key.length !== 32) throw new ConfigError("ENCRYPTION_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)");
  return key;
}

const PROXY_RANGE_NAMES = ["loopback", "linklocal", "uniquelocal"];

function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, extra] = entry.split("/");
  if (address === undefined || extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Trusting every hop would let a client pick its own address by sending X-Forwarded-For (the left-most entry
 * is whatever it wrote), so per-address limits would key on a value the client chooses. Only the proxies
 * the operator names are believed: how many sit in front of the service, or where they are.
 */
function readTrustProxy(env: Env): TrustProxy {
  const raw = (env.TRUST_PROXY ?? "").trim();
  if (raw === "" || ["false", "no", "off", "0"].includes(raw.toLowerCase())) return false;
  const fix =
    "set the number of proxies in front of the service (TRUST_PROXY=1 for one load balancer) or their addresses (TRUST_PROXY=10.0.0.5,10.0.1.0/24)";
  if (["true", "yes", "on"].includes(raw.toLowerCase())) {
    throw new ConfigError(
      `TRUST_PROXY=${raw} would trust every hop, so any client could choose its own address with X-Forwarded-For; ${fix}`,
    );
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 32) throw new ConfigError(`TRUST_PROXY must be a hop count between 1 and 32, got ${hops}`);
    return hops;
  }
  const entries = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const entry of entries) {
    if (!PROXY_RANGE_NAMES.includes(entry) && !isAddressOrCidr(entry)) {
      throw new ConfigError(
        `TRUST_PROXY: "${entry}" is not an IP address, a CIDR range or one of ${PROXY_RANGE_NAMES.join(", ")}; ${fix}`,
      );
    }
  }
  return entries;
}

/** The value may carry the relay's password, so no message quotes it. */
function readSmtpUrl(env: Env): string | null {
  const raw = env.SMTP_URL;
  if (raw === undefined || raw === "") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("SMTP_URL must be a URL such as smtp://user:pass@host:587 or smtps://user:pass@host:465");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new ConfigError(`SMTP_URL must use the smtp or smtps scheme, got "${url.protocol.replace(/:$/, "")}"`);
  }
  if (url.hostname === "") throw new ConfigError("SMTP_URL must name a host, e.g. smtp://user:pass@host:587");
  if (url.search !== "" || url.hash !== "") {
    // nodemailer would read transport options (ignoreTLS, tls.rejectUnauthorized…) from a query string.
    throw new ConfigError(
      "SMTP_URL must not carry options after the host (?… or #…): TLS is always required and verified; see SMTP_ALLOW_PLAINTEXT for a loopback relay",
    );
  }
  return raw;
}

/** `hostname` as URL gives it: an IPv6 literal is bracketed and canonical ([::1]); IPv4 is left as written. */
function isLoopbackHost(hostname: string): boolean {
  if (hostname === "[::1]" || hostname.toLowerCase() === "localhost") return true;
  return isIP(hostname) === 4 && hostname.startsWith("127.");
}

/**
 * Plain-text SMTP carries the relay's password and every message (collection links with their tokens) in
 * the clear, so the opt-out exists only for a relay on this machine (a local Postfix, a sidecar sharing
 * the network namespace, a development catcher), never across a network.
 */
function readSmtpAllowPlaintext(env: Env, smtpUrl: string | null): boolean {
  const allow = readBool(env, "SMTP_ALLOW_PLAINTEXT", false);
  if (!allow) return false;
  if (smtpUrl === null)
    throw new ConfigError("SMTP_ALLOW_PLAINTEXT is set but SMTP_URL is not: there is no relay to allow it for");
  const url = new URL(smtpUrl);
  if (!isLoopbackHost(url.hostname)) {
    throw new ConfigError(
      `SMTP_ALLOW_PLAINTEXT is allowed only for a relay on loopback (localhost, 127.0.0.1, ::1), not ${url.hostname}: give the relay TLS (STARTTLS or smtps://), with NODE_EXTRA_CA_CERTS if its certificate comes from a private CA`,
    );
  }
  return true;
}

function mailConfig(env: Env): Config["mail"] {
  const smtpUrl = readSmtpUrl(env);
  return {
    smtpUrl,
    smtpAllowPlaintext: readSmtpAllowPlaintext(env, smtpUrl),
    from: readMailFrom(env),
    dailyLimitPerBusiness: readInt(env, "MAIL_DAILY_LIMIT_PER_BUSINESS", 1000, 1, 10_000_000),
  };
}

function readMailFrom(env: Env): string {
  const raw = env.MAIL_FROM || "Payouts <no-reply@localhost>";
  if (parseMailbox(raw) === null) {
    throw new ConfigError(`MAIL_FROM must hold one e-mail address, e.g. "Payouts <no-reply@example.com>", got "${raw}"`);
  }
  return raw;
}

/** A comma-separated list of names, or null when the variable is not set (the reader applies its default). */
function readNameList(env: Env, name: string): readonly string[] | null {
  const raw = env[name];
  if (raw === undefined) return null;
  return raw
    .split(",")
    .map((field) => field.trim())
    .filter((field) => field !== "");
}

function readChoice<const C extends readonly string[]>(env: Env, name: string, choices: C, fallback: C[number]): C[number] {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const found = choices.find((choice) => choice === raw);
  if (found === undefined)
    throw new ConfigError(`${name} must be one of ${choices.map((c) => `"${c}"`).join(", ")}, got "${raw}"`);
  return found;
}

function readProductionRail(env: Env): ProductionRail {
  const raw = env.PRODUCTION_RAIL || "simulator";
  if (raw !== "simulator") {
    throw new ConfigError(`PRODUCTION_RAIL must be "simulator" (the only production rail so far), got "${raw}"`);
  }
  return raw;
}

function readBankRailLocalRoot(env: Env): string | null {
  const raw = env.BANK_RAIL_LOCAL_ROOT;
  if (raw === undefined || raw === "") return null;
  if (!path.isAbsolute(raw)) throw new ConfigError(`BANK_RAIL_LOCAL_ROOT must be an absolute directory path, got "${raw}"`);
  return path.resolve(raw);
}

/** The value is a secret, so no message quotes it. */
function readSimulatorControlToken(env: Env): string | null {
  const raw = env.SIMULATOR_CONTROL_TOKEN;
  if (raw === undefined || raw === "") return null;
  if (raw.length < 32 || /\s/.test(raw)) {
    throw new ConfigError("SIMULATOR_CONTROL_TOKEN must be at least 32 characters without spaces (openssl rand -hex 32)");
  }
  return raw;
}

/** The value is a secret, so no message quotes it. */
function readOperatorToken(env: Env): string | null {
  const raw = env.OPERATOR_TOKEN;
  if (raw === undefined || raw === "") return null;
  if (raw.length < 32 || /\s/.test(raw)) {
    throw new ConfigError("OPERATOR_TOKEN must be at least 32 characters without spaces (openssl rand -hex 32)");
  }
  return raw;
}

const SANCTIONS_FORMATS = ["ofac_sdn", "ofac_alt", "ofac_add", "eu_csv", "eu_xml"];

function readSanctionsLists(env: Env): { format: string | null; path: string }[] {
  const raw = env.SANCTIONS_LISTS;
  if (raw === undefined || raw.trim() === "") return [];
  return raw
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "")
    .map((item) => {
      const colon = item.indexOf(":");
      const prefix = colon > 0 ? item.slice(0, colon) : "";
      const named = SANCTIONS_FORMATS.includes(prefix);
      const file = named ? item.slice(colon + 1) : item;
      if (!path.isAbsolute(file)) throw new ConfigError(`SANCTIONS_LISTS: "${file}" must be an absolute path`);
      return { format: named ? prefix : null, path: path.resolve(file) };
    });
}

function readThreshold(env: Env): number {
  const raw = env.SCREENING_THRESHOLD;
  if (raw === undefined || raw === "") return 0.9;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0.5 || value > 1)
    throw new ConfigError(`SCREENING_THRESHOLD must be a number from 0.5 to 1, got "${raw}"`);
  return value;
}

/** The value is a secret, so no message quotes it. */
function readMetricsToken(env: Env): string | null {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === "") return null;
  if (raw.length < 32 || /\s/.test(raw)) {
    throw new ConfigError("METRICS_TOKEN must be at least 32 characters without spaces (openssl rand -hex 32)");
  }
  return raw;
}

function readMetricsPort(env: Env, apiPort: number): number | null {
  if (env.METRICS_PORT === undefined || env.METRICS_PORT === "") return null;
  const port = readInt(env, "METRICS_PORT", 0, 0, 65535);
  if (port !== 0 && port === apiPort) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (${apiPort}): metrics get their own listener`);
  }
  return port;
}

const LOG_LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export function loadConfig(env: Env = process.env): Config {
  const port = readInt(env, "PORT", 3000, 0, 65535);
  const host = env.HOST || "127.0.0.1";
  const publicBaseUrl = readUrl(env, "PUBLIC_BASE_URL", `http://localhost:${port}`);
  const databaseUrl = env.DATABASE_URL || null;
  const encryptionKey = readEncryptionKey(env);
  if (databaseUrl !== null && encryptionKey === null) {
    // Several processes share one PostgreSQL: they must agree on the key, so it cannot be generated locally.
    throw new ConfigError("ENCRYPTION_KEY is required when DATABASE_URL is set (openssl rand -base64 32)");
  }
  const logLevel = (env.LOG_LEVEL || "info") as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
  return {
    port,
    host,
    publicBaseUrl,
    docsBaseUrl: readUrl(env, "DOCS_BASE_URL", `${publicBaseUrl}/docs`),
    dataDir: path.resolve(env.DATA_DIR || "./data"),
    databaseUrl,
    databasePoolSize: readInt(env, "DATABASE_POOL_SIZE", 10, 1, 500),
    encryptionKey,
    logLevel,
    bodyLimitBytes: readInt(env, "BODY_LIMIT_BYTES", 2 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    http: readHttpTimeouts(env),
    trustProxy: readTrustProxy(env),
    rateLimit: {
      points: readInt(env, "RATE_LIMIT_REQUESTS", 6000, 1, 10_000_000),
      windowSeconds: readInt(env, "RATE_LIMIT_WINDOW_SECONDS", 60, 1, 86_400),
    },
    registrationRateLimit: {
      points: readInt(env, "REGISTRATION_RATE_LIMIT_REQUESTS", 10, 1, 1_000_000),
      windowSeconds: readInt(env, "REGISTRATION_RATE_LIMIT_WINDOW_SECONDS", 3600, 1, 86_400),
    },
    registration: {
      tokenTtlHours: readInt(env, "REGISTRATION_TOKEN_TTL_HOURS", 24, 1, 168),
      emailsPerAddressPerDay: readInt(env, "REGISTRATION_EMAILS_PER_ADDRESS_PER_DAY", 3, 1, 100),
    },
    jobs: {
      pollIntervalMs: readInt(env, "JOB_POLL_INTERVAL_MS", 250, 10, 60_000),
      leaseSeconds: readInt(env, "JOB_LEASE_SECONDS", 60, 1, 3600),
      concurrency: readInt(env, "WORKER_CONCURRENCY", 4, 1, 256),
      maxAttempts: readInt(env, "JOB_MAX_ATTEMPTS", 10, 1, 1000),
    },
    shutdownTimeoutMs: readInt(env, "SHUTDOWN_TIMEOUT_MS", 15_000, 0, 600_000),
    identityRequired: {
      person: readNameList(env, "IDENTITY_REQUIRED_PERSON"),
      business: readNameList(env, "IDENTITY_REQUIRED_BUSINESS"),
    },
    mail: mailConfig(env),
    collectionPageRateLimit: {
      points: readInt(env, "COLLECTION_RATE_LIMIT_REQUESTS", 60, 1, 1_000_000),
      windowSeconds: readInt(env, "COLLECTION_RATE_LIMIT_WINDOW_SECONDS", 600, 1, 86_400),
    },
    webhooks: { allowPrivateTargets: readBool(env, "WEBHOOK_ALLOW_PRIVATE_TARGETS", false) },
    productionRail: readProductionRail(env),
    nameCheck: {
      verifier: readChoice(env, "NAME_CHECK_VERIFIER", ["local", "simulator"] as const, "local"),
    },
    simulatorControlToken: readSimulatorControlToken(env),
    operatorToken: readOperatorToken(env),
    screening: { lists: readSanctionsLists(env), threshold: readThreshold(env) },
    bankRails: {
      localRoot: readBankRailLocalRoot(env),
      allowPrivateHosts: readBool(env, "BANK_RAIL_ALLOW_PRIVATE_HOSTS", false),
      pollIntervalSeconds: readInt(env, "BANK_RAIL_POLL_INTERVAL_SECONDS", 900, 10, 86_400),
      // Parsing costs about 12 times the file in heap (docs/decisions.md): 64 MiB is about 750 MB of it.
      inboundMaxFileBytes: readInt(env, "BANK_RAIL_INBOUND_MAX_FILE_BYTES", 10 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    },
    metrics: {
      token: readMetricsToken(env),
      port: readMetricsPort(env, port),
      host: env.METRICS_HOST || "127.0.0.1",
    },
    retention: {
      expiredTokenDays: readInt(env, "EXPIRED_TOKEN_RETENTION_DAYS", 7, 1, 3650),
      sandboxEmailDays: readInt(env, "SANDBOX_EMAIL_RETENTION_DAYS", 30, 1, 3650),
      endedSessionDays: readInt(env, "ENDED_SESSION_RETENTION_DAYS", 30, 1, 3650),
    },
    payouts: { returnWindowHours: readInt(env, "PAYOUT_RETURN_WINDOW_HOURS", 72, 0, 24 * 365) },
    reconciliation: {
      toleranceMinor: readInt(env, "RECONCILIATION_TOLERANCE_MINOR", 0, 0, 1_000_000),
      windowBusinessDays: readInt(env, "RECONCILIATION_WINDOW_BUSINESS_DAYS", 2, 0, 30),
    },
    sessions: {
      idleMinutes: readInt(env, "SESSION_IDLE_MINUTES", 30, 1, 24 * 60),
      absoluteHours: readInt(env, "SESSION_ABSOLUTE_HOURS", 12, 1, 24 * 30),
      stepUpWindowMinutes: readInt(env, "STEP_UP_WINDOW_MINUTES", 5, 1, 60),
      failuresPerAccount: readInt(env, "SIGN_IN_FAILURES_PER_ACCOUNT", 5, 1, 1000),
      failuresPerAddress: readInt(env, "SIGN_IN_FAILURES_PER_ADDRESS", 50, 1, 100_000),
      throttleWindowMinutes: readInt(env, "SIGN_IN_THROTTLE_WINDOW_MINUTES", 15, 1, 24 * 60),
    },
  };
}

export function parseProcessRole(arg: string | undefined): ProcessRole {
  if (arg === undefined || arg === "all") return "all";
  if (arg === "api" || arg === "worker") return arg;
  throw new ConfigError(`unknown process role "${arg}": use all, api or worker`);
}
