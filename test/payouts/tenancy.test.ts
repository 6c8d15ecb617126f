// The shared auth / tenancy matrix on every payout route: 401 without a valid key, 403 for a read-only key
// on a write, another tenant's payout is 404 exactly like a missing one, lists show only the caller's.
import { describe, expect, it } from "vitest";
import { bearer, createApiKey, registerBusiness } from "../helpers/factories.js";
import { describeTenancyMatrix, type MatrixContext } from "../helpers/tenancy-matrix.js";
import { buildTestApp } from "../helpers/test-app.js";
import { expectErrorEnvelope } from "../http/error-envelope.js";
import { createPayout, newKey, payableBeneficiary } from "./payout-fixtures.js";

/** A payable Beneficiary per tenant, made once and reused for creation bodies. */
const payeeOf = new Map<string, string>();

async function payee(context: MatrixContext): Promise<string> {
  const known = payeeOf.get(context.tenant.label);
  if (known !== undefined) return known;
  const { beneficiaryId } = await payableBeneficiary(context.app, context.tenant.keys.business_admin);
  payeeOf.set(context.tenant.label, beneficiaryId);
  return beneficiaryId;
}

async function payoutOf(context: MatrixContext): Promise<string> {
  const beneficiaryId = await payee(context);
  return (await createPayout(context.app, context.tenant.keys.business_admin, { beneficiary_id: beneficiaryId })).payout_id;
}

const creationBody = ({ tenant }: MatrixContext) => ({
  beneficiary_id: payeeOf.get(tenant.label) ?? "01900000-0000-7000-8000-000000000000",
  amount_minor: 100,
  currency: "EUR",
  idempotency_key: newKey("matrix"),
});

describeTenancyMatrix("payouts", [
  { method: "POST", url: () => "/v1/payouts", access: "write", setup: payee, payload: creationBody },
  {
    method: "POST",
    url: () => "/v1/payouts/bulk",
    access: "write",
    setup: payee,
    payload: (context) => ({ uploadId: newKey("upload"), rows: [creationBody(context)] }),
  },
  { method: "GET", url: () => "/v1/payouts", access: "read", setup: payoutOf, listKey: "payouts", listItemIdKey: "payout_id" },
  { method: "GET", url: (id) => `/v1/payouts/${id}`, access: "read", setup: payoutOf },
  {
    method: "POST",
    url: (id) => `/v1/payouts/${id}/decisions`,
    access: "write",
    setup: payoutOf,
    payload: () => ({ outcome: "approve" }),
  },
  { method: "POST", url: (id) => `/v1/payouts/${id}/approve`, access: "write", setup: payoutOf },
  { method: "POST", url: (id) => `/v1/payouts/${id}/reject`, access: "write", setup: payoutOf },
  { method: "GET", url: (id) => `/v1/payouts/${id}/decisions`, access: "read", setup: payoutOf },
  { method: "GET", url: () => "/v1/approval-policy", access: "read" },
  { method: "PUT", url: () => "/v1/approval-policy", access: "write", payload: () => ({ rules: [] }) },
]);

// Cancellation exists only in production (a sandbox owner gets 409), so it is checked here by hand.
describe("tenancy: POST /v1/payouts/{id}/cancel", () => {
  it("answers 401, 403 for read-only, and 404 for another tenant's payout exactly like a missing one", async () => {
    const t = await buildTestApp();
    try {
      const a = await registerBusiness(t.app, "Cancel A");
      const b = await registerBusiness(t.app, "Cancel B");
      const { beneficiaryId } = await payableBeneficiary(t.app, a.keys.production);
      const payout = await createPayout(t.app, a.keys.production, { beneficiary_id: beneficiaryId });
      const cancel = (id: string, headers: Record<string, string>) =>
        t.app.inject({ method: "POST", url: `/v1/payouts/${id}/cancel`, headers });
      expectErrorEnvelope(await cancel(payout.payout_id, {}), { status: 401, code: "unauthorized", actor: null });
      const readOnly = await createApiKey(t.app, a.keys.production, "business_read_only");
      expect((await cancel(payout.payout_id, bearer(readOnly.key))).statusCode).toBe(403);
      const otherBusiness = await cancel(payout.payout_id, bearer(b.keys.production));
      const otherEnvironment = await cancel(payout.payout_id, bearer(a.keys.sandbox));
      const missing = await cancel("01900000-0000-7000-8000-000000000000", bearer(b.keys.production));
      for (const response of [otherBusiness, otherEnvironment, missing]) expect(response.statusCode).toBe(404);
      expect(otherBusiness.json().error.message).toBe(missing.json().error.message);
      expect((await cancel(payout.payout_id, bearer(a.keys.production))).json().status).toBe("canceled");
    } finally {
      await t.close();
    }
  });
});
