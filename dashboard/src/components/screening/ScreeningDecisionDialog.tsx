// Clearing (a false positive) or confirming a Beneficiary's open screening hits, with the reason the API keeps on
// each hit and in the audit log. The API's refusal (the person whose change was screened, a hit decided
// meanwhile) is shown in the dialog, in the API's words.
import { Text, Textarea } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useDecideScreening } from "../../hooks/api/screening/mutations";
import type { ScreeningOutcome } from "../../hooks/api/screening/types";
import { FormDialog } from "../FormDialog";

export function ScreeningDecisionDialog(props: {
  outcome: ScreeningOutcome;
  beneficiaryId: string;
  beneficiaryName: string;
  onClose: () => void;
}) {
  const decide = useDecideScreening();
  const form = useForm({
    initialValues: { reason: "" },
    validate: { reason: (value) => (value.trim() === "" ? "Give the reason for the record." : null) },
  });
  const clear = props.outcome === "clear";
  return (
    <FormDialog
      title={
        clear ? `Clear the screening hits of ${props.beneficiaryName}` : `Confirm the screening match of ${props.beneficiaryName}`
      }
      onClose={props.onClose}
      onSubmit={form.onSubmit((values) =>
        decide.mutate(
          { outcome: props.outcome, beneficiaryId: props.beneficiaryId, reason: values.reason.trim() },
          { onSuccess: props.onClose },
        ),
      )}
      submitLabel={clear ? "Clear hits" : "Confirm match"}
      busy={decide.isPending}
      error={decide.error}
      errorTitle={clear ? "The hits were not cleared" : "The match was not confirmed"}
      fieldLabels={{ reason: "Reason" }}
    >
      <Text size="sm">
        {clear
          ? "Every open hit of this Beneficiary becomes a false positive: new payouts are accepted again and approved payouts held by the hits are sent."
          : "Every open hit of this Beneficiary becomes a confirmed match: new payouts stay refused and approved ones stay held while the entry is listed."}{" "}
        Another admin than the person whose change was screened must decide.
      </Text>
      <Textarea label="Reason" required autosize minRows={2} maxLength={500} {...form.getInputProps("reason")} />
    </FormDialog>
  );
}
