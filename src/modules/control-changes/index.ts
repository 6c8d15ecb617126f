// Four eyes on weakening a control (issue 29): pending control changes, their listing, approval by a second admin
// and discard. Owners of controls take `guardWeakening` as a port and register an applier per kind (composition).
import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { controlChangesRouteRoles } from "./control-changes.access.js";
import { CONTROL_CHANGE_ERRORS } from "./control-changes.errors.js";
import type { ControlChangesPorts } from "./control-changes.ports.js";
import { registerControlChangeRoutes } from "./control-changes.routes.js";
import { ControlChangeSchema } from "./control-changes.schemas.js";
import { createControlChangeService } from "./control-changes.service.js";

export { CONTROL_CHANGE_ERRORS } from "./control-changes.errors.js";
export type { ControlChangesPorts } from "./control-changes.ports.js";

export function defineControlChanges(platform: PlatformServices, ports: ControlChangesPorts) {
  const { db, clock, ids } = platform;
  const service = createControlChangeService({ db, clock, ids, ports });
  return defineModule({
    name: "control-changes",
    routeRoles: controlChangesRouteRoles,
    errorCodes: CONTROL_CHANGE_ERRORS,
    registerRoutes: (app) => registerControlChangeRoutes(app, service),
    sharedSchemas: [ControlChangeSchema],
    offers: {
      /** For the owners of controls: a weakening waits for a second admin when maker-checker is on. */
      guardWeakening: service.guardWeakening,
    },
  });
}

export { controlChangesRouteRoles };
