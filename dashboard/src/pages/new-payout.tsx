// Create one payout: pick a ready Beneficiary and one of its usable destinations (masked), the amount in the
// currency's units; the idempotency key is generated once per form, so a double click or a retry after a
// network error cannot pay twice. With `?replaces=<id>` it is a replacement of that failed payout: the form starts
// from the failed payout's Beneficiary, destination, amount and reference (read from the API, all editable), since
// a finance person replacing a failed payout usually sends the same money again, perhaps to a corrected account.
import { Alert, Anchor, Button, Group, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { ApiError, api, call } from "../api/client";
import { sepaMissingParam } from "../components/beneficiary/EditIdentity";
import { ErrorAlert } from "../components/ErrorAlert";
import { minorToDecimal, parseMoneyInput } from "../lib/money";
import { useSignedIn } from "../lib/session";

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

export function NewPayoutPage() {
  const { environment } = useSignedIn();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const replaces = params.get("replaces");
  const [beneficiaryId, setBeneficiaryId] = useState<string | null>(null);
  const [destinationId, setDestinationId] = useState<string | null>(null);
  const [amount, setAmount] = useState("");
  const [reference, setReference] = useState("");
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [error, setError] = useState<unknown>(null);
  const [amountError, setAmountError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const replaced = useQuery({
    queryKey: [environment, "payouts", "one", replaces],
    queryFn: () => call(api.GET("/v1/payouts/{payoutId}", { params: { path: { payoutId: replaces ?? "" } } })),
    enabled: replaces !== null,
  });
  // Filled once from the replaced payout; later edits are the person's and are never overwritten by a refetch.
  const [prefilled, setPrefilled] = useState(false);
  useEffect(() => {
    if (prefilled || replaced.data === undefined) return;
    const original = replaced.data;
    setPrefilled(true);
    setBeneficiaryId(original.beneficiary_id);
    setDestinationId(original.bank_account_id);
    setAmount(minorToDecimal(original.amount_minor, original.currency));
    setReference(original.external_ref ?? "");
  }, [prefilled, replaced.data]);

  const beneficiaries = useQuery({
    queryKey: [environment, "beneficiaries", "ready"],
    queryFn: () => call(api.GET("/v1/beneficiaries", { params: { query: { limit: 200, status: "ready" } } })),
  });
  const destinations = useQuery({
    queryKey: [environment, "beneficiaries", beneficiaryId, "destinations"],
    queryFn: () => call(api.GET("/v1/beneficiaries/{id}/bank-accounts", { params: { path: { id: beneficiaryId ?? "" } } })),
    enabled: beneficiaryId !== null,
  });
  const usable = (destinations.data?.bank_accounts ?? []).filter((d) => d.payout_usable);
  const destination = usable.find((d) => d.id === destinationId);
  const currency = destination?.currency ?? "";

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (beneficiaryId === null || destination === undefined) {
      setError(new Error("Choose a Beneficiary and a destination."));
      return;
    }
    const parsed = parseMoneyInput(amount, currency);
    if (!parsed.ok) {
      setAmountError(parsed.message);
      return;
    }
    setAmountError(undefined);
    setBusy(true);
    try {
      const payout = await call(
        api.POST("/v1/payouts", {
          params: { header: { "idempotency-key": idempotencyKey } },
          body: {
            beneficiary_id: beneficiaryId,
            bank_account_id: destination.id,
            amount_minor: parsed.amountMinor,
            currency,
            ...(reference.trim() === "" ? {} : { external_ref: reference.trim() }),
            ...(replaces === null ? {} : { replaces_payout_id: replaces }),
          },
        }),
      );
      await queryClient.invalidateQueries({ queryKey: [environment, "payouts"] });
      navigate(`/payouts/${payout.payout_id}`);
    } catch (caught) {
      setError(caught);
      if (caught instanceof ApiError) setAmountError(caught.fieldMessage("amount_minor"));
    } finally {
      setBusy(false);
    }
  };

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
      <form onSubmit={(e) => void submit(e)} noValidate>
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
            onChange={(value) => {
              setBeneficiaryId(value);
              setDestinationId(null);
            }}
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
            onChange={setDestinationId}
            disabled={beneficiaryId === null}
            nothingFoundMessage="No usable destination"
            required
          />
          <TextInput
            label="Amount"
            description={currency === "" ? "In the destination's currency" : `In ${currency}`}
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            error={amountError}
            rightSection={currency}
            required
          />
          <TextInput
            label="External reference"
            description="Your own reference, such as an invoice number"
            value={reference}
            onChange={(e) => setReference(e.currentTarget.value)}
            error={error instanceof ApiError ? error.fieldMessage("external_ref") : undefined}
          />
          <ErrorAlert error={error} title="Could not create the payout" fieldLabels={PAYOUT_LABELS} />
          {error instanceof ApiError && error.code === "SEPA_ADDRESS_NOT_STRUCTURED" && beneficiaryId !== null && (
            <Anchor component={Link} to={`/beneficiaries/${beneficiaryId}?sepa_missing=${sepaMissingParam(error)}`}>
              Complete the Beneficiary's postal address
            </Anchor>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              Create payout
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
