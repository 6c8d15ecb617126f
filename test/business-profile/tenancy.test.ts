// The shared auth / tenancy matrix applied to the Business profile: no or a bad key is 401, a read-only key
// reads but cannot change it (403), the admin's key and session of each Business and environment are served.
// There is no id to address another Business's profile; business-profile.test.ts shows each caller reads and
// changes its own.
import { describeTenancyMatrix } from "../helpers/tenancy-matrix.js";

describeTenancyMatrix("Business profile", [
  { method: "GET", url: () => "/v1/business", access: "read" },
  {
    method: "PATCH",
    url: () => "/v1/business",
    access: "write",
    payload: ({ tenant }) => ({ name: `Renamed by ${tenant.label}` }),
  },
]);
