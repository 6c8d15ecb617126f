// Adding a bank account to a Beneficiary, with the API's messages beside the fields.
import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { ApiError, api, call, type Schemas } from "../../api/client";
import { countryHint } from "../../lib/country";
import { ErrorAlert } from "../ErrorAlert";

const EMPTY_ACCOUNT = {
  account_holder_name: "",
  country: "",
  currency: "",
  iban: "",
  account_number: "",
  routing_code: "",
  swift_bic: "",
  bank_name: "",
};

/** The form's labels for the API's field names, so a refusal names the field the person sees. */
const ACCOUNT_LABELS: Readonly<Record<string, string>> = {
  account_holder_name: "Account holder name",
  country: "Bank country",
  currency: "Currency",
  iban: "IBAN",
  account_number: "Account number",
  routing_code: "Routing code",
  swift_bic: "SWIFT/BIC",
  bank_name: "Bank name",
};

export function AddBankAccount({ beneficiaryId, onAdded }: { beneficiaryId: string; onAdded: () => Promise<void> }) {
  const [fields, setFields] = useState(EMPTY_ACCOUNT);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [added, setAdded] = useState<string | null>(null);
  const set = (name: keyof typeof EMPTY_ACCOUNT) => (e: { currentTarget: { value: string } }) =>
    setFields({ ...fields, [name]: e.currentTarget.value });
  const fieldError = (name: string) => (error instanceof ApiError ? error.fieldMessage(name) : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setAdded(null);
    const body: Record<string, string> = {};
    for (const [name, value] of Object.entries(fields)) if (value.trim() !== "") body[name] = value.trim();
    if (body.country !== undefined) body.country = body.country.toUpperCase();
    if (body.currency !== undefined) body.currency = body.currency.toUpperCase();
    try {
      const created = await call(
        api.POST("/v1/beneficiaries/{id}/bank-accounts", {
          params: { path: { id: beneficiaryId } },
          body: body as Schemas["CreateBankAccountRequest"],
        }),
      );
      setAdded(`Account •••• ${created.last4} added.`);
      setFields(EMPTY_ACCOUNT);
      await onAdded();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder>
      <Title order={2} size="h3" mb="sm">
        Add a bank account
      </Title>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Add a bank account">
        <Stack>
          <TextInput
            label="Account holder name"
            value={fields.account_holder_name}
            onChange={set("account_holder_name")}
            error={fieldError("account_holder_name")}
            required
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Bank country"
              description={countryHint(fields.country)}
              maxLength={2}
              value={fields.country}
              onChange={set("country")}
              error={fieldError("country")}
              required
            />
            <TextInput
              label="Currency"
              description="Three letters, such as EUR"
              maxLength={3}
              value={fields.currency}
              onChange={set("currency")}
              error={fieldError("currency")}
              required
            />
          </SimpleGrid>
          <TextInput
            label="IBAN"
            description="For IBAN countries; otherwise the account number and routing code"
            value={fields.iban}
            onChange={set("iban")}
            error={fieldError("iban")}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Account number"
              value={fields.account_number}
              onChange={set("account_number")}
              error={fieldError("account_number")}
            />
            <TextInput
              label="Routing code"
              description="ABA number, sort code, branch code…"
              value={fields.routing_code}
              onChange={set("routing_code")}
              error={fieldError("routing_code")}
            />
            <TextInput label="SWIFT/BIC" value={fields.swift_bic} onChange={set("swift_bic")} error={fieldError("swift_bic")} />
            <TextInput label="Bank name" value={fields.bank_name} onChange={set("bank_name")} error={fieldError("bank_name")} />
          </SimpleGrid>
          <ErrorAlert error={error} title="Could not add the bank account" fieldLabels={ACCOUNT_LABELS} />
          {added !== null && (
            <Text size="sm" c="teal.9" role="status">
              {added}
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              Add bank account
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
