// The destination policy of the chosen environment (GET|PUT /v1/destination-policy): approval of new and changed
// bank details by a second person, the cooling-off before a destination may be paid, the payee name check and
// sanctions screening. Admins change it (relaxing it asks a confirmation and e-mails every admin; with maker-checker
// on, a relaxation is not applied but waits for a second admin, shown here as waiting).
import { Alert, Button, NumberInput, Select, Stack, Switch, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useEffect } from "react";
import { type DestinationPolicyInput, useUpdateDestinationPolicy } from "../../hooks/api/destination-approvals/mutations";
import { useDestinationPolicy } from "../../hooks/api/destination-approvals/queries";
import { setFieldErrors, withCode } from "../../hooks/api/form-errors";
import { isControlChange } from "../../hooks/api/payout-limits/types";
import { useSignedIn } from "../../lib/session";
import { ErrorAlert } from "../ErrorAlert";
import { Time } from "../Time";

interface Values {
  require_approval: boolean;
  cooling_off_hours: number;
  name_check: "off" | "warn" | "block";
  screening: "off" | "on";
}

export function DestinationPolicyEditor() {
  const { membership } = useSignedIn();
  const admin = membership.role === "business_admin";
  const policy = useDestinationPolicy();
  const update = useUpdateDestinationPolicy();
  const form = useForm<Values>({
    initialValues: { require_approval: false, cooling_off_hours: 0, name_check: "off", screening: "off" },
    validate: {
      cooling_off_hours: (v) => (Number.isInteger(v) && v >= 0 && v <= 720 ? null : "Whole hours from 0 to 720."),
    },
  });
  const { setValues } = form;
  useEffect(() => {
    if (policy.data === undefined) return;
    const { require_approval, cooling_off_hours, name_check, screening } = policy.data;
    setValues({ require_approval, cooling_off_hours, name_check, screening });
  }, [policy.data, setValues]);

  const waiting = update.isSuccess && isControlChange(update.data);
  const saved = update.isSuccess && !waiting;

  if (policy.isPending) return <Text c="dimmed">Loading the destination policy…</Text>;
  if (policy.isError) return <ErrorAlert error={policy.error} />;

  const save = form.onSubmit(
    (values) =>
      update.mutate(values satisfies DestinationPolicyInput, {
        onError: (refusal) => setFieldErrors(form, refusal, { format: withCode }),
      }),
    () => update.reset(),
  );
  return (
    <form onSubmit={save} aria-label="Destination policy">
      <Stack maw={560}>
        <Text size="sm">
          Controls on where money goes. Last changed:{" "}
          {policy.data.updated_at === null ? "never" : <Time value={policy.data.updated_at} />}.
        </Text>
        <Switch
          label="Require approval: new and changed bank details wait until a person other than the one who added them approves"
          disabled={!admin}
          {...form.getInputProps("require_approval", { type: "checkbox" })}
        />
        <NumberInput
          label="Cooling-off (hours)"
          description="Hours after approval (or creation) before a destination may be paid; restarted when it becomes the declared destination."
          min={0}
          max={720}
          allowDecimal={false}
          disabled={!admin}
          {...form.getInputProps("cooling_off_hours")}
        />
        <Select
          label="Payee name check"
          data={[
            { value: "off", label: "Off" },
            { value: "warn", label: "Warn approvers" },
            { value: "block", label: "Block a mismatch" },
          ]}
          allowDeselect={false}
          disabled={!admin}
          {...form.getInputProps("name_check")}
        />
        <Select
          label="Sanctions screening"
          data={[
            { value: "off", label: "Off" },
            { value: "on", label: "On" },
          ]}
          allowDeselect={false}
          disabled={!admin}
          {...form.getInputProps("screening")}
        />
        <ErrorAlert error={update.error} />
        {saved && (
          <Text role="status" c="teal.9">
            Destination policy saved.
          </Text>
        )}
        {waiting && (
          <Alert color="yellow" title="Waiting for a second admin" data-testid="waiting-for-second-admin">
            Maker-checker is on, so relaxing the destination policy applies only once another admin approves it (Settings,
            Limits).
          </Alert>
        )}
        {admin ? (
          <Button type="submit" loading={update.isPending} w="fit-content">
            Save destination policy
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            Only admins change the destination policy.
          </Text>
        )}
      </Stack>
    </form>
  );
}
