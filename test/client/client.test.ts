// The typed client (packages/client) against the real service over loopback HTTP: a payout's story, pagination
// over several pages, typed errors, bulk upload from CSV, and every operation of the OpenAPI document called at
// least once through its generated method.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEXT_BODIES } from "../../packages/client/src/generated/operations.js";
import {
  createClient,
  createPayoutsFromCsv,
  OPERATIONS,
  type OperationId,
  PayoutsApiError,
  type PayoutsClient,
} from "../../packages/client/src/index.js";
import { type RegisteredBusiness, registerBusiness } from "../helpers/factories.js";
import { buildTestApp, type TestApp } from "../helpers/test-app.js";
import { PERSON_IDENTITY } from "../payouts/payout-fixtures.js";

let t: TestApp;
let business: RegisteredBusiness;
let baseUrl: string;
let client: PayoutsClient;
/** `METHOD /path` of every request the client sent, to match against the operations. */
const sent: string[] = [];

const recordingFetch: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  sent.push(`${init?.method ?? "GET"} ${url.pathname}`);
  return fetch(input, init);
};

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  baseUrl = `http://127.0.0.1:${address.port}`;
  business = await registerBusiness(t.app);
  client = createClient({ baseUrl, apiKey: business.keys.sandbox, fetch: recordingFetch, retry: { maxRetries: 0 } });
});
afterAll(async () => t?.close());

const IBAN_ACCOUNT = { account_holder_name: "Jane Doe", country: "DE", currency: "EUR", iban: "DE89370400440532013000" } as const;

async function payableBeneficiary(c: PayoutsClient) {
  const beneficiary = await c.createBeneficiary({
    body: { beneficiary_type: "person", email: `payee-${crypto.randomUUID()}@example.com`, ...PERSON_IDENTITY },
  });
  const account = await c.createBankAccount({ path: { id: beneficiary.id }, body: IBAN_ACCOUNT });
  await c.acknowledgeBeneficiary({ path: { id: beneficiary.id } });
  return { beneficiaryId: beneficiary.id, accountId: account.id };
}

describe("the client against the service", () => {
  it("creates, replays, approves and reads a payout with typed results", async () => {
    const { beneficiaryId, accountId } = await payableBeneficiary(client);
    const read = await client.getBeneficiary({ path: { id: beneficiaryId } });
    expect(read.id).toBe(beneficiaryId);

    const body = { beneficiary_id: beneficiaryId, amount_minor: 2500, currency: "EUR", external_ref: "inv-client-1" };
    const created = await client.raw.createPayout({ body }, { idempotencyKey: "client-test-key-1" });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ status: "pending_approval", bank_account_id: accountId, amount_minor: 2500 });
    // The same key again: the service answers with the first payout, marked as a replay.
    const replay = await client.raw.createPayout({ body }, { idempotencyKey: "client-test-key-1" });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.data.payout_id).toBe(created.data.payout_id);
    // Without a key the client makes one: two calls are two payouts.
    const second = await client.createPayout({ body });
    expect(second.payout_id).not.toBe(created.data.payout_id);

    const approved = await client.approvePayout({ path: { payoutId: created.data.payout_id } });
    expect(approved.payout.status).toBe("approved");
    const decisions = await client.listPayoutDecisions({ path: { payoutId: created.data.payout_id } });
    expect(JSON.stringify(decisions)).toContain("approve");
    const rejected = await client.rejectPayout({ path: { payoutId: second.payout_id }, body: { reason: "duplicate" } });
    expect(rejected.payout.status).toBe("rejected");
    const fetched = await client.getPayout({ path: { payoutId: second.payout_id } });
    expect(fetched.status).toBe("rejected");
  });

  it("iterates over every page of a list", async () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({
      email: `paged-${i}-${crypto.randomUUID()}@example.com`,
      first_name: "Page",
      last_name: `Row ${i}`,
      bank: IBAN_ACCOUNT,
    }));
    const imported = await client.importBeneficiaries({ body: { rows } });
    expect(imported.created_count).toBe(7);
    const before = sent.length;
    const ids: string[] = [];
    for await (const beneficiary of client.paginate("listBeneficiaries", { query: { limit: 2 } })) ids.push(beneficiary.id);
    const pages = sent.slice(before).filter((line) => line === "GET /v1/beneficiaries").length;
    expect(pages).toBeGreaterThanOrEqual(4);
    expect(new Set(ids).size).toBe(ids.length);
    for (const result of imported.results) expect(ids).toContain(result.beneficiary_id);
  });

  it("throws a typed error carrying the envelope, and does not retry a 4xx", async () => {
    const retrying = createClient({ baseUrl, apiKey: business.keys.sandbox, fetch: recordingFetch, sleep: async () => {} });
    const before = sent.length;
    const error = await retrying.getPayout({ path: { payoutId: crypto.randomUUID() } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutsApiError);
    const apiError = error as PayoutsApiError;
    expect(apiError.status).toBe(404);
    expect(apiError.code).toMatch(/NOT_FOUND/i);
    expect(apiError.requestId).toEqual(expect.any(String));
    expect(apiError.message).not.toBe("");
    expect(sent.length - before).toBe(1);

    const invalid = await client
      .createBeneficiary({ body: { beneficiary_type: "person", email: "not-an-address" } })
      .catch((e) => e);
    expect(invalid).toBeInstanceOf(PayoutsApiError);
    expect((invalid as PayoutsApiError).code).toBe("validation_failed");
    expect((invalid as PayoutsApiError).details.length).toBeGreaterThan(0);

    const revoked = createClient({ baseUrl, apiKey: "pok_sandbox_notakey", retry: { maxRetries: 0 } });
    const unauthorized = await revoked.listPayouts().catch((e: unknown) => e);
    expect(unauthorized).toMatchObject({ status: 401 });
  });

  it("uploads a CSV in bulk under the SHA-256 of its bytes; the same file again replays every row", async () => {
    const { beneficiaryId } = await payableBeneficiary(client);
    const csv = `beneficiary_id,amount_minor,currency,external_ref\n${beneficiaryId},100,EUR,row-1\n${beneficiaryId},200,EUR,row-2\n${beneficiaryId},abc,EUR,row-3\n`;
    const progress: number[] = [];
    const first = await createPayoutsFromCsv(client, new TextEncoder().encode(csv), { onProgress: (p) => progress.push(p.done) });
    const { createHash } = await import("node:crypto");
    expect(first.uploadId).toBe(`sha256-${createHash("sha256").update(csv).digest("hex")}`);
    expect(first).toMatchObject({ created: 2, replayed: 0, failed: 1 });
    expect(first.results[2]).toMatchObject({ index: 2, status: "failed" });
    expect(progress).toEqual([0, 3]);
    const again = await createPayoutsFromCsv(client, csv);
    expect(again).toMatchObject({ created: 0, replayed: 2, failed: 1 });
    expect(again.results[0]?.payout_id).toBe(first.results[0]?.payout_id);
  });

  it("calls every operation of the OpenAPI document through its method", async () => {
    // Operations the tests above did not reach are called here with placeholder input: each must reach its
    // route (an answer other than the router's 404/405), which proves the method, path and parameters.
    const called = () => new Set(sent.map(operationOf).filter((id): id is OperationId => id !== null));
    const placeholder = "0196f1a3-0a1b-7c20-8e55-8091a2b3c4d6";
    for (const id of Object.keys(OPERATIONS) as OperationId[]) {
      if (called().has(id)) continue;
      const info = OPERATIONS[id];
      const path = Object.fromEntries([...info.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1], placeholder]));
      // A text body (a bank statement file) is sent as given: a placeholder text, which the route refuses in words.
      const body = TEXT_BODIES[id] !== undefined ? "not a statement" : {};
      const input = { path, ...(info.body ? { body } : {}) };
      const outcome = await client.call(id, input as never).catch((e: unknown) => e);
      if (outcome instanceof PayoutsApiError) {
        expect(outcome.status, `${id}: ${outcome.code} ${outcome.message}`).toBeLessThan(500);
        expect(outcome.status === 405 || outcome.message.startsWith("No route"), `${id} did not reach its route`).toBe(false);
      } else {
        expect(outcome, id).toMatchObject({ status: expect.any(Number) });
      }
    }
    const missing = (Object.keys(OPERATIONS) as OperationId[]).filter((id) => !called().has(id));
    expect(missing).toEqual([]);
  });
});

const templates = (Object.entries(OPERATIONS) as [OperationId, (typeof OPERATIONS)[OperationId]][]).map(([id, info]) => ({
  id,
  method: info.method,
  // Literal segments first, so /v1/payouts/bulk is not taken for /v1/payouts/{payoutId}.
  pattern: new RegExp(`^${info.path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  literal: !info.path.includes("{"),
}));
templates.sort((a, b) => Number(b.literal) - Number(a.literal));

function operationOf(line: string): OperationId | null {
  const [method, path] = line.split(" ") as [string, string];
  return templates.find((tpl) => tpl.method === method && tpl.pattern.test(path))?.id ?? null;
}

// Compile-time checks (npm run typecheck): the generated types refuse what the service would refuse.
function typeChecks(c: PayoutsClient) {
  // @ts-expect-error amount_minor is an integer, not a string
  void c.createPayout({ body: { beneficiary_id: "b", amount_minor: "12", currency: "EUR" } });
  // @ts-expect-error getPayout needs its path parameter
  void c.getPayout();
  // @ts-expect-error no such operation
  void c.createPayment;
  // @ts-expect-error listPayouts takes no unknown query parameter
  void c.listPayouts({ query: { colour: "red" } });
  void c.listPayouts();
  void c.approvePayout({ path: { payoutId: "p" } });
}
void typeChecks;
