// The payouts list's extra filters (channel, currency, created and updated days, amount range). Applying
// pushes a new URL (so the link is shareable and Back returns to the previous filters); the form is reset
// from the URL whenever it changes. A field the API refused (e.g. a range ending before it starts) shows
// the API's message and code beside it. Days are days of the dashboard's time zone (the Business's, else the
// browser's), named beside the buttons.
import { Button, Group, NativeSelect, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { ApiError } from "../api/client";
import { applyDraft, draftFromParams, FILTER_PARAMS, type FilterDraft } from "../lib/payout-filters";
import { useTimeZone } from "../lib/time-zone";
import { CurrencySelect } from "./CodePickers";

/** The API's query field each form field is sent as (for the API's field errors). */
const API_FIELD: Record<keyof FilterDraft, string> = {
  channel: "channel",
  currency: "currency",
  createdFrom: "created_from",
  createdTo: "created_to",
  updatedFrom: "updated_from",
  updatedTo: "updated_to",
  amountMin: "amount_min",
  amountMax: "amount_max",
};

export function PayoutFilters({ error, onApplied }: { error: unknown; onApplied?: () => void }) {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  const { zone } = useTimeZone();
  // The form's own checks (a currency for amounts, days and amounts it can read) are the form's errors.
  const form = useForm<FilterDraft>({ initialValues: draftFromParams(params, zone) });
  const { setValues, clearErrors } = form;
  // Back/forward or a pasted link changes the URL: the form follows it.
  // So does a zone that becomes known (the Business's, once its profile has answered).
  useEffect(() => {
    setValues(draftFromParams(new URLSearchParams(key), zone));
    clearErrors();
  }, [key, zone, setValues, clearErrors]);

  // The API's refusal of the list's query (e.g. a range ending before it starts), beside the field it names.
  const apiError = error instanceof ApiError && error.code === "validation_failed" ? error : null;
  const inputProps = (field: keyof FilterDraft) => {
    const props = form.getInputProps(field);
    const detail = apiError?.body.details?.find((d) => d.field === API_FIELD[field] || d.field === `/${API_FIELD[field]}`);
    return { ...props, error: props.error ?? (detail === undefined ? undefined : `${detail.message} (${detail.code})`) };
  };

  const submit = form.onSubmit((draft) => {
    const result = applyDraft(params, draft, zone);
    if (!result.ok) {
      form.setErrors(result.errors);
      return;
    }
    setParams(result.params);
    onApplied?.();
  });
  const clear = () => {
    const next = new URLSearchParams(params);
    for (const name of FILTER_PARAMS) next.delete(name);
    setParams(next);
    onApplied?.();
  };

  return (
    <form onSubmit={submit} aria-label="More filters" data-testid="payout-filters">
      <Group align="flex-start" gap="sm">
        <NativeSelect
          label="Channel"
          data={[
            { value: "", label: "Any channel" },
            { value: "api", label: "API" },
            { value: "csv", label: "CSV upload" },
          ]}
          {...inputProps("channel")}
          w={160}
        />
        <CurrencySelect label="Currency" placeholder="Any currency" {...inputProps("currency")} w={220} />
        <TextInput label="Amount from" inputMode="decimal" {...inputProps("amountMin")} w={140} />
        <TextInput label="Amount to" inputMode="decimal" {...inputProps("amountMax")} w={140} />
        <TextInput type="date" label="Created from" {...inputProps("createdFrom")} w={160} />
        <TextInput type="date" label="Created to" {...inputProps("createdTo")} w={160} />
        <TextInput type="date" label="Updated from" {...inputProps("updatedFrom")} w={160} />
        <TextInput type="date" label="Updated to" {...inputProps("updatedTo")} w={160} />
      </Group>
      <Group gap="sm" mt="sm">
        <Button type="submit" variant="default">
          Apply filters
        </Button>
        <Button type="button" variant="subtle" onClick={clear}>
          Clear filters
        </Button>
        <Text size="sm" c="dimmed" data-testid="filter-days-zone">
          Days are in {zone}.
        </Text>
      </Group>
    </form>
  );
}
