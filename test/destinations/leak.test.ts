// Full account numbers, IBANs, CLABEs, Pix keys, card numbers and tax ids go in once and never come out:
// not in any response of the test, any log line, any event, job or e-mail, and in the database only inside
// the encrypted columns.

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emails } from "../../src/modules/emails/emails.schema.js";
import { queryRows } from "../../src/platform/db/client.js";
import { events } from "../../src/platform/events/events.schema.js";
import { jobs } from "../../src/platform/jobs/jobs.schema.js";
import { registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { type SmtpSink, startSmtpSink } from "../mail/smtp-sink.js";
import { type ApiCall, apiClient } from "./destination-fixtures.js";

type Json = Record<string, unknown>;

/** What is sent, and every spelling of it that must never appear (searched case-insensitively). */
const SECRETS = {
  iban: {
    sent: "DE75 5121 0800 1245 1261 99",
    spellings: ["DE75512108001245126199", "DE75 5121 0800 1245 1261 99", "512108001245126199"],
  },
  us_account: { sent: "7329-1048-5521", spellings: ["732910485521", "7329-1048-5521"] },
  clabe: { sent: "012 180 00118359719 8", spellings: ["012180001183597198", "012 180 00118359719 8"] },
  pix_cpf: { sent: "111.444.777-35", spellings: ["11144477735", "111.444.777-35"] },
  pix_email: { sent: "Maria.Souza+pix@Example.com.br", spellings: ["maria.souza+pix@example.com.br"] },
  card: { sent: "4000 0566 5566 5556", spellings: ["4000056655665556", "4000 0566 5566 5556"] },
  tax_id: { sent: "DE 813 990 227", spellings: ["DE813990227", "DE 813 990 227", "813990227"] },
} as const;

const ALL_SPELLINGS: readonly string[] = Object.values(SECRETS).flatMap((secret) => secret.spellings);

function leaksIn(text: string): string[] {
  const haystack = text.toLowerCase();
  return ALL_SPELLINGS.filter((spelling) => haystack.includes(spelling.toLowerCase()));
}

let sink: SmtpSink;
let t: TestApp;
let call: ApiCall;
let responses: ReturnType<typeof apiClient>["responses"];

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${sink.port}`, MAIL_FROM: "Payouts <payouts@mail.example.test>" },
  });
  const biz = await registerBusiness(t.app, "Leak Check Ltd");
  ({ call, responses } = apiClient(t, biz.keys.sandbox));
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

async function expectStatus(response: Promise<{ statusCode: number; body: string }>, status: number) {
  const settled = await response;
  expect(settled.statusCode, settled.body).toBe(status);
  return JSON.parse(settled.body || "null") as Json;
}

describe("sensitive numbers never leave in clear text", () => {
  it("through every route of the story, and nowhere at rest but the encrypted columns", async () => {
    // A Beneficiary with a tax id, completed and acknowledged.
    const beneficiary = await expectStatus(
      call("POST", "/v1/beneficiaries", {
        beneficiary_type: "person",
        email: "leak.payee@example.test",
        first_name: "Maria",
        last_name: "Souza",
        country_of_residence: "BR",
        tax_id: SECRETS.tax_id.sent,
      }),
      201,
    );
    const id = String(beneficiary.id);
    expect(beneficiary.tax_id).toBe("•••••0227");
    await expectStatus(call("POST", `/v1/beneficiaries/${id}/acknowledge`), 200);
    await expectStatus(call("PUT", `/v1/beneficiaries/${id}`, { tax_id: SECRETS.tax_id.sent, nickname: "Mari" }), 200);

    // One destination of every kind, each registered twice (201, then 200).
    const bodies: Array<[string, Json]> = [
      ["bank-accounts", { account_holder_name: "Maria Souza", country: "DE", currency: "EUR", iban: SECRETS.iban.sent }],
      [
        "bank-accounts",
        {
          account_holder_name: "Maria Souza",
          country: "US",
          currency: "USD",
          routing_code: "011000015",
          account_number: SECRETS.us_account.sent,
        },
      ],
      ["bank-accounts", { account_holder_name: "Maria Souza", country: "MX", currency: "MXN", clabe: SECRETS.clabe.sent }],
      ["bank-accounts", { account_holder_name: "Maria Souza", country: "BR", currency: "BRL", pix_key: SECRETS.pix_cpf.sent }],
      ["bank-accounts", { account_holder_name: "Maria Souza", country: "BR", currency: "BRL", pix_key: SECRETS.pix_email.sent }],
      [
        "cards",
        {
          card_number: SECRETS.card.sent,
          expiry_month: 9,
          expiry_year: 2029,
          cardholder_name: "Maria Souza",
          country: "BR",
          currency: "BRL",
        },
      ],
    ];
    const ids: string[] = [];
    for (const [path, body] of bodies) {
      const created = await expectStatus(call("POST", `/v1/beneficiaries/${id}/${path}`, body), 201);
      await expectStatus(call("POST", `/v1/beneficiaries/${id}/${path}`, body), 200);
      ids.push(String(created.id));
    }

    // Refusals that carry the numbers back to the caller's attention must not echo them.
    await expectStatus(
      call("POST", `/v1/beneficiaries/${id}/bank-accounts`, {
        account_holder_name: "Maria Souza",
        country: "US",
        currency: "USD",
        routing_code: "011000016",
        account_number: SECRETS.us_account.sent,
        iban: SECRETS.iban.sent,
      }),
      400,
    );
    await expectStatus(
      call("POST", `/v1/beneficiaries/${id}/bank-accounts`, {
        account_holder_name: "Maria Souza",
        country: "MX",
        currency: "USD",
        clabe: SECRETS.clabe.sent,
        pix_key: SECRETS.pix_cpf.sent,
      }),
      400,
    );
    await expectStatus(
      call("POST", `/v1/beneficiaries/${id}/cards`, {
        card_number: SECRETS.card.sent,
        expiry_month: 1,
        expiry_year: 2020,
        cardholder_name: "Maria Souza",
        country: "BR",
        currency: "BRL",
      }),
      400,
    );
    await expectStatus(call("POST", `/v1/beneficiaries/${id}/cards`, { card_number: `${SECRETS.card.sent} 0000 1111` }), 400);

    // Reads, the declared destination (with its e-mail), and a delete of it (with its e-mail).
    const listed = await expectStatus(call("GET", `/v1/beneficiaries/${id}/bank-accounts`), 200);
    expect((listed.bank_accounts as Json[]).map((d) => d.id)).toEqual(ids);
    await expectStatus(call("GET", `/v1/beneficiaries/${id}`), 200);
    await expectStatus(call("GET", "/v1/beneficiaries"), 200);
    await expectStatus(call("GET", `/v1/beneficiaries?email=leak.payee@example.test&status=ready`), 200);
    for (const destinationId of ids) {
      await expectStatus(call("PUT", `/v1/beneficiaries/${id}/declared-destination`, { destination_id: destinationId }), 200);
    }
    await expectStatus(call("DELETE", `/v1/beneficiaries/${id}/bank-accounts/${ids.at(-1)}`), 204);
    await expectStatus(call("DELETE", `/v1/beneficiaries/${id}/bank-accounts/${ids[0]}`), 204);
    await expectStatus(call("POST", `/v1/beneficiaries/${id}/archive`), 200);
    await expectStatus(call("GET", `/v1/beneficiaries/${id}`), 200);
    await expectStatus(call("GET", `/v1/beneficiaries/${id}/bank-accounts`), 200);

    // The notices to the Beneficiary: captured in sandbox (nothing is delivered to a stranger), and read back
    // through the sandbox mailbox, whose answers join the responses checked below.
    // The only jobs are the payee name checks of the accounts (one each); notices are captured without one.
    expect(await t.runtime.createWorker("leak-test-worker").drain()).toBe(ids.length);
    expect(sink.received).toEqual([]);
    const mailbox = await expectStatus(call("GET", "/v1/sandbox/emails?to=leak.payee@example.test"), 200);
    const captured = mailbox.emails as Json[];
    expect(captured).toHaveLength(ids.length + 1);
    for (const mail of captured) {
      const id = String(mail.id);
      expect((await expectStatus(call("GET", `/v1/sandbox/emails/${id}`), 200)).text).toBe(mail.text);
    }

    // 1. Responses: every one of the test, bodies and headers.
    expect(responses.length).toBeGreaterThan(25);
    for (const response of responses) {
      expect(leaksIn(response.body), response.body).toEqual([]);
      expect(leaksIn(JSON.stringify(response.headers))).toEqual([]);
    }
    // The tax id is shown by its last four only.
    const taxIds = responses
      .map((response) => (response.body ? (JSON.parse(response.body) as Json) : null))
      .filter((body): body is Json => body !== null && "tax_id" in body)
      .map((body) => body.tax_id);
    expect(taxIds.length).toBeGreaterThan(0);
    for (const taxId of taxIds) expect(taxId).toBe("•••••0227");

    // 2. Logs: every line the service wrote.
    expect(t.logLines.length).toBeGreaterThan(0);
    expect(leaksIn(t.logLines.join("\n"))).toEqual([]);

    // 3. Events, jobs and the e-mails that left.
    const db = t.runtime.deps.database.db;
    const recorded = await db.select().from(events);
    expect(recorded).toHaveLength(ids.length);
    expect(leaksIn(JSON.stringify(recorded))).toEqual([]);
    expect(leaksIn(JSON.stringify(await db.select().from(jobs)))).toEqual([]);
    for (const mail of captured) expect(leaksIn(`${mail.subject}\n${mail.text}\n${mail.html}`)).toEqual([]);
    expect(leaksIn(JSON.stringify(await db.select().from(emails)))).toEqual([]);

    // 4. The tables: not in clear text in any column; inside the encrypted columns, and only there.
    const destinationRows = await queryRows<{ row: Json }>(db, sql`select to_jsonb(d) as row from destinations d`);
    const beneficiaryRows = await queryRows<{ row: Json }>(db, sql`select to_jsonb(b) as row from beneficiaries b`);
    expect(destinationRows).toHaveLength(ids.length);
    expect(beneficiaryRows).toHaveLength(1);
    const decrypted: string[] = [];
    for (const { row } of [...destinationRows, ...beneficiaryRows]) {
      expect(leaksIn(JSON.stringify(row)), JSON.stringify(row)).toEqual([]);
      for (const column of ["sensitive_encrypted", "tax_id_encrypted"]) {
        const value = row[column];
        if (typeof value === "string") {
          expect(value).toMatch(/^v1\./);
          decrypted.push(t.runtime.deps.cipher.decrypt(value));
        }
      }
    }
    const plain = decrypted.join("\n");
    for (const name of Object.keys(SECRETS) as Array<keyof typeof SECRETS>) {
      const normalised = SECRETS[name].spellings[0];
      expect(plain.toLowerCase(), name).toContain(normalised.toLowerCase());
    }
  });
});
