// Country and currency pickers with names: a person chooses "Germany", the form keeps "DE" (what the API stores).
// Only a listed value can be chosen, so free text such as "Germany" can no longer become "GE" (Georgia).
// Names come from the browser's CLDR data (lib/labels.ts), searchable by name or code.
import { Select, type SelectProps } from "@mantine/core";
import { useMemo } from "react";
import { countryLabel, currencyLabel } from "../lib/labels";

/**
 * Codes the browser names as regions but ISO 3166-1 does not assign (or withdrew): the service refuses them.
 * Measured against i18n-iso-countries, the service's table: with these left out both lists hold the same 250.
 */
const NOT_ISO_3166 = new Set(
  "AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB YD YU ZR ZZ".split(" "),
);

function countryOptions(): { value: string; label: string }[] {
  const options: { value: string; label: string }[] = [];
  for (let first = 65; first <= 90; first++) {
    for (let second = 65; second <= 90; second++) {
      const code = String.fromCharCode(first, second);
      if (NOT_ISO_3166.has(code)) continue;
      const name = countryLabel(code);
      if (name !== code) options.push({ value: code, label: `${name} (${code})` });
    }
  }
  return options.sort((a, b) => a.label.localeCompare(b.label, "en"));
}

function currencyOptions(): { value: string; label: string }[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const codes = intl.supportedValuesOf?.("currency") ?? ["EUR", "USD", "GBP"];
  return codes
    .map((code) => ({ value: code, label: `${currencyLabel(code)} (${code})` }))
    .sort((a, b) => a.label.localeCompare(b.label, "en"));
}

type PickerProps = Omit<SelectProps, "data" | "searchable"> & {
  /** Keep a stored code the list does not hold (an old value) choosable rather than blank. */
  readonly value?: string | null;
};

function withCurrent(options: { value: string; label: string }[], value: string | null | undefined) {
  if (value === undefined || value === null || value === "" || options.some((o) => o.value === value)) return options;
  return [{ value, label: value }, ...options];
}

/** The form keeps "" for no value; the Select shows nothing only for null (an emptied form after Back included). */
function emptyAsNull(value: string | null | undefined): { value?: string | null } {
  return value === undefined ? {} : { value: value === "" ? null : value };
}

export function CountrySelect(props: PickerProps) {
  const options = useMemo(countryOptions, []);
  return (
    <Select
      searchable
      clearable={props.required !== true}
      nothingFoundMessage="No country of that name"
      placeholder="Search by name or code"
      clearButtonProps={{ "aria-label": `Clear ${typeof props.label === "string" ? props.label : "country"}` }}
      {...props}
      {...emptyAsNull(props.value)}
      onChange={(value, option) => props.onChange?.(value ?? "", option)}
      data={withCurrent(options, props.value)}
    />
  );
}

export function CurrencySelect(props: PickerProps) {
  const options = useMemo(currencyOptions, []);
  return (
    <Select
      searchable
      clearable={props.required !== true}
      nothingFoundMessage="No currency of that name"
      placeholder="Search by name or code"
      clearButtonProps={{ "aria-label": `Clear ${typeof props.label === "string" ? props.label : "currency"}` }}
      {...props}
      {...emptyAsNull(props.value)}
      onChange={(value, option) => props.onChange?.(value ?? "", option)}
      data={withCurrent(options, props.value)}
    />
  );
}
