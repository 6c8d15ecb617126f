// The shared auth / role check for the export: 401 for every kind of bad key, both roles served in every
// tenant (tenancy of the rows themselves is checked in beneficiary-export.test.ts).
import { describeTenancyMatrix } from "../helpers/tenancy-matrix.js";

describeTenancyMatrix("beneficiary export", [{ method: "GET", url: () => "/v1/beneficiaries/export", access: "read" }]);
