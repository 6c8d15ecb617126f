// Enrolling a Beneficiary with the payout rail again (POST /v1/beneficiaries/{id}/enrollment). The API allows it
// only for a compliant Beneficiary without a pending re-acknowledgment, so the button is offered only then and
// only when the last attempt did not end `verified`; the API's answer (a refusal's wording, 409 while an attempt
// is in flight, 503 when the rail did not answer) is shown beside the button.
import { Button, Stack, Text } from "@mantine/core";
import { useRetryEnrollment } from "../../hooks/api/beneficiaries/mutations";
import type { Beneficiary } from "../../hooks/api/beneficiaries/types";
import { MutationError } from "../MutationError";

export function canRetryEnrollment(b: Beneficiary): boolean {
  return (
    b.archived_at === null &&
    b.compliance_status === "compliant" &&
    !b.reacknowledgment_required &&
    b.enrollment_status !== "verified"
  );
}

function outcomeOf(after: Beneficiary): string {
  return after.enrollment_status === "verified"
    ? "The rail accepted the enrollment."
    : `The rail refused the enrollment${after.enrollment_failure_detail === null ? "" : `: ${after.enrollment_failure_detail}`}.`;
}

export function RetryEnrollment({ b }: { b: Beneficiary }) {
  const retry = useRetryEnrollment(b.id);
  // The last attempt's answer stays shown after the page reads the Beneficiary again (it may then be verified).
  const outcome = retry.data === undefined ? null : outcomeOf(retry.data);
  if (!canRetryEnrollment(b) && outcome === null && retry.error === null) return null;

  return (
    <Stack gap="xs" data-testid="enrollment">
      {canRetryEnrollment(b) && (
        <Button variant="default" loading={retry.isPending} onClick={() => retry.mutate()} style={{ alignSelf: "flex-start" }}>
          Retry enrollment
        </Button>
      )}
      {outcome !== null && (
        <Text size="sm" role="status" data-testid="enrollment-outcome">
          {outcome}
        </Text>
      )}
      <MutationError mutation={retry} title="Could not retry the enrollment" />
    </Stack>
  );
}
