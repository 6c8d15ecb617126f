// Approving or rejecting one top-up, confirmed in a dialog (step-up asked by the mutation when the API wants it).
// Approving credits the funding account at once; rejecting needs a reason and credits nothing.
import { Stack, Text, Textarea } from "@mantine/core";
import { useForm } from "@mantine/form";
import { setFieldErrors } from "../../hooks/api/form-errors";
import { useDecideTopUp } from "../../hooks/api/top-ups/mutations";
import type { TopUp } from "../../hooks/api/top-ups/types";
import { FormDialog } from "../FormDialog";
import { Money } from "../Money";

export function TopUpDecisionDialog(props: { outcome: "approve" | "reject"; topUp: TopUp; onClose: () => void }) {
  const { topUp, outcome } = props;
  const decide = useDecideTopUp();
  const form = useForm({ initialValues: { reason: "" } });
  const submit = form.onSubmit(({ reason }) => {
    if (outcome === "reject" && reason.trim() === "") {
      form.setFieldError("reason", "Say why it is rejected");
      return;
    }
    decide.mutate(
      { id: topUp.id, decision: outcome === "approve" ? { outcome } : { outcome, reason: reason.trim() } },
      { onSuccess: props.onClose, onError: (error) => setFieldErrors(form, error) },
    );
  });
  return (
    <FormDialog
      title={outcome === "approve" ? "Approve top-up" : "Reject top-up"}
      onClose={props.onClose}
      onSubmit={submit}
      submitLabel={outcome === "approve" ? "Approve" : "Reject"}
      busy={decide.isPending}
      error={decide.error}
      errorTitle={outcome === "approve" ? "The top-up was not approved" : "The top-up was not rejected"}
    >
      <Stack gap={4}>
        <Text size="sm">
          <Money minor={topUp.amount_minor} currency={topUp.currency} />, reference {topUp.reference}
        </Text>
        <Text size="sm" c="dimmed">
          {outcome === "approve"
            ? "The funding account is credited now, and payouts waiting for funds are tried again."
            : "Nothing is credited. The reason is kept on the top-up."}
        </Text>
      </Stack>
      {outcome === "reject" && (
        <Textarea label="Reason" {...form.getInputProps("reason")} maxLength={500} autosize minRows={2} required data-autofocus />
      )}
    </FormDialog>
  );
}
