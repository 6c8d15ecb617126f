// Create one payout: pick a ready Beneficiary and one of its usable destinations (masked), the amount in the
// currency's units; the idempotency key is generated once per form, so a double click or a retry after a
// network error cannot pay twice. With `?replaces=<id>` it is a replacement of that failed payout: the form starts
// from the failed payout's Beneficiary, destination, amount and reference (read from the API, all editable), since
// a finance person replacing a failed payout usually sends the same money again, perhaps to a corrected account.
import { Alert, Anchor, Button, Group, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { ApiError } from "../api/client";
import { sepaMissingParam } from "../components/beneficiary/EditIdentity";
import { ErrorAlert } from "../components/ErrorAlert";
import { useDestinations, useReadyBeneficiaries } from "../hooks/api/beneficiaries/queries";
import { setFieldErrors } from "../hooks/api/form-errors";
import { useCreatePayout } from "../hooks/api/payouts/mutations";
import { usePayout } from "../hooks/api/payouts/queries";
import { minorToDecimal, parseMoneyInput } from "../lib/money";

/** 128 random bits (crypto.randomUUID exists only on HTTPS or localhost; a LAN deployment may be plain HTTP). */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dash-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The form's labels for the API's field names, so a refusal names the field the person sees. */
const PAYOUT_LABELS: Readonly<Record<string, string>> = {
  beneficiary_id: "Beneficiary",
  bank_account_id: "Destination",
  amount_minor: "Amount",
  currency: "Currency",
  external_ref: "External reference",
  replaces_payout_id: "Replaced payout",
};

/** The API's field names that are shown beside a field of this form under another name. */
const FIELD_ALIASES = { amount_minor: "amount", external_ref: "reference" };

/** Refused before anything is sent: the form cannot know the currency without a destination. */
const CHOOSE_FIRST = new Error("Choose a Beneficiary and a destination.");

type Values = {
  beneficiaryId: string | null;
  destinationId: string | null;
  /** In the destination currency's units, as typed. */
  amount: string;
  reference: string;
};

export function NewPayoutPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const replaces = params.get("replaces");
  const [idempotencyKey] = useState(newIdempotencyKey);
  const create = useCreatePayout();
  // A check of the form's own (nothing chosen) shown where a refusal is; a new attempt clears it.
  const [formError, setFormError] = useState<Error | null>(null);
  const form = useForm<Values>({ initialValues: { beneficiaryId: null, destinationId: null, amount: "", reference: "" } });
  const replaced = usePayout(replaces);
  // Filled once from the replaced payout (`initialize` takes effect once); later edits are the person's and are
  // never overwritten by a refetch.
  const original = replaced.data;
  useEffect(() => {
    if (original === undefined) return;
    form.initialize({
      beneficiaryId: original.beneficiary_id,
      destinationId: original.bank_account_id,
      amount: minorToDecimal(original.amount_minor, original.currency),
      reference: original.external_ref ?? "",
    });
  }, [original, form.initialize]);

  const { beneficiaryId, destinationId } = form.values;
  const beneficiaries = useReadyBeneficiaries();
  const destinations = useDestinations(beneficiaryId);
  const usable = (destinations.data?.bank_accounts ?? []).filter((d) => d.payout_usable);
  const destination = usable.find((d) => d.id === destinationId);
  const currency = destination?.currency ?? "";
  const error = formError ?? create.error;

  const submit = form.onSubmit((values) => {
    setFormError(null);
    create.reset();
    if (values.beneficiaryId === null || destination === undefined) {
      setFormError(CHOOSE_FIRST);
      return;
    }
    const parsed = parseMoneyInput(values.amount, currency);
    if (!parsed.ok) {
      form.setFieldError("amount", parsed.message);
      return;
    }
    const reference = values.reference.trim();
    create.mutate(
      {
        idempotencyKey,
        body: {
          beneficiary_id: values.beneficiaryId,
          bank_account_id: destination.id,
          amount_minor: parsed.amountMinor,
          currency,
          ...(reference === "" ? {} : { external_ref: reference }),
          ...(replaces === null ? {} : { replaces_payout_id: replaces }),
        },
      },
      {
        onSuccess: (payout) => navigate(`/payouts/${payout.payout_id}`),
        onError: (refusal) => setFieldErrors(form, refusal, { aliases: FIELD_ALIASES }),
      },
    );
  });

  return (
    <Stack maw={520}>
      <Anchor component={Link} to="/payouts" size="sm">
        ← Payouts
      </Anchor>
      <Title order={1}>{replaces === null ? "New payout" : "Replacement payout"}</Title>
      {replaces !== null && (
        <Alert color="blue" title="Replacing a failed payout">
          This payout replaces{" "}
          <Anchor component={Link} to={`/payouts/${replaces}`}>
            {replaced.data?.external_ref ?? replaces}
          </Anchor>
          . Its details are filled in below; change anything before creating the replacement.
          {replaced.data?.failure_reason != null && <Text size="sm">Why it failed: {replaced.data.failure_reason}</Text>}
        </Alert>
      )}
      <ErrorAlert error={replaced.error} title="Could not load the payout to replace" />
      <ErrorAlert error={beneficiaries.error} title="Could not load Beneficiaries" />
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select
            label="Beneficiary"
            description="Only Beneficiaries that are ready to be paid"
            placeholder={beneficiaries.isPending ? "Loading…" : "Choose"}
            searchable
            data={(beneficiaries.data?.beneficiaries ?? []).map((b) => ({
              value: b.id,
              label: `${b.display_name}${b.email === null ? "" : ` (${b.email})`}`,
            }))}
            value={beneficiaryId}
            onChange={(value) => form.setValues({ beneficiaryId: value, destinationId: null })}
            nothingFoundMessage="No ready Beneficiary"
            required
          />
          <Select
            label="Destination"
            placeholder={beneficiaryId === null ? "Choose a Beneficiary first" : destinations.isPending ? "Loading…" : "Choose"}
            data={usable.map((d) => ({
              value: d.id,
              label: `${d.kind === "card" ? "Card" : "Account"} •••• ${d.last4} · ${d.currency} · ${d.country}`,
            }))}
            value={destinationId}
            onChange={(value) => form.setFieldValue("destinationId", value)}
            disabled={beneficiaryId === null}
            nothingFoundMessage="No usable destination"
            required
          />
          <TextInput
            label="Amount"
            description={currency === "" ? "In the destination's currency" : `In ${currency}`}
            inputMode="decimal"
            {...form.getInputProps("amount")}
            rightSection={currency}
            required
          />
          <TextInput
            label="External reference"
            description="Your own reference, such as an invoice number"
            {...form.getInputProps("reference")}
          />
          <ErrorAlert error={error} title="Could not create the payout" fieldLabels={PAYOUT_LABELS} />
          {error instanceof ApiError && error.code === "SEPA_ADDRESS_NOT_STRUCTURED" && beneficiaryId !== null && (
            <Anchor component={Link} to={`/beneficiaries/${beneficiaryId}?sepa_missing=${sepaMissingParam(error)}`}>
              Complete the Beneficiary's postal address
            </Anchor>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending}>
              Create payout
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
