// The shared auth / tenancy matrix applied to the import route: 401 without a valid key, 403 for a
// read-only key, served for an admin key of every Business and environment.
import { describeTenancyMatrix } from "../helpers/tenancy-matrix.js";

let n = 0;

describeTenancyMatrix("beneficiary import", [
  {
    method: "POST",
    url: () => "/v1/beneficiaries/import",
    access: "write",
    payload: ({ tenant }) => {
      n += 1;
      return {
        rows: [
          {
            email: `matrix-${tenant.label.replace("/", "-")}-${n}@import.example.com`,
            first_name: "Matrix",
            last_name: "Row",
            bank: { account_holder_name: "Matrix Row", country: "DE", currency: "EUR", iban: "DE89370400440532013000" },
          },
        ],
      };
    },
  },
]);
