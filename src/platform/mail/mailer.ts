// Outbound e-mail over nodemailer. With an SMTP_URL each message goes to that relay; without one (the
// embedded default) each message is written as an .eml file under DATA_DIR/mail/, which any mail client
// opens. Only durable jobs call send() (see mail-job.ts): never a request handler, never inside a
// transaction, because an SMTP conversation can take seconds and must not hold a database lock.
//
// The relay is spoken to over TLS only: STARTTLS is required for smtp:// (a relay that does not offer it
// gets neither the credentials nor the message), smtps:// is TLS from the first byte, and the certificate is
// always verified (Node's CA store; NODE_EXTRA_CA_CERTS adds a private CA). SMTP_ALLOW_PLAINTEXT, accepted
// by config.ts for a loopback relay only, lifts the STARTTLS requirement.
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTransport } from "nodemailer";
import type { Logger } from "pino";
import { type IdGenerator, uuidV7Generator } from "../ids.js";
import { mailboxDomain, parseMailbox } from "./address.js";

export interface MailMessage {
  /** One recipient mailbox: `Name <local@domain>` or `local@domain`. */
  readonly to: string;
  readonly subject: string;
  /** Both bodies are always sent (multipart/alternative): text for plain clients, HTML for the rest. */
  readonly text: string;
  readonly html: string;
  /** Extra header fields; a `Message-ID` here replaces the generated one. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Mailer {
  /** Where messages go: an SMTP relay, or .eml files under DATA_DIR/mail. */
  readonly transport: "smtp" | "file";
  /** Domain of the From address; Message-ID values are minted under it. */
  readonly senderDomain: string;
  send(message: MailMessage): Promise<{ readonly messageId: string }>;
  close(): Promise<void>;
}

export interface MailerOptions {
  readonly smtpUrl: string | null;
  /** Allow an smtp:// relay without STARTTLS (config.ts accepts it for a loopback relay only). */
  readonly smtpAllowPlaintext?: boolean;
  /** Extra trusted CA certificate (PEM) for the relay: tests' self-signed relay. Operators use NODE_EXTRA_CA_CERTS. */
  readonly smtpTlsCa?: string;
  readonly dataDir: string;
  /** The From header, validated by config (`Payouts <no-reply@example.com>`). */
  readonly from: string;
  /** Time-sortable ids for .eml file names; UUIDv7 by default. */
  readonly ids?: IdGenerator;
  readonly logger?: Pick<Logger, "info" | "debug" | "warn">;
  /** Overall deadline of one SMTP send, below the job lease so a stuck relay cannot outlive it. */
  readonly sendTimeoutMs?: number;
}

/**
 * A failed send with what an operator needs (the SMTP step, reply code, nodemailer code) and nothing a log
 * must not hold: e-mail addresses in the server's reply are masked, and the original error (whose
 * `rejected` list names the recipients) is not attached. The worker stores `message` as the job's last_error.
 */
export class MailSendError extends Error {
  override readonly name = "MailSendError";
  readonly code: string | null;
  readonly responseCode: number | null;
  /** True when the relay refused the message for good (5xx), false for a transient refusal, null when unknown. */
  readonly permanent: boolean | null;

  constructor(message: string, details: { code: string | null; responseCode: number | null; permanent: boolean | null }) {
    super(message);
    this.code = details.code;
    this.responseCode = details.responseCode;
    this.permanent = details.permanent;
  }
}

const ADDRESS_LIKE = /[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+/g;

/** Replaces anything shaped like an e-mail address, so recipients never reach logs or last_error. */
/**
 * The plain-text part, sent as it reads. nodemailer quoted-printable-encodes any text with a line over 76
 * characters (a link holding a token always is), which cuts lines with `=` soft breaks and turns `=` into `=3D`:
 * an .eml file read as text, as the README suggests, then shows a broken example command. RFC 5322 allows
 * lines up to 998 characters, so a part whose lines fit is sent unencoded: `7bit` when it is ASCII, else
 * `8bit` (UTF-8; nodemailer sends attachments as 8bit the same way). Anything else (a NUL, a bare CR, a line
 * over 998 bytes) keeps nodemailer's own encoding.
 */
export function plainTextPart(text: string): string | { raw: string } {
  const lines = text.split("\n");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL and bare CR are exactly what must not travel unencoded
  if (/[\u0000\r]/.test(text) || lines.some((line) => Buffer.byteLength(line, "utf8") > 998)) return text;
  const ascii = /^[\t\n\x20-\x7e]*$/.test(text);
  const headers = `Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: ${ascii ? "7bit" : "8bit"}\n\n`;
  return { raw: `${headers}${text}` };
}

export function maskAddresses(text: string): string {
  return text.replace(ADDRESS_LIKE, "[address]");
}

interface NodemailerErrorShape {
  message?: unknown;
  code?: unknown;
  command?: unknown;
  response?: unknown;
  responseCode?: unknown;
  permanent?: unknown;
}

/** nodemailer's code for a failed STARTTLS, and Node's codes for a certificate that did not verify. */
const TLS_FAILURE = /^(ETLS|ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_OSSL)/;

function isTlsFailure(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === "object" && current !== null && !seen.has(current)) {
    seen.add(current);
    const { code, originalCode } = current as { code?: unknown; originalCode?: unknown };
    if (
      (typeof code === "string" && TLS_FAILURE.test(code)) ||
      (typeof originalCode === "string" && TLS_FAILURE.test(originalCode))
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function toMailSendError(error: unknown): MailSendError {
  const shape: NodemailerErrorShape = typeof error === "object" && error !== null ? (error as NodemailerErrorShape) : {};
  const code = typeof shape.code === "string" ? shape.code : null;
  if (isTlsFailure(error)) {
    // The relay's answer to STARTTLS (a 5xx when it has none) is not a refusal of the message: once the
    // operator gives the relay TLS or a trusted certificate, the retry delivers it.
    const detail = typeof shape.message === "string" ? shape.message : String(error);
    return new MailSendError(
      `mail not sent (TLS${code === null ? "" : `, ${code}`}): the relay did not offer a verified TLS connection, so neither credentials nor the message were sent: ${maskAddresses(detail)}`.slice(
        0,
        1000,
      ),
      { code, responseCode: null, permanent: false },
    );
  }
  const responseCode = typeof shape.responseCode === "number" ? shape.responseCode : null;
  const command = typeof shape.command === "string" ? shape.command : null;
  const detail =
    typeof shape.response === "string" ? shape.response : typeof shape.message === "string" ? shape.message : String(error);
  const where = [command, code].filter((part) => part !== null).join(", ");
  const message = `mail not sent${where ? ` (${where})` : ""}: ${maskAddresses(detail)}`.slice(0, 1000);
  return new MailSendError(message, {
    code,
    responseCode,
    // SMTP 5xx replies are permanent refusals (RFC 5321 4.2.1); 4xx are transient.
    permanent: typeof shape.permanent === "boolean" ? shape.permanent : responseCode === null ? null : responseCode >= 500,
  });
}

/** A file-name-safe form of a Message-ID (`<abc@host>` -> `abc_host`). */
function fileNamePart(messageId: string): string {
  return (
    messageId
      .replace(/^<|>$/g, "")
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .slice(0, 120) || "message"
  );
}

const DEFAULT_SEND_TIMEOUT_MS = 45_000;

interface Relay {
  readonly host: string;
  readonly port: number;
  /** smtps://: TLS from the first byte. */
  readonly secure: boolean;
  readonly auth: { readonly user: string; readonly pass: string } | null;
}

/** The relay named by an SMTP_URL that config.ts validated (smtp or smtps scheme, a host, no query). */
function relayOf(smtpUrl: string): Relay {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  return {
    host,
    // Submission over STARTTLS (RFC 6409) and implicit TLS (RFC 8314) ports.
    port: url.port === "" ? (secure ? 465 : 587) : Number(url.port),
    secure,
    auth: user === "" && pass === "" ? null : { user, pass },
  };
}

export function createMailer(options: MailerOptions): Mailer {
  const from = parseMailbox(options.from);
  if (from === null) throw new Error("mailer: the From value must hold one e-mail address");
  const senderDomain = mailboxDomain(from);
  const ids = options.ids ?? uuidV7Generator;
  const logger = options.logger;
  const sendTimeoutMs = options.sendTimeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;

  function mailOptionsOf(message: MailMessage) {
    if (parseMailbox(message.to) === null) {
      const details = { code: "EENVELOPE", responseCode: null, permanent: true };
      throw new MailSendError("mail not sent: the recipient is not one e-mail address", details);
    }
    return {
      from: options.from,
      to: message.to,
      subject: message.subject,
      text: plainTextPart(message.text),
      html: message.html,
      ...(message.headers ? { headers: { ...message.headers } } : {}),
    };
  }

  if (options.smtpUrl !== null) {
    const relay = relayOf(options.smtpUrl);
    if (options.smtpAllowPlaintext === true && !relay.secure) {
      logger?.warn(
        { transport: "smtp", host: relay.host },
        "SMTP_ALLOW_PLAINTEXT is set: mail to this loopback relay travels without TLS unless the relay offers STARTTLS",
      );
    }
    const transporter = createTransport({
      // Spelled out, never `url`: nodemailer would read options such as ?ignoreTLS=true out of the URL.
      host: relay.host,
      port: relay.port,
      secure: relay.secure,
      ...(relay.auth === null ? {} : { auth: relay.auth }),
      // STARTTLS before anything else is sent, or the connection is dropped (smtp:// only; smtps:// is TLS already).
      requireTLS: !relay.secure && options.smtpAllowPlaintext !== true,
      tls: {
        rejectUnauthorized: true,
        minVersion: "TLSv1.2",
        ...(options.smtpTlsCa === undefined ? {} : { ca: options.smtpTlsCa }),
      },
      // nodemailer's defaults wait minutes; a job should fail fast and retry on its own schedule.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      // nodemailer's own logger would print envelopes (recipients); ours logs message ids only.
      logger: false,
      debug: false,
    });
    return {
      transport: "smtp",
      senderDomain,
      async send(message) {
        const mail = mailOptionsOf(message);
        try {
          const info = await transporter.sendMail({ ...mail, signal: AbortSignal.timeout(sendTimeoutMs) });
          logger?.info({ message_id: info.messageId, transport: "smtp" }, "mail sent");
          return { messageId: info.messageId };
        } catch (error) {
          throw toMailSendError(error);
        }
      },
      async close() {
        transporter.close();
      },
    };
  }

  const mailDir = path.join(options.dataDir, "mail");
  const transporter = createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    transport: "file",
    senderDomain,
    async send(message) {
      const info = await transporter.sendMail(mailOptionsOf(message));
      if (!Buffer.isBuffer(info.message)) throw new Error("mailer: stream transport returned no buffer");
      // The file name sorts by time; the Message-ID part tells two sends of one message apart from two messages.
      const file = path.join(mailDir, `${ids.newId()}-${fileNamePart(info.messageId)}.eml`);
      await mkdir(mailDir, { recursive: true, mode: 0o700 });
      // Write then rename, so a reader watching the folder never opens half a message. 0600: mail holds personal data.
      const partial = `${file}.partial`;
      await writeFile(partial, info.message, { mode: 0o600 });
      await rename(partial, file);
      logger?.info({ message_id: info.messageId, transport: "file", file }, "mail written");
      return { messageId: info.messageId };
    },
    async close() {
      transporter.close();
    },
  };
}
