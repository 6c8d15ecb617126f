import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import type { RailRegistry } from "../../rails/rail.js";
import { enrollmentRouteRoles } from "./enrollment.access.js";
import { ENROLLMENT_ERRORS } from "./enrollment.errors.js";
import type { EnrollmentPorts } from "./enrollment.ports.js";
import { registerEnrollmentRoutes } from "./enrollment.routes.js";
import { BENEFICIARY_ENROLL_JOB, createEnrollmentService } from "./enrollment.service.js";

export type { EnrollmentPorts } from "./enrollment.ports.js";
export {
  BENEFICIARY_ENROLL_JOB,
  ENROLLMENT_STALE_AFTER_MS,
  type EnrollmentService,
} from "./enrollment.service.js";

export interface EnrollmentSettings {
  /** The payout rails per environment (a Beneficiary is enrolled with its environment's rail). */
  readonly rails: RailRegistry;
}

/**
 * Enrollment of Beneficiaries with the payout rail: triggered by beneficiaries, destinations and collection after
 * their commits, queued by the import, run by its job (BENEFICIARY_ENROLL_JOB), retried by its route.
 */
export function defineEnrollment(platform: PlatformServices, settings: EnrollmentSettings, ports: EnrollmentPorts) {
  const service = createEnrollmentService({
    db: platform.db,
    clock: platform.clock,
    ids: platform.ids,
    cipher: platform.cipher,
    events: platform.events,
    rails: settings.rails,
    logger: platform.logger.child({ component: "enrollment" }),
    readBeneficiary: ports.readBeneficiary,
    jobStore: platform.jobStore,
  });
  return defineModule({
    name: "enrollment",
    routeRoles: enrollmentRouteRoles,
    errorCodes: ENROLLMENT_ERRORS,
    registerRoutes: (app) => registerEnrollmentRoutes(app, service),
    jobs: { definitions: [BENEFICIARY_ENROLL_JOB], handlers: service.enrollJobHandler },
    offers: {
      /** For beneficiaries, destinations and collection: enrolls a compliant Beneficiary once their commit is done. */
      enrollAfterCommit: service.enrollAfterCommit,
      /** For the import: queues the enrollment of the rows it created, in its transaction. */
      enqueueEnrollment: service.enqueueEnrollment,
    },
  });
}

export { ENROLLMENT_ERRORS, enrollmentRouteRoles };
