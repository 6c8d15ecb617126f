// A real SMTP server on loopback (smtp-server) that keeps every message it accepts, can be told to refuse
// recipients, and a minimal MIME reader for what it received (mailparser is not a dependency).
// By default it offers STARTTLS with the tests' self-signed certificate (testCertificate(), which
// buildTestApp hands the service as the relay's CA whenever SMTP_URL is set) and accepts AUTH only after
// STARTTLS, like a real submission server. `tls: "none"` is a relay without STARTTLS; `tls: "implicit"` speaks
// TLS from the first byte (smtps://).
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { type TestCertificate, testCertificate } from "../helpers/webhook-receiver.js";

export interface ReceivedMail {
  readonly raw: string;
  readonly envelopeFrom: string | null;
  readonly envelopeTo: string[];
  /** The AUTH user of the session, if the client logged in. */
  readonly user: string | null;
  /** Whether the session was encrypted (STARTTLS or implicit TLS) when the message arrived. */
  readonly secure: boolean;
}

export interface SmtpSink {
  readonly port: number;
  readonly received: ReceivedMail[];
  /** While set, every RCPT TO is refused with this reply (e.g. 451 for a transient refusal). */
  rejectRecipients: { code: number; message: string } | null;
  /** Every connection the client opened (whether or not anything was sent on it). */
  readonly connections: number;
  /** Every AUTH attempt: the user name, the password and whether the session was encrypted at that moment. */
  readonly authAttempts: { user: string; pass: string; secure: boolean }[];
  close(): Promise<void>;
}

export interface SmtpSinkOptions {
  readonly credentials?: { user: string; pass: string };
  /** "starttls" (default): STARTTLS offered; "none": no STARTTLS (AUTH in the clear); "implicit": smtps. */
  readonly tls?: "starttls" | "none" | "implicit";
  /** The server's certificate; the tests' shared one (which the test app trusts) by default. */
  readonly certificate?: TestCertificate;
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const authAttempts: { user: string; pass: string; secure: boolean }[] = [];
  let connections = 0;
  const sink = {
    port: 0,
    received,
    rejectRecipients: null as { code: number; message: string } | null,
    get connections() {
      return connections;
    },
    authAttempts,
    close: async () => {},
  };
  const mode = options.tls ?? "starttls";
  const certificate = mode === "none" ? null : (options.certificate ?? testCertificate());
  const server = new SMTPServer({
    authOptional: true,
    ...(mode === "none"
      ? { disabledCommands: ["STARTTLS"], allowInsecureAuth: true }
      : { secure: mode === "implicit", key: certificate?.key, cert: certificate?.cert, allowInsecureAuth: false }),
    logger: false,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onAuth(auth, session, callback) {
      authAttempts.push({ user: auth.username ?? "", pass: auth.password ?? "", secure: session.secure === true });
      const expected = options.credentials;
      if (expected && auth.username === expected.user && auth.password === expected.pass) {
        callback(null, { user: auth.username ?? "" });
        return;
      }
      callback(new Error("535 authentication failed"));
    },
    onRcptTo(_address, _session, callback) {
      const refusal = sink.rejectRecipients;
      if (refusal === null) {
        callback();
        return;
      }
      const error = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          raw: Buffer.concat(chunks).toString("utf8"),
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === "string" ? session.user : null,
          secure: session.secure === true,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  server.on("error", () => {});
  sink.port = (server.server.address() as AddressInfo).port;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}

export interface MimePart {
  /** Header names lower-cased; folded lines joined. */
  readonly headers: Readonly<Record<string, string>>;
  /** The decoded body (quoted-printable and base64 undone, as UTF-8). */
  readonly body: string;
  readonly parts: MimePart[];
}

function splitHeaderBlock(raw: string): { headers: Record<string, string>; body: string } {
  const normalised = raw.replace(/\r\n/g, "\n");
  const end = normalised.indexOf("\n\n");
  const head = end === -1 ? normalised : normalised.slice(0, end);
  const body = end === -1 ? "" : normalised.slice(end + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const joined = text.replace(/=\n/g, "");
  for (let index = 0; index < joined.length; index += 1) {
    const character = joined[index] as string;
    const hex = joined.slice(index + 1, index + 3);
    if (character === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(character, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeBody(body: string, transferEncoding: string | undefined): string {
  switch ((transferEncoding ?? "7bit").toLowerCase()) {
    case "quoted-printable":
      return decodeQuotedPrintable(body);
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      return body;
  }
}

/** The value of one parameter of a structured header, e.g. `boundary` of Content-Type. */
export function headerParameter(value: string | undefined, name: string): string | null {
  if (value === undefined) return null;
  const match = new RegExp(`;\\s*${name}=(?:"([^"]*)"|([^;\\s]+))`, "i").exec(value);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/** Headers plus a boundary split, recursively: enough to find the text and HTML parts of a message. */
export function parseMime(raw: string): MimePart {
  const { headers, body } = splitHeaderBlock(raw);
  const contentType = headers["content-type"] ?? "text/plain";
  const boundary = /^multipart\//i.test(contentType) ? headerParameter(contentType, "boundary") : null;
  if (boundary === null) return { headers, body: decodeBody(body, headers["content-transfer-encoding"]), parts: [] };
  const sections = body.split(`--${boundary}`);
  // sections[0] is the preamble; the last one starts with "--" (the closing delimiter) and is the epilogue.
  const parts = sections
    .slice(1)
    .filter((section) => !section.startsWith("--"))
    .map((section) => parseMime(section.replace(/^\n/, "").replace(/\n$/, "")));
  return { headers, body: "", parts };
}

/** Every leaf part of the tree, depth first. */
export function leafParts(part: MimePart): MimePart[] {
  return part.parts.length === 0 ? [part] : part.parts.flatMap(leafParts);
}

export function partOfType(message: MimePart, mediaType: string): MimePart | undefined {
  return leafParts(message).find((part) => (part.headers["content-type"] ?? "").toLowerCase().startsWith(mediaType));
}
