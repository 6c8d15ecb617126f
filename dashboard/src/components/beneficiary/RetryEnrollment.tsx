// Enrolling a Beneficiary with the payout rail again (POST /v1/beneficiaries/{id}/enrollment). The API allows it
// only for a compliant Beneficiary without a pending re-acknowledgment, so the button is offered only then and
// only when the last attempt did not end `verified`; the API's answer (a refusal's wording, 409 while an attempt
// is in flight, 503 when the rail did not answer) is shown beside the button.
import { Button, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { api, call } from "../../api/client";
import { useSession } from "../../lib/session";
import type { Beneficiary } from "../../pages/beneficiaries";
import { ErrorAlert } from "../ErrorAlert";

export function canRetryEnrollment(b: Beneficiary): boolean {
  return (
    b.archived_at === null &&
    b.compliance_status === "compliant" &&
    !b.reacknowledgment_required &&
    b.enrollment_status !== "verified"
  );
}

export function RetryEnrollment({ b, onDone }: { b: Beneficiary; onDone: () => Promise<unknown> }) {
  const { withStepUp } = useSession();
  const [error, setError] = useState<unknown>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!canRetryEnrollment(b) && outcome === null && error === null) return null;

  const retry = async () => {
    setBusy(true);
    setError(null);
    setOutcome(null);
    try {
      const after = await withStepUp(() =>
        call(api.POST("/v1/beneficiaries/{id}/enrollment", { params: { path: { id: b.id } } })),
      );
      setOutcome(
        after.enrollment_status === "verified"
          ? "The rail accepted the enrollment."
          : `The rail refused the enrollment${after.enrollment_failure_detail === null ? "" : `: ${after.enrollment_failure_detail}`}.`,
      );
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
      await onDone();
    }
  };

  return (
    <Stack gap="xs" data-testid="enrollment">
      {canRetryEnrollment(b) && (
        <Button variant="default" loading={busy} onClick={() => void retry()} style={{ alignSelf: "flex-start" }}>
          Retry enrollment
        </Button>
      )}
      {outcome !== null && (
        <Text size="sm" role="status" data-testid="enrollment-outcome">
          {outcome}
        </Text>
      )}
      <ErrorAlert error={error} title="Could not retry the enrollment" />
    </Stack>
  );
}
