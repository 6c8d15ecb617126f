// One rule of the approval policy editor: its name, outcome and conditions, moved and deleted by admins.
import { Button, Card, Checkbox, Group, NativeSelect, Stack, Text, TextInput, Title } from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import { currencyLabel } from "../../../lib/labels";
import { CurrencySelect } from "../../CodePickers";
import type { PolicyValues } from "./rules";

export function RuleCard({ form, index: i, admin }: { form: UseFormReturnType<PolicyValues>; index: number; admin: boolean }) {
  const rules = form.values.rules;
  const d = rules[i];
  if (d === undefined) return null;
  const path = (field: string) => `rules.${i}.${field}`;
  // Both amount fields always name the same unit, said once under each: the currency's units when the rule has
  // a currency, else minor units (cents), the only unit every currency shares.
  const currency = d.currency.trim().toUpperCase();
  const unit =
    currency === "" ? "In minor units (cents) of any currency" : `In ${currencyLabel(currency)} (${currency}), e.g. 250.00`;
  const channelsError = form.errors[path("channels")];
  return (
    <Card withBorder data-testid="policy-rule">
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
                onClick={() => form.reorderListItem("rules", { from: i, to: i - 1 })}
                aria-label={`Move rule ${i + 1} up`}
              >
                Up
              </Button>
              <Button
                size="xs"
                variant="default"
                disabled={i === rules.length - 1}
                onClick={() => form.reorderListItem("rules", { from: i, to: i + 1 })}
                aria-label={`Move rule ${i + 1} down`}
              >
                Down
              </Button>
              <Button
                size="xs"
                variant="outline"
                color="red"
                onClick={() => form.removeListItem("rules", i)}
                aria-label={`Delete rule ${i + 1}`}
              >
                Delete
              </Button>
            </Group>
          )}
        </Group>
        <Group grow align="flex-start" wrap="wrap">
          <TextInput label="Name" readOnly={!admin} miw={180} {...form.getInputProps(path("name"))} />
          <NativeSelect
            label="Outcome"
            data={[
              { value: "approve", label: "Approve" },
              { value: "reject", label: "Reject" },
            ]}
            disabled={!admin}
            miw={140}
            {...form.getInputProps(path("outcome"), { withError: false })}
          />
          <CurrencySelect
            label="Currency"
            placeholder="Any currency"
            readOnly={!admin}
            miw={160}
            {...form.getInputProps(path("currency"))}
          />
        </Group>
        <Group grow align="flex-start" wrap="wrap">
          <TextInput
            label="From amount"
            description={unit}
            inputMode="decimal"
            readOnly={!admin}
            miw={140}
            {...form.getInputProps(path("min_amount_minor"))}
          />
          <TextInput
            label="Up to amount"
            description={unit}
            inputMode="decimal"
            readOnly={!admin}
            miw={140}
            {...form.getInputProps(path("max_amount_minor"))}
          />
          <TextInput
            label="Beneficiary at least (hours old)"
            inputMode="numeric"
            readOnly={!admin}
            miw={140}
            {...form.getInputProps(path("min_beneficiary_age_hours"))}
          />
          <TextInput
            label="Beneficiary at most (hours old)"
            inputMode="numeric"
            readOnly={!admin}
            miw={140}
            {...form.getInputProps(path("max_beneficiary_age_hours"))}
          />
        </Group>
        <Group gap="md">
          <Checkbox
            label="Created through the API"
            disabled={!admin}
            {...form.getInputProps(path("channels.api"), { type: "checkbox", withError: false })}
          />
          <Checkbox
            label="Uploaded in a CSV file"
            disabled={!admin}
            {...form.getInputProps(path("channels.csv"), { type: "checkbox", withError: false })}
          />
        </Group>
        {channelsError !== undefined && channelsError !== null && (
          <Text size="xs" c="red.9">
            {channelsError}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
