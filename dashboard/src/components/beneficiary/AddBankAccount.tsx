// Adding a bank account to a Beneficiary, with the API's messages beside the fields.
import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useAddBankAccount } from "../../hooks/api/beneficiaries/mutations";
import type { CreateBankAccountRequest } from "../../hooks/api/beneficiaries/types";
import { setFieldErrors } from "../../hooks/api/form-errors";
import { CountrySelect, CurrencySelect } from "../CodePickers";
import { MutationError } from "../MutationError";

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

/** The fields filled in, trimmed; the country and currency upper-cased (the API's checks name what is missing). */
function requestOf(values: typeof EMPTY_ACCOUNT): CreateBankAccountRequest {
  const body: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value.trim() !== "") body[name] = value.trim();
  if (body.country !== undefined) body.country = body.country.toUpperCase();
  if (body.currency !== undefined) body.currency = body.currency.toUpperCase();
  return body as CreateBankAccountRequest;
}

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

export function AddBankAccount({ beneficiaryId }: { beneficiaryId: string }) {
  const add = useAddBankAccount(beneficiaryId);
  const form = useForm({ initialValues: EMPTY_ACCOUNT });
  const added = add.data === undefined ? null : `Account •••• ${add.data.last4} added.`;

  const submit = form.onSubmit((values) =>
    add.mutate(requestOf(values), {
      onSuccess: () => form.setValues(EMPTY_ACCOUNT),
      onError: (refusal) => setFieldErrors(form, refusal),
    }),
  );

  return (
    <Card withBorder>
      <Title order={2} size="h3" mb="sm">
        Add a bank account
      </Title>
      <form onSubmit={submit} noValidate aria-label="Add a bank account">
        <Stack>
          <TextInput label="Account holder name" {...form.getInputProps("account_holder_name")} required />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <CountrySelect label="Bank country" {...form.getInputProps("country")} required />
            <CurrencySelect label="Currency" {...form.getInputProps("currency")} required />
          </SimpleGrid>
          <TextInput
            label="IBAN"
            description="For IBAN countries; otherwise the account number and routing code"
            {...form.getInputProps("iban")}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Account number" {...form.getInputProps("account_number")} />
            <TextInput
              label="Routing code"
              description="ABA number, sort code, branch code…"
              {...form.getInputProps("routing_code")}
            />
            <TextInput label="SWIFT/BIC" {...form.getInputProps("swift_bic")} />
            <TextInput label="Bank name" {...form.getInputProps("bank_name")} />
          </SimpleGrid>
          <MutationError mutation={add} title="Could not add the bank account" fieldLabels={ACCOUNT_LABELS} />
          {added !== null && (
            <Text size="sm" c="teal.9" role="status">
              {added}
            </Text>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={add.isPending}>
              Add bank account
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
