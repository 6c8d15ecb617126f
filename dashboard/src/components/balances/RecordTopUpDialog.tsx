// Recording a top-up: money the Business moved into a funding account's bank account, in that account's currency,
// with the transfer's reference. It credits nothing until someone else approves it.
import { Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { setFieldErrors } from "../../hooks/api/form-errors";
import type { FundingAccount } from "../../hooks/api/funding/types";
import { useRecordTopUp } from "../../hooks/api/top-ups/mutations";
import { parseMoneyInput } from "../../lib/money";
import { FormDialog } from "../FormDialog";

export function RecordTopUpDialog(props: { account: FundingAccount; onClose: () => void }) {
  const { account } = props;
  const record = useRecordTopUp();
  const form = useForm({ initialValues: { amount: "", reference: "" } });
  const submit = form.onSubmit((values) => {
    const parsed = parseMoneyInput(values.amount, account.currency);
    if (!parsed.ok) {
      form.setFieldError("amount", parsed.message);
      return;
    }
    record.mutate(
      { fundingAccountId: account.id, amountMinor: parsed.amountMinor, reference: values.reference.trim() },
      {
        onSuccess: props.onClose,
        onError: (error) => setFieldErrors(form, error, { aliases: { amount_minor: "amount" } }),
      },
    );
  });
  return (
    <FormDialog
      title={`Record a top-up of ${account.name}`}
      onClose={props.onClose}
      onSubmit={submit}
      submitLabel="Record top-up"
      busy={record.isPending}
      error={record.error}
      errorTitle="The top-up was not recorded"
      fieldLabels={{ amount_minor: "Amount", reference: "Reference" }}
    >
      <Text size="sm">It waits for another approver or admin: the balance changes only when they approve it.</Text>
      <TextInput
        label={`Amount (${account.currency})`}
        inputMode="decimal"
        placeholder="1250.00"
        {...form.getInputProps("amount")}
        required
        data-autofocus
      />
      <TextInput
        label="Reference"
        description="The bank transfer's reference, as the statement will show it"
        maxLength={140}
        {...form.getInputProps("reference")}
        required
      />
    </FormDialog>
  );
}
