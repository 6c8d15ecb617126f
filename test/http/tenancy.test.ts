// The shared auth / tenancy matrix applied to the API-key routes.
import { createApiKey } from "../helpers/factories.js";
import { describeTenancyMatrix, type MatrixContext } from "../helpers/tenancy-matrix.js";

/** A read-only key of the tenant (revoking it never trips the last-admin-key rule). */
async function createReadOnlyKey({ app, tenant }: MatrixContext): Promise<string> {
  return (await createApiKey(app, tenant.keys.business_admin, "business_read_only", `matrix item ${tenant.label}`)).id;
}

describeTenancyMatrix("API keys", [
  {
    method: "GET",
    url: () => "/v1/api-keys",
    access: "read",
    setup: createReadOnlyKey,
    listKey: "api_keys",
  },
  {
    method: "POST",
    url: () => "/v1/api-keys",
    access: "write",
    payload: () => ({ role: "business_read_only", label: "created by the matrix" }),
  },
  {
    method: "DELETE",
    url: (id) => `/v1/api-keys/${id}`,
    access: "write",
    setup: createReadOnlyKey,
  },
]);
