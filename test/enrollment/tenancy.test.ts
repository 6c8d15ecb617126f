// The shared auth / tenancy matrix on the enrollment retry route.
import { describeTenancyMatrix, type MatrixContext } from "../helpers/tenancy-matrix.js";
import { acknowledge, newBeneficiary } from "./fixtures.js";

/** A compliant Beneficiary of the context's tenant (retrying its enrollment succeeds). */
async function compliantBeneficiaryOf({ app, tenant }: MatrixContext): Promise<string> {
  const b = await newBeneficiary(app, tenant.keys.business_admin);
  await acknowledge(app, tenant.keys.business_admin, b.id);
  return b.id;
}

describeTenancyMatrix("enrollment", [
  {
    method: "POST",
    url: (id) => `/v1/beneficiaries/${id}/enrollment`,
    access: "write",
    setup: compliantBeneficiaryOf,
  },
]);
