// The shared auth / tenancy matrix applied to every destination route and every Beneficiary route: 401 for
// missing, malformed, unknown or revoked keys; 403 for a read-only key on a write; another tenant's resource
// answers 404 exactly like a missing one; lists show only the caller's items.
import { randomUUID } from "node:crypto";
import { createBeneficiary, registerBankAccount } from "../helpers/factories.js";
import { describeTenancyMatrix, type MatrixContext } from "../helpers/tenancy-matrix.js";
import { CORRIDORS, VISA_CARD } from "./destination-fixtures.js";

let emails = 0;
function uniqueEmail(label: string): string {
  emails += 1;
  return `matrix-${label.replace("/", "-").toLowerCase()}-${emails}-${randomUUID().slice(0, 8)}@example.com`;
}

/** A Beneficiary owned by the context's tenant. */
async function beneficiaryOf({ app, tenant }: MatrixContext): Promise<string> {
  return (await createBeneficiary(app, tenant.keys.business_admin, { email: uniqueEmail(tenant.label) })).id;
}

async function archivedBeneficiaryOf(context: MatrixContext): Promise<string> {
  const id = await beneficiaryOf(context);
  const response = await context.app.inject({
    method: "POST",
    url: `/v1/beneficiaries/${id}/archive`,
    headers: { authorization: `Bearer ${context.tenant.keys.business_admin}` },
  });
  if (response.statusCode !== 200) throw new Error(`archive failed: ${response.statusCode} ${response.body}`);
  return id;
}

/** A Beneficiary with one validated bank account, remembered per tenant for the declared-destination body. */
const latestDestinationOf = new Map<string, string>();
async function beneficiaryWithAccountOf(context: MatrixContext): Promise<string> {
  const beneficiaryId = await beneficiaryOf(context);
  const account = await registerBankAccount(context.app, context.tenant.keys.business_admin, beneficiaryId);
  latestDestinationOf.set(context.tenant.label, account.id);
  return beneficiaryId;
}

/**
 * The DELETE route names two ids; the matrix hands routes one. The setup returns both joined by "~"; a bare
 * id (the matrix's "missing" probe) names an unknown Beneficiary and account.
 */
async function accountOf(context: MatrixContext): Promise<string> {
  const beneficiaryId = await beneficiaryOf(context);
  const account = await registerBankAccount(
    context.app,
    context.tenant.keys.business_admin,
    beneficiaryId,
    CORRIDORS.us_aba.body,
  );
  return `${beneficiaryId}~${account.id}`;
}
function accountUrl(id: string): string {
  const [beneficiaryId, accountId = beneficiaryId] = id.split("~");
  return `/v1/beneficiaries/${beneficiaryId}/bank-accounts/${accountId}`;
}

describeTenancyMatrix("destinations", [
  {
    method: "POST",
    url: (id) => `/v1/beneficiaries/${id}/bank-accounts`,
    access: "write",
    setup: beneficiaryOf,
    payload: () => CORRIDORS.de_iban.body,
  },
  {
    method: "POST",
    url: (id) => `/v1/beneficiaries/${id}/cards`,
    access: "write",
    setup: beneficiaryOf,
    payload: () => VISA_CARD,
  },
  {
    method: "GET",
    url: (id) => `/v1/beneficiaries/${id}/bank-accounts`,
    access: "read",
    setup: beneficiaryWithAccountOf,
  },
  {
    name: "DELETE /v1/beneficiaries/{id}/bank-accounts/{accountId}",
    method: "DELETE",
    url: accountUrl,
    access: "write",
    setup: accountOf,
  },
  {
    method: "PUT",
    url: (id) => `/v1/beneficiaries/${id}/declared-destination`,
    access: "write",
    setup: beneficiaryWithAccountOf,
    // The caller's latest destination: the owner's own for a served request; for an intruder, a destination
    // id that does not matter because the Beneficiary is not found first.
    payload: ({ tenant }) => ({ destination_id: latestDestinationOf.get(tenant.label) ?? randomUUID() }),
  },
]);

describeTenancyMatrix("beneficiaries", [
  {
    method: "POST",
    url: () => "/v1/beneficiaries",
    access: "write",
    payload: ({ tenant }) => ({ beneficiary_type: "business", email: uniqueEmail(tenant.label), name: "Matrix Supplies" }),
  },
  {
    method: "GET",
    url: () => "/v1/beneficiaries",
    access: "read",
    setup: beneficiaryOf,
    listKey: "beneficiaries",
  },
  {
    method: "GET",
    url: (id) => `/v1/beneficiaries/${id}`,
    access: "read",
    setup: beneficiaryOf,
  },
  {
    method: "PUT",
    url: (id) => `/v1/beneficiaries/${id}`,
    access: "write",
    setup: beneficiaryOf,
    payload: () => ({ nickname: "Matrix", first_name: "Mat", last_name: "Rix", country_of_residence: "DE" }),
  },
  {
    method: "POST",
    url: (id) => `/v1/beneficiaries/${id}/acknowledge`,
    access: "write",
    setup: beneficiaryOf,
  },
  {
    method: "POST",
    url: (id) => `/v1/beneficiaries/${id}/archive`,
    access: "write",
    setup: beneficiaryOf,
  },
  {
    method: "POST",
    url: (id) => `/v1/beneficiaries/${id}/unarchive`,
    access: "write",
    setup: archivedBeneficiaryOf,
  },
]);
