// The shared auth / tenancy matrix on the collection-link routes: 401 for missing, malformed, unknown or
// revoked keys; 403 for a read-only key (both routes write); another tenant's Beneficiary or request answers
// 404 exactly like a missing one.
import { randomUUID } from "node:crypto";
import { bearer, createBeneficiary } from "../helpers/factories.js";
import { describeTenancyMatrix, type MatrixContext } from "../helpers/tenancy-matrix.js";

async function beneficiaryOf({ app, tenant }: MatrixContext): Promise<string> {
  const email = `links-${tenant.label.replace("/", "-").toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  return (await createBeneficiary(app, tenant.keys.business_admin, { email })).id;
}

/** The DELETE route names two ids; the setup returns both joined by "~" (a bare id names neither). */
async function requestOf(context: MatrixContext): Promise<string> {
  const beneficiaryId = await beneficiaryOf(context);
  const response = await context.app.inject({
    method: "POST",
    url: `/v1/beneficiaries/${beneficiaryId}/collection-requests`,
    headers: bearer(context.tenant.keys.business_admin),
    payload: { scope: "payout_destination" },
  });
  if (response.statusCode !== 201) throw new Error(`link creation failed: ${response.statusCode} ${response.body}`);
  return `${beneficiaryId}~${(response.json() as { id: string }).id}`;
}

function requestUrl(id: string): string {
  const [beneficiaryId, requestId = beneficiaryId] = id.split("~");
  return `/v1/beneficiaries/${beneficiaryId}/collection-requests/${requestId}`;
}

describeTenancyMatrix("collection links", [
  {
    method: "POST",
    url: (id) => `/v1/beneficiaries/${id}/collection-requests`,
    access: "write",
    setup: beneficiaryOf,
    payload: () => ({ scope: "full_onboarding" }),
  },
  {
    name: "DELETE /v1/beneficiaries/{id}/collection-requests/{requestId}",
    method: "DELETE",
    url: requestUrl,
    access: "write",
    setup: requestOf,
  },
]);
