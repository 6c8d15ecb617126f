// The payouts list's extra filters (channel, currency, created and updated days, amount range). Applying
// pushes a new URL (so the link is shareable and Back returns to the previous filters); the form is reset
// from the URL whenever it changes. A field the API refused (e.g. a range ending before it starts) shows
// the API's message and code beside it. Days are days of the dashboard's time zone (the Business's, else the
// browser's), named beside the buttons.
import { Button, Group, NativeSelect, Text, TextInput } from "@mantine/core";
import { type FormEvent, useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { ApiError } from "../api/client";
import { applyDraft, draftFromParams, FILTER_PARAMS, type FilterDraft } from "../lib/payout-filters";
import { useTimeZone } from "../lib/time-zone";

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
  const [draft, setDraft] = useState<FilterDraft>(() => draftFromParams(params, zone));
  const [formErrors, setFormErrors] = useState<Partial<Record<keyof FilterDraft, string>>>({});
  // Back/forward or a pasted link changes the URL: the form follows it.
  // So does a zone that becomes known (the Business's, once its profile has answered).
  useEffect(() => {
    setDraft(draftFromParams(new URLSearchParams(key), zone));
    setFormErrors({});
  }, [key, zone]);

  const apiError = error instanceof ApiError && error.code === "validation_failed" ? error : null;
  const errorOf = (field: keyof FilterDraft): string | undefined => {
    if (formErrors[field] !== undefined) return formErrors[field];
    const detail = apiError?.body.details?.find((d) => d.field === API_FIELD[field] || d.field === `/${API_FIELD[field]}`);
    return detail === undefined ? undefined : `${detail.message} (${detail.code})`;
  };
  const set = (field: keyof FilterDraft) => (value: string | null) => setDraft({ ...draft, [field]: value ?? "" });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = applyDraft(params, draft, zone);
    if (!result.ok) {
      setFormErrors(result.errors);
      return;
    }
    setFormErrors({});
    setParams(result.params);
    onApplied?.();
  };
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
          value={draft.channel}
          onChange={(e) => set("channel")(e.currentTarget.value)}
          error={errorOf("channel")}
          w={160}
        />
        <TextInput
          label="Currency"
          placeholder="EUR"
          maxLength={3}
          value={draft.currency}
          onChange={(e) => set("currency")(e.currentTarget.value.toUpperCase())}
          error={errorOf("currency")}
          w={100}
        />
        <TextInput
          label="Amount from"
          inputMode="decimal"
          value={draft.amountMin}
          onChange={(e) => set("amountMin")(e.currentTarget.value)}
          error={errorOf("amountMin")}
          w={140}
        />
        <TextInput
          label="Amount to"
          inputMode="decimal"
          value={draft.amountMax}
          onChange={(e) => set("amountMax")(e.currentTarget.value)}
          error={errorOf("amountMax")}
          w={140}
        />
        <TextInput
          type="date"
          label="Created from"
          value={draft.createdFrom}
          onChange={(e) => set("createdFrom")(e.currentTarget.value)}
          error={errorOf("createdFrom")}
          w={160}
        />
        <TextInput
          type="date"
          label="Created to"
          value={draft.createdTo}
          onChange={(e) => set("createdTo")(e.currentTarget.value)}
          error={errorOf("createdTo")}
          w={160}
        />
        <TextInput
          type="date"
          label="Updated from"
          value={draft.updatedFrom}
          onChange={(e) => set("updatedFrom")(e.currentTarget.value)}
          error={errorOf("updatedFrom")}
          w={160}
        />
        <TextInput
          type="date"
          label="Updated to"
          value={draft.updatedTo}
          onChange={(e) => set("updatedTo")(e.currentTarget.value)}
          error={errorOf("updatedTo")}
          w={160}
        />
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
