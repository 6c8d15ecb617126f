// The Business profile (`GET|PATCH /v1/business`): the profile columns of the platform's `businesses` table,
// which only this module changes after registration created the row.
import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { businessProfileRouteRoles } from "./business-profile.access.js";
import type { BusinessProfilePorts } from "./business-profile.ports.js";
import { registerBusinessProfileRoutes } from "./business-profile.routes.js";
import { BusinessProfileSchema } from "./business-profile.schemas.js";
import { createBusinessProfileService } from "./business-profile.service.js";

export type { BusinessProfilePorts } from "./business-profile.ports.js";

export function defineBusinessProfile(platform: PlatformServices, ports: BusinessProfilePorts) {
  const service = createBusinessProfileService({ db: platform.db, clock: platform.clock, recordAudit: ports.recordAudit });
  return defineModule({
    name: "business-profile",
    routeRoles: businessProfileRouteRoles,
    registerRoutes: (app) => registerBusinessProfileRoutes(app, service),
    sharedSchemas: [BusinessProfileSchema],
    offers: {},
  });
}

export { businessProfileRouteRoles };
