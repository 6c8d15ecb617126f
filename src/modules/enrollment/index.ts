import type { Actor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { FieldCipher } from "../../platform/crypto.js";
import type { Db } from "../../platform/db/client.js";
import type { EventRecorder } from "../../platform/events/outbox.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { IdGenerator } from "../../platform/ids.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import type { JobHandlers } from "../../platform/jobs/worker.js";
import type { RailRegistry } from "../../rails/rail.js";
import type { BeneficiaryBody } from "../beneficiaries/index.js";
import { registerEnrollmentRoutes } from "./enrollment.routes.js";
import { createEnrollmentService, type EnrollmentLogger } from "./enrollment.service.js";

export type EnrollmentModule = ReturnType<typeof createEnrollmentModule>;
export { enrollmentRouteRoles } from "./enrollment.access.js";
export { ENROLLMENT_ERRORS } from "./enrollment.errors.js";
export {
  BENEFICIARY_ENROLL_JOB,
  ENROLLMENT_STALE_AFTER_MS,
  type EnrollmentService,
} from "./enrollment.service.js";

export function createEnrollmentModule(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  cipher: FieldCipher;
  events: EventRecorder;
  rails: RailRegistry;
  logger: EnrollmentLogger;
  readBeneficiary: (actor: Actor, id: string) => Promise<BeneficiaryBody>;
  jobStore: Pick<JobStore, "enqueue">;
}) {
  const service = createEnrollmentService(deps);
  return { service, registerRoutes: (app: AppInstance) => registerEnrollmentRoutes(app, service) };
}

/** The worker's BENEFICIARY_ENROLL_JOB handler (no HTTP: the worker may run without the API). */
export function createEnrollmentJobHandlers(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  cipher: FieldCipher;
  events: EventRecorder;
  rails: RailRegistry;
  logger: EnrollmentLogger;
}): JobHandlers {
  return createEnrollmentService(deps).enrollJobHandler;
}
