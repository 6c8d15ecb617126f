// The approval policy of the chosen environment (GET|PUT /v1/approval-policy): ordered rules (the first whose
// every condition holds decides at creation) and maker-checker. Amounts are typed in the rule's currency and
// sent in minor units by its exponent; a rule without a currency compares raw minor units, so its fields say
// so. The API's validation details (`rules[0].name`) are shown beside the field they name.
import { Button, Card, Checkbox, Group, NativeSelect, Stack, Switch, Text, TextInput, Title } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { ApiError, api, call, type Schemas } from "../../api/client";
import { minorToDecimal, parseMoneyInput } from "../../lib/money";
import { useSession, useSignedIn } from "../../lib/session";
import { ErrorAlert } from "../ErrorAlert";
import { Time } from "../Time";

type Rule = Schemas["ApprovalPolicy"]["rules"][number];
interface RuleDraft {
  key: number;
  name: string;
  outcome: Rule["outcome"];
  currency: string;
  min: string;
  max: string;
  api: boolean;
  csv: boolean;
  minAge: string;
  maxAge: string;
}

let nextKey = 1;
function draftOf(rule: Rule): RuleDraft {
  const money = (value: number | undefined) =>
    value === undefined ? "" : rule.currency !== undefined ? minorToDecimal(value, rule.currency) : String(value);
  return {
    key: nextKey++,
    name: rule.name,
    outcome: rule.outcome,
    currency: rule.currency ?? "",
    min: money(rule.min_amount_minor),
    max: money(rule.max_amount_minor),
    api: rule.channels === undefined || rule.channels.includes("api"),
    csv: rule.channels === undefined || rule.channels.includes("csv"),
    minAge: rule.min_beneficiary_age_hours === undefined ? "" : String(rule.min_beneficiary_age_hours),
    maxAge: rule.max_beneficiary_age_hours === undefined ? "" : String(rule.max_beneficiary_age_hours),
  };
}
const emptyDraft = (): RuleDraft => ({
  key: nextKey++,
  name: "",
  outcome: "approve",
  currency: "",
  min: "",
  max: "",
  api: true,
  csv: true,
  minAge: "",
  maxAge: "",
});

type FieldErrors = Record<string, string>;

/** Drafts -> the request body, or the fields the browser can already tell are wrong. */
function toRules(drafts: RuleDraft[]): { rules: Rule[]; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const rules = drafts.map((d, i) => {
    const currency = d.currency.trim().toUpperCase();
    const rule: Rule = { name: d.name.trim(), outcome: d.outcome };
    if (currency !== "") rule.currency = currency;
    const amount = (text: string, field: "min_amount_minor" | "max_amount_minor") => {
      if (text.trim() === "") return;
      if (currency === "") {
        if (!/^\d+$/.test(text.trim())) errors[`rules[${i}].${field}`] = "Without a currency, enter whole minor units";
        else rule[field] = Number(text.trim());
        return;
      }
      const parsed = parseMoneyInput(text, currency);
      if (parsed.ok) rule[field] = parsed.amountMinor;
      else errors[`rules[${i}].${field}`] = parsed.message;
    };
    amount(d.min, "min_amount_minor");
    amount(d.max, "max_amount_minor");
    if (!d.api || !d.csv) {
      const channels: ("api" | "csv")[] = [];
      if (d.api) channels.push("api");
      if (d.csv) channels.push("csv");
      if (channels.length === 0) errors[`rules[${i}].channels`] = "Choose at least one channel";
      else rule.channels = channels;
    }
    const hours = (text: string, field: "min_beneficiary_age_hours" | "max_beneficiary_age_hours") => {
      if (text.trim() === "") return;
      if (!/^\d+$/.test(text.trim())) errors[`rules[${i}].${field}`] = "Enter whole hours";
      else rule[field] = Number(text.trim());
    };
    hours(d.minAge, "min_beneficiary_age_hours");
    hours(d.maxAge, "max_beneficiary_age_hours");
    return rule;
  });
  return { rules, errors };
}

export function ApprovalPolicyEditor() {
  const { environment, membership } = useSignedIn();
  const { withStepUp } = useSession();
  const queryClient = useQueryClient();
  const admin = membership.role === "business_admin";
  const policy = useQuery({
    queryKey: [environment, "approval-policy"],
    queryFn: () => call(api.GET("/v1/approval-policy")),
  });
  const [drafts, setDrafts] = useState<RuleDraft[]>([]);
  const [makerChecker, setMakerChecker] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (policy.data === undefined) return;
    setDrafts(policy.data.rules.map(draftOf));
    setMakerChecker(policy.data.maker_checker);
  }, [policy.data]);

  // The API names a field `rules[0].name` (its validation's path); local checks use the same names.
  const fieldError = (i: number, field: string): string | undefined => {
    const key = `rules[${i}].${field}`;
    if (local[key] !== undefined) return local[key];
    if (error instanceof ApiError) {
      const detail = error.body.details?.find((d) => d.field === key || d.field.startsWith(`${key}.`));
      if (detail !== undefined) return `${detail.message} (${detail.code})`;
    }
    return undefined;
  };
  const update = (key: number, change: Partial<RuleDraft>) =>
    setDrafts((all) => all.map((d) => (d.key === key ? { ...d, ...change } : d)));
  const move = (index: number, by: number) =>
    setDrafts((all) => {
      const next = [...all];
      const [item] = next.splice(index, 1);
      if (item !== undefined) next.splice(index + by, 0, item);
      return next;
    });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    setError(null);
    const { rules, errors } = toRules(drafts);
    setLocal(errors);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    try {
      const answer = await withStepUp(() =>
        call(api.PUT("/v1/approval-policy", { body: { rules, maker_checker: makerChecker } })),
      );
      queryClient.setQueryData([environment, "approval-policy"], answer);
      setSaved(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  if (policy.isPending) return <Text c="dimmed">Loading the approval policy…</Text>;
  if (policy.isError) return <ErrorAlert error={policy.error} />;

  return (
    <form onSubmit={(e) => void save(e)} aria-label="Approval policy">
      <Stack>
        <Text size="sm">
          Rules are checked in order when a payout is created; the first rule whose every condition holds approves or rejects it.
          A payout no rule matches waits for a person. Last changed:{" "}
          {policy.data.updated_at === null ? "never" : <Time value={policy.data.updated_at} />}.
        </Text>
        <Switch
          label="Maker-checker: the person who created a payout may not approve it"
          checked={makerChecker}
          disabled={!admin}
          onChange={(e) => setMakerChecker(e.currentTarget.checked)}
        />
        {drafts.length === 0 && (
          <Text c="dimmed" data-testid="no-rules">
            No rules: every payout waits for a person.
          </Text>
        )}
        {drafts.map((d, i) => {
          const unit = d.currency.trim() === "" ? " (minor units)" : ` (${d.currency.trim().toUpperCase()})`;
          return (
            <Card key={d.key} withBorder data-testid="policy-rule">
              <Stack gap="xs">
                <Group justify="space-between">
                  <Title order={3} size="h5">
                    Rule {i + 1}
                  </Title>
                  {admin && (
                    <Group gap={4}>
                      <Button
                        size="xs"
                        variant="default"
                        disabled={i === 0}
                        onClick={() => move(i, -1)}
                        aria-label={`Move rule ${i + 1} up`}
                      >
                        Up
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        disabled={i === drafts.length - 1}
                        onClick={() => move(i, 1)}
                        aria-label={`Move rule ${i + 1} down`}
                      >
                        Down
                      </Button>
                      <Button
                        size="xs"
                        variant="outline"
                        color="red"
                        onClick={() => setDrafts((all) => all.filter((x) => x.key !== d.key))}
                        aria-label={`Delete rule ${i + 1}`}
                      >
                        Delete
                      </Button>
                    </Group>
                  )}
                </Group>
                <Group grow align="flex-start" wrap="wrap">
                  <TextInput
                    label="Name"
                    value={d.name}
                    readOnly={!admin}
                    error={fieldError(i, "name")}
                    onChange={(e) => update(d.key, { name: e.currentTarget.value })}
                    miw={180}
                  />
                  <NativeSelect
                    label="Outcome"
                    data={[
                      { value: "approve", label: "Approve" },
                      { value: "reject", label: "Reject" },
                    ]}
                    value={d.outcome}
                    disabled={!admin}
                    onChange={(e) => update(d.key, { outcome: e.currentTarget.value as Rule["outcome"] })}
                    miw={140}
                  />
                  <TextInput
                    label="Currency"
                    placeholder="Any"
                    value={d.currency}
                    readOnly={!admin}
                    maxLength={3}
                    error={fieldError(i, "currency")}
                    onChange={(e) => update(d.key, { currency: e.currentTarget.value })}
                    miw={100}
                  />
                </Group>
                <Group grow align="flex-start" wrap="wrap">
                  <TextInput
                    label={`From amount${unit}`}
                    inputMode="decimal"
                    value={d.min}
                    readOnly={!admin}
                    error={fieldError(i, "min_amount_minor")}
                    onChange={(e) => update(d.key, { min: e.currentTarget.value })}
                    miw={140}
                  />
                  <TextInput
                    label={`Up to amount${unit}`}
                    inputMode="decimal"
                    value={d.max}
                    readOnly={!admin}
                    error={fieldError(i, "max_amount_minor")}
                    onChange={(e) => update(d.key, { max: e.currentTarget.value })}
                    miw={140}
                  />
                  <TextInput
                    label="Beneficiary at least (hours old)"
                    inputMode="numeric"
                    value={d.minAge}
                    readOnly={!admin}
                    error={fieldError(i, "min_beneficiary_age_hours")}
                    onChange={(e) => update(d.key, { minAge: e.currentTarget.value })}
                    miw={140}
                  />
                  <TextInput
                    label="Beneficiary at most (hours old)"
                    inputMode="numeric"
                    value={d.maxAge}
                    readOnly={!admin}
                    error={fieldError(i, "max_beneficiary_age_hours")}
                    onChange={(e) => update(d.key, { maxAge: e.currentTarget.value })}
                    miw={140}
                  />
                </Group>
                <Group gap="md">
                  <Checkbox
                    label="Created through the API"
                    checked={d.api}
                    disabled={!admin}
                    onChange={(e) => update(d.key, { api: e.currentTarget.checked })}
                  />
                  <Checkbox
                    label="Uploaded in a CSV file"
                    checked={d.csv}
                    disabled={!admin}
                    onChange={(e) => update(d.key, { csv: e.currentTarget.checked })}
                  />
                </Group>
                {fieldError(i, "channels") !== undefined && (
                  <Text size="xs" c="red.9">
                    {fieldError(i, "channels")}
                  </Text>
                )}
              </Stack>
            </Card>
          );
        })}
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
        {admin ? (
          <Group>
            <Button variant="default" onClick={() => setDrafts((all) => [...all, emptyDraft()])}>
              Add a rule
            </Button>
            <Button type="submit" loading={busy}>
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
