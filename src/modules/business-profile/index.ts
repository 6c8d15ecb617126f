// The Business profile (`GET|PATCH /v1/business`): the profile columns of the platform's `businesses` table,
// which only this module changes after registration created the row.
import type { RecordActorAudit } from "../../platform/auth/audit.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/client.js";
import type { AppInstance } from "../../platform/http/types.js";
import { registerBusinessProfileRoutes } from "./business-profile.routes.js";
import { BusinessProfileSchema } from "./business-profile.schemas.js";
import { createBusinessProfileService } from "./business-profile.service.js";

export { businessProfileRouteRoles } from "./business-profile.access.js";

export type BusinessProfileModule = ReturnType<typeof createBusinessProfileModule>;

export function createBusinessProfileModule(deps: { db: Db; clock: Clock; recordAudit?: RecordActorAudit }) {
  const service = createBusinessProfileService(deps);
  return {
    service,
    sharedSchemas: [BusinessProfileSchema],
    registerRoutes: (app: AppInstance) => registerBusinessProfileRoutes(app, service),
  };
}
