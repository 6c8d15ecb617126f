// Shared data and helpers of the destination API tests: one valid account per corridor, the spec's listed
// fields, a recording API client, and reads of the events outbox.
import { and, asc, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, expect } from "vitest";
import { events } from "../../src/platform/events/events.schema.js";
import { bearer, type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import type { ExpectedActor } from "../http/error-envelope.js";
import { parseMime, partOfType, type SmtpSink, startSmtpSink } from "../mail/smtp-sink.js";

type Json = Record<string, unknown>;

/** Valid bank details per corridor (published example numbers), with the masked value the API shows. */
export const CORRIDORS = {
  de_iban: {
    body: { account_holder_name: "Jana Schmidt", country: "DE", currency: "EUR", iban: "DE89 3704 0044 0532 0130 00" },
    full: "DE89370400440532013000",
    last4: "3000",
    scheme: "iban",
  },
  gb_sort_code: {
    body: {
      account_holder_name: "Jane Doe",
      country: "GB",
      currency: "GBP",
      routing_code: "60-16-13",
      account_number: "31926819",
    },
    full: "31926819",
    last4: "6819",
    scheme: "gb_sort_code",
  },
  us_aba: {
    body: {
      account_holder_name: "John Roe",
      country: "US",
      currency: "USD",
      routing_code: "021000021",
      account_number: "4417120983",
      account_type: "savings",
    },
    full: "4417120983",
    last4: "0983",
    scheme: "us_aba",
  },
  mx_clabe: {
    body: { account_holder_name: "María López", country: "MX", currency: "MXN", clabe: "002010077777777771" },
    full: "002010077777777771",
    last4: "7771",
    scheme: "mx_clabe",
  },
  br_pix_cpf: {
    body: { account_holder_name: "João Silva", country: "BR", currency: "BRL", pix_key: "529.982.247-25" },
    full: "52998224725",
    last4: "***.**2.247-**",
    scheme: "br_pix",
  },
  br_pix_email: {
    body: { account_holder_name: "João Silva", country: "BR", currency: "BRL", pix_key: "Joao.Silva@Example.com.br" },
    full: "joao.silva@example.com.br",
    last4: "j***@example.com.br",
    scheme: "br_pix",
  },
  jp_swift: {
    body: {
      account_holder_name: "Taro Yamada",
      country: "JP",
      currency: "JPY",
      account_number: "7654321",
      swift_bic: "BOTKJPJT",
    },
    full: "7654321",
    // 7 characters: at most half (3) may be shown.
    last4: "321",
    scheme: "swift",
  },
} as const;

export type CorridorName = keyof typeof CORRIDORS;

/** A card valid until 2030 (the test clock starts on 2026-05-27). */
export const VISA_CARD = {
  card_number: "4242 4242 4242 4242",
  expiry_month: 12,
  expiry_year: 2030,
  cardholder_name: "Jane Doe",
  country: "DE",
  currency: "EUR",
} as const;

export const MASTERCARD_CARD = {
  card_number: "5555-5555-5555-4444",
  expiry_month: 6,
  expiry_year: 2026,
  cardholder_name: "Jane Doe",
  country: "GB",
  currency: "GBP",
} as const;

/** Every field the spec lists for a destination entry. */
export const SPEC_DESTINATION_FIELDS = [
  "id",
  "account_holder_name",
  "currency",
  "country",
  "status",
  "validation_status",
  "payout_usable",
  "last4",
  "account_type",
  "rail_rejection_reason",
] as const;

export function expectSpecDestinationFields(destination: Json): void {
  for (const field of SPEC_DESTINATION_FIELDS) expect(destination, field).toHaveProperty(field);
  expect(typeof destination.id).toBe("string");
  expect(typeof destination.payout_usable).toBe("boolean");
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/** Calls the API with one key, keeping every response so a test can search them all afterwards. */
export function apiClient(t: TestApp, defaultKey: string) {
  const responses: LightMyRequestResponse[] = [];
  async function call(method: Method, url: string, payload?: unknown, key = defaultKey): Promise<LightMyRequestResponse> {
    const response = await t.app.inject({
      method,
      url,
      headers: bearer(key),
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
    responses.push(response);
    return response;
  }
  return { call, responses };
}

export type ApiCall = ReturnType<typeof apiClient>["call"];

/** The `beneficiary.bank_account.registered` events of one Beneficiary, oldest first. */
export async function registeredEvents(t: TestApp, beneficiaryId: string) {
  return t.runtime.deps.database.db
    .select()
    .from(events)
    .where(and(eq(events.type, "beneficiary.bank_account.registered"), eq(events.subjectId, beneficiaryId)))
    .orderBy(asc(events.sequence));
}

export const TEST_MAIL_FROM = "Payouts <payouts@mail.example.test>";

/** One message sent to someone: delivered over SMTP, or captured in the sandbox mailbox (read through the API). */
export interface IssuedMail {
  readonly disposition: "delivered" | "captured";
  /** The whole message: the MIME source when delivered; subject, text and HTML when captured. */
  readonly raw: string;
  readonly envelopeTo: string[];
  readonly to: string | undefined;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface MailTestBed {
  readonly sink: SmtpSink;
  readonly t: TestApp;
  readonly biz: RegisteredBusiness;
  readonly call: ApiCall;
  readonly actor: ExpectedActor;
  /**
   * Every message issued since the last `forgetMail()`, after running the worker: what the SMTP server
   * received and what the sandbox mailbox captured (sandbox mail to anyone but the Business's verified people).
   */
  issuedMail(): Promise<IssuedMail[]>;
  forgetMail(): Promise<void>;
}

/** Every captured message of the key's Business and environment, newest first. */
export async function capturedMail(t: TestApp, key: string): Promise<Array<Record<string, string>>> {
  const all: Array<Record<string, string>> = [];
  let cursor: string | null = null;
  do {
    const response = await t.app.inject({
      method: "GET",
      url: `/v1/sandbox/emails?limit=200${cursor === null ? "" : `&cursor=${cursor}`}`,
      headers: bearer(key),
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as { emails: Array<Record<string, string>>; next_cursor: string | null };
    all.push(...page.emails);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return all;
}

/**
 * A test file's app wired to a real SMTP sink on loopback, with one registered Business: registers the
 * beforeAll/afterAll hooks and resolves to the handles once they ran.
 */
export function useMailTestBed(businessName: string): () => MailTestBed {
  let bed: MailTestBed | undefined;
  let sink: SmtpSink | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await buildTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${sink.port}`, MAIL_FROM: TEST_MAIL_FROM } });
    const app = t;
    const smtp = sink;
    const biz = await registerBusiness(t.app, businessName);
    const seenCaptured = new Set<string>();
    const drain = () => app.runtime.createWorker("mail-test-bed").drain();
    bed = {
      sink,
      t,
      biz,
      call: apiClient(t, biz.keys.sandbox).call,
      actor: { user_id: biz.userId, membership_id: biz.membershipId, role: "business_admin", environment: "sandbox" },
      async issuedMail() {
        await drain();
        const delivered: IssuedMail[] = smtp.received.map((mail) => {
          const mime = parseMime(mail.raw);
          return {
            disposition: "delivered",
            raw: mail.raw,
            envelopeTo: mail.envelopeTo,
            to: mime.headers.to,
            subject: mime.headers.subject ?? "",
            text: partOfType(mime, "text/plain")?.body ?? "",
            html: partOfType(mime, "text/html")?.body ?? "",
          };
        });
        const captured: IssuedMail[] = (await capturedMail(app, biz.keys.sandbox))
          .filter((mail) => !seenCaptured.has(mail.id ?? ""))
          .reverse()
          .map((mail) => ({
            disposition: "captured",
            raw: [mail.subject, mail.text, mail.html].join("\n"),
            envelopeTo: [mail.to ?? ""],
            to: mail.to,
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: mail.html ?? "",
          }));
        return [...delivered, ...captured];
      },
      async forgetMail() {
        await drain();
        smtp.received.length = 0;
        for (const mail of await capturedMail(app, biz.keys.sandbox)) seenCaptured.add(mail.id ?? "");
      },
    };
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });
  return () => {
    if (bed === undefined) throw new Error("the mail test bed is used before its beforeAll ran");
    return bed;
  };
}
