// What the enrollment module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { Actor } from "../../platform/auth/actor.js";
import type { BeneficiaryBody } from "../beneficiaries/index.js";

export interface EnrollmentPorts {
  /**
   * From the beneficiaries module: the Beneficiary as the API presents it (the retry route answers it). The
   * beneficiaries module itself triggers enrollments, so this port is filled after both are defined
   * (src/composition.ts, "the two loops").
   */
  readonly readBeneficiary: (actor: Actor, id: string) => Promise<BeneficiaryBody>;
}
