// The shared auth / tenancy matrix applied to the events API: each Business and environment sees only its own
// events, in the list and one by one; another tenant's event is 404 like a missing one. (The feed pages with
// `after`, not `cursor`, so the matrix's list walk does not apply to it: events-api.test.ts checks its isolation.)
import { randomUUID } from "node:crypto";
import { transaction } from "../../src/platform/db/client.js";
import { describeTenancyMatrix, type MatrixContext } from "../helpers/tenancy-matrix.js";

/** Records an event of the tenant, as a use case of that Business and environment would. */
async function eventOf({ testApp, tenant }: MatrixContext): Promise<string> {
  const { database, events } = testApp.runtime.deps;
  const beneficiaryId = randomUUID();
  const recorded = await transaction(database.db, (tx) =>
    events.record(tx, {
      tenant: { businessId: tenant.registered.businessId, environment: tenant.environment },
      type: "beneficiary.details_submitted",
      subjectId: beneficiaryId,
      data: { beneficiary_id: beneficiaryId, status: "details_submitted" },
    }),
  );
  return recorded.id;
}

describeTenancyMatrix("events", [
  { method: "GET", url: () => "/v1/events", access: "read", setup: eventOf, listKey: "events" },
  { method: "GET", url: (id) => `/v1/events/${id}`, access: "read", setup: eventOf },
]);
