import { Type } from "@sinclair/typebox";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { BENEFICIARY_ERRORS } from "../beneficiaries/beneficiaries.errors.js";
import { ENROLLMENT_ERRORS } from "./enrollment.errors.js";
import type { EnrollmentService } from "./enrollment.service.js";

const BeneficiaryIdParamsSchema = Type.Object({ id: Type.String({ format: "uuid" }) });

export function registerEnrollmentRoutes(app: AppInstance, service: EnrollmentService): void {
  app.post(
    "/v1/beneficiaries/:id/enrollment",
    {
      schema: {
        tags: ["Beneficiaries"],
        operationId: "enrollBeneficiary",
        summary: "Enroll the Beneficiary with the payout rail again",
        description:
          "A synchronous enrollment attempt with the environment's payout rail; no body. Enrollment also happens on its own when the Beneficiary is acknowledged and when a destination is registered for a compliant Beneficiary. " +
          "This route resubmits every live destination the rail has not verified (refused ones included; while the attempt is in flight `enrollment_status` is `pending` and the failure fields and the resubmitted accounts' `rail_rejection_reason` are null), or makes a person-level check when there is none. " +
          "Answers 200 with the Beneficiary after the attempt: `enrollment_status` `verified`, or `rejected` with `enrollment_failure_detail` (the rail's wording) and `enrollment_failure_bank_account_id` (the refused account, whose `rail_rejection_reason` repeats the wording; null for a person-level refusal); a refusal records `beneficiary.enrollment_rejected`. " +
          "422 `ENROLLMENT_NOT_ALLOWED` unless the Beneficiary is `compliant` without a pending re-acknowledgment; 409 `ENROLLMENT_IN_PROGRESS` while another attempt started less than 60 s ago is pending; 503 `RAIL_UNAVAILABLE` when the rail did not answer (nothing changed).",
        params: BeneficiaryIdParamsSchema,
        response: routeResponses(
          { 200: Type.Ref("Beneficiary") },
          {
            access: "write",
            hasInput: true,
            codes: [
              "not_found",
              BENEFICIARY_ERRORS.BENEFICIARY_ARCHIVED,
              ENROLLMENT_ERRORS.ENROLLMENT_NOT_ALLOWED,
              ENROLLMENT_ERRORS.ENROLLMENT_IN_PROGRESS,
              ENROLLMENT_ERRORS.RAIL_UNAVAILABLE,
            ],
          },
        ),
      },
    },
    async (request) => service.retry(requireActor(request), request.params.id),
  );
}
