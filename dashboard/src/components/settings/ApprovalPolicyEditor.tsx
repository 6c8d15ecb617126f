// The approval policy of the chosen environment (GET|PUT /v1/approval-policy): ordered rules (the first whose
// every condition holds decides at creation) and maker-checker. Amounts are typed in the rule's currency and
// sent in minor units by its exponent; a rule without a currency compares raw minor units, so its fields say
// so. The API's validation details (`rules[0].name`) are shown beside the field they name. The rules' drafts
// and their checks are approval-policy/rules.ts, one rule's card approval-policy/RuleCard.tsx.
import { Alert, Badge, Button, Group, Stack, Switch, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useEffect } from "react";
import { ApiError } from "../../api/client";
import { useReplaceApprovalPolicy } from "../../hooks/api/approval-policy/mutations";
import { useApprovalPolicy } from "../../hooks/api/approval-policy/queries";
import { setFieldErrors, withCode } from "../../hooks/api/form-errors";
import { isControlChange } from "../../hooks/api/payout-limits/types";
import { useSignedIn } from "../../lib/session";
import { ErrorAlert } from "../ErrorAlert";
import { Time } from "../Time";
import { RuleCard } from "./approval-policy/RuleCard";
import { draftOf, emptyDraft, type PolicyValues, toRules } from "./approval-policy/rules";

export function ApprovalPolicyEditor() {
  const { membership } = useSignedIn();
  const admin = membership.role === "business_admin";
  const policy = useApprovalPolicy();
  const replace = useReplaceApprovalPolicy();
  // The browser's own checks run first (amounts in the rule's currency, whole hours, a channel); the API's
  // refusals then land on the fields they name, with their codes.
  const form = useForm<PolicyValues>({
    initialValues: { makerChecker: false, rules: [] },
    validate: (values) => toRules(values.rules).errors,
  });
  const { setValues } = form;
  const error = replace.error;

  useEffect(() => {
    if (policy.data === undefined) return;
    setValues({ rules: policy.data.rules.map(draftOf), makerChecker: policy.data.maker_checker });
  }, [policy.data, setValues]);

  const save = form.onSubmit(
    (values) =>
      replace.mutate(
        { rules: toRules(values.rules).rules, maker_checker: values.makerChecker },
        { onError: (refusal) => setFieldErrors(form, refusal, { format: withCode }) },
      ),
    // Refused by the browser's checks: the last answer (saved, or the API's refusal) no longer applies.
    () => replace.reset(),
  );
  const saved = replace.isSuccess && !isControlChange(replace.data);
  const waiting = replace.isSuccess && isControlChange(replace.data);

  if (policy.isPending) return <Text c="dimmed">Loading the approval policy…</Text>;
  if (policy.isError) return <ErrorAlert error={policy.error} />;

  return (
    <form onSubmit={save} aria-label="Approval policy">
      <Stack>
        <Text size="sm">
          Rules are checked in order when a payout is created; the first rule whose every condition holds approves or rejects it.
          A payout no rule matches waits for a person. Last changed:{" "}
          {policy.data.updated_at === null ? "never" : <Time value={policy.data.updated_at} />}.
        </Text>
        {admin ? (
          <Switch
            label="Maker-checker: the person who created a payout may not approve it"
            {...form.getInputProps("makerChecker", { type: "checkbox", withError: false })}
          />
        ) : (
          // Not a greyed-out switch, which reads as "off" even when on: the state in words and colour.
          <Group gap="xs" data-testid="maker-checker-state">
            <Badge color={form.values.makerChecker ? "teal.9" : "gray.7"} variant="filled" autoContrast>
              {form.values.makerChecker ? "On" : "Off"}
            </Badge>
            <Text size="sm">Maker-checker: the person who created a payout may not approve it</Text>
          </Group>
        )}
        {form.values.rules.length === 0 && (
          <Text c="dimmed" data-testid="no-rules">
            No rules: every payout waits for a person.
          </Text>
        )}
        {form.values.rules.map((d, i) => (
          <RuleCard key={d.key} form={form} index={i} admin={admin} />
        ))}
        {error instanceof ApiError && (error.body.details?.length ?? 0) > 0 ? (
          <Text size="sm" c="red.9" role="alert">
            {error.message} ({error.code})
          </Text>
        ) : (
          <ErrorAlert error={error} />
        )}
        {saved && (
          <Text role="status" c="teal.9">
            Approval policy saved.
          </Text>
        )}
        {waiting && (
          <Alert color="yellow" title="Waiting for a second admin" data-testid="waiting-for-second-admin">
            Maker-checker is on, so this weakening applies only once another admin approves it (Settings, Limits).
          </Alert>
        )}
        {admin ? (
          <Group>
            <Button variant="default" onClick={() => form.insertListItem("rules", emptyDraft())}>
              Add a rule
            </Button>
            <Button type="submit" loading={replace.isPending}>
              Save policy
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            Only admins change the approval policy.
          </Text>
        )}
      </Stack>
    </form>
  );
}
