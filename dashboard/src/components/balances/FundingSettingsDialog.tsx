// A funding account's enforcement settings (admins; step-up from a session; turning enforcement off or raising the
// overdraft is a weakened control the API records and e-mails to every admin).
import { Alert, NumberInput, Select, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { setFieldErrors } from "../../hooks/api/form-errors";
import { useUpdateFundingAccount } from "../../hooks/api/funding/mutations";
import type { Enforcement, FundingAccount } from "../../hooks/api/funding/types";
import { isControlChange } from "../../hooks/api/payout-limits/types";
import { minorToDecimal, parseMoneyInput } from "../../lib/money";
import { FormDialog } from "../FormDialog";

const LABELS = {
  enforcement: "Enforcement",
  overdraft_limit_minor: "Overdraft limit",
  low_balance_threshold_minor: "Low-balance threshold",
  awaiting_funds_expiry_hours: "Waiting payouts fail after (hours)",
};

export function FundingSettingsDialog(props: { account: FundingAccount; onClose: () => void }) {
  const { account } = props;
  const update = useUpdateFundingAccount();
  // A weakening while maker-checker is on is not applied: the API answers a pending control change (202).
  const [waiting, setWaiting] = useState(false);
  const form = useForm({
    initialValues: {
      enforcement: account.enforcement as string,
      overdraft: minorToDecimal(account.overdraft_limit_minor, account.currency),
      lowBalance:
        account.low_balance_threshold_minor === null ? "" : minorToDecimal(account.low_balance_threshold_minor, account.currency),
      expiryHours: account.awaiting_funds_expiry_hours as number | string,
    },
  });
  const submit = form.onSubmit((values) => {
    const overdraft = /^[0.\s]*$/.test(values.overdraft)
      ? { ok: true as const, amountMinor: 0 }
      : parseMoneyInput(values.overdraft, account.currency);
    if (!overdraft.ok) return form.setFieldError("overdraft", overdraft.message);
    const low = values.lowBalance.trim() === "" ? null : parseMoneyInput(values.lowBalance, account.currency);
    if (low !== null && !low.ok) return form.setFieldError("lowBalance", low.message);
    update.mutate(
      {
        id: account.id,
        changes: {
          enforcement: values.enforcement as Enforcement,
          overdraft_limit_minor: overdraft.amountMinor,
          low_balance_threshold_minor: low === null ? null : low.amountMinor,
          awaiting_funds_expiry_hours: Number(values.expiryHours),
        },
      },
      {
        onSuccess: (answer) => (isControlChange(answer) ? setWaiting(true) : props.onClose()),
        onError: (error) =>
          setFieldErrors(form, error, {
            aliases: {
              overdraft_limit_minor: "overdraft",
              low_balance_threshold_minor: "lowBalance",
              awaiting_funds_expiry_hours: "expiryHours",
            },
          }),
      },
    );
  });
  return (
    <FormDialog
      title={`Settings of ${account.name}`}
      onClose={props.onClose}
      onSubmit={submit}
      submitLabel="Save settings"
      busy={update.isPending}
      error={update.error}
      errorTitle="The settings were not saved"
      fieldLabels={LABELS}
    >
      <Select
        label={LABELS.enforcement}
        description="Track only records every posting but never makes a payout wait; enforce holds approved payouts until the balance covers them."
        data={[
          { value: "track_only", label: "Track only" },
          { value: "enforce", label: "Enforce" },
        ]}
        allowDeselect={false}
        {...form.getInputProps("enforcement")}
      />
      <TextInput
        label={`${LABELS.overdraft_limit_minor} (${account.currency})`}
        inputMode="decimal"
        {...form.getInputProps("overdraft")}
      />
      <TextInput
        label={`${LABELS.low_balance_threshold_minor} (${account.currency})`}
        description="Empty: no alert"
        inputMode="decimal"
        {...form.getInputProps("lowBalance")}
      />
      <NumberInput
        label={LABELS.awaiting_funds_expiry_hours}
        min={1}
        allowDecimal={false}
        {...form.getInputProps("expiryHours")}
      />
      <Text size="xs" c="dimmed">
        Turning enforcement off or raising the overdraft is recorded and e-mailed to every admin.
      </Text>
      {waiting && (
        <Alert color="yellow" title="Waiting for a second admin" data-testid="waiting-for-second-admin">
          Maker-checker is on, so this change applies only once another admin approves it (Settings, Limits).
        </Alert>
      )}
    </FormDialog>
  );
}
