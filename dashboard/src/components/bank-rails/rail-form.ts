// A bank rail's form: its values (shaped like the request body, so the API's refusals land on their fields
// by name: `/delivery/host` on `delivery.host`), filled from the configured rail, and the body sent. Secrets
// are never shown: an empty password or private key field keeps the stored one (the API keeps it while the
// server stays the same). The OpenPGP bank key is kept by fingerprint only, so saving a rail that uses OpenPGP
// needs the key pasted again.

import type { RailBody } from "../../hooks/api/bank-rails/mutations";
import type { AchRailBody, BankRail, BankRailName, SepaRailBody } from "../../hooks/api/bank-rails/types";

export interface RailFormValues {
  originator: Record<string, string>;
  file_format: string;
  /** "09:30, 15:00": times of day in `time_zone`. */
  cutoff_times: string;
  time_zone: string;
  status_report_timeout_hours: string;
  delivery: {
    kind: "sftp" | "local_directory";
    host: string;
    port: string;
    username: string;
    password: string;
    private_key: string;
    host_key_fingerprint: string;
    outbound_directory: string;
    inbound_directory: string;
  };
  use_openpgp: boolean;
  openpgp: { bank_public_key: string; private_key: string; private_key_passphrase: string; inbound: string };
}

export const SEPA_ORIGINATOR_FIELDS = [
  { name: "name", label: "Account holder name", required: true },
  { name: "iban", label: "IBAN of the account debited", required: true },
  { name: "bic", label: "BIC", required: false },
  { name: "initiating_party_id", label: "Initiating party id", required: false },
  { name: "street_name", label: "Street", required: false },
  { name: "building_number", label: "Building number", required: false },
  { name: "postal_code", label: "Postal code", required: false },
  { name: "town_name", label: "Town", required: false },
  { name: "country", label: "Country (two letters, e.g. DE)", required: false },
] as const;

export const ACH_ORIGINATOR_FIELDS = [
  { name: "odfi_routing_number", label: "Your bank's routing number (ODFI)", required: true },
  { name: "immediate_destination", label: "Immediate destination (routing number the file goes to)", required: true },
  { name: "immediate_destination_name", label: "Immediate destination name", required: true },
  { name: "immediate_origin", label: "Immediate origin", required: true },
  { name: "immediate_origin_name", label: "Immediate origin name", required: true },
  { name: "company_name", label: "Company name", required: true },
  { name: "company_identification", label: "Company identification", required: true },
  { name: "entry_description", label: "Entry description (default PAYOUT)", required: false },
] as const;

const ADDRESS = ["street_name", "building_number", "postal_code", "town_name", "country"] as const;

export function initialValues(rail: BankRailName, current: BankRail | undefined): RailFormValues {
  const o = (current?.originator ?? {}) as Record<string, unknown>;
  const address = (o.address ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));
  const originator: Record<string, string> = {};
  const fields = rail === "sepa" ? SEPA_ORIGINATOR_FIELDS : ACH_ORIGINATOR_FIELDS;
  for (const field of fields) {
    originator[field.name] = (ADDRESS as readonly string[]).includes(field.name)
      ? text(address[field.name])
      : text(o[field.name]);
  }
  if (rail === "ach") originator.payout_purpose = text(o.payout_purpose) || "other";
  const d = current?.delivery;
  return {
    originator,
    file_format: current?.file_format ?? (rail === "sepa" ? "pain.001.001.09" : "nacha"),
    cutoff_times: (current?.cutoff_times ?? []).join(", "),
    time_zone: current?.time_zone ?? (rail === "sepa" ? "Europe/Berlin" : "America/New_York"),
    status_report_timeout_hours: String(current?.status_report_timeout_hours ?? 24),
    delivery: {
      kind: d?.kind ?? "sftp",
      host: d?.host ?? "",
      port: String(d?.port ?? 22),
      username: d?.username ?? "",
      password: "",
      private_key: "",
      host_key_fingerprint: d?.host_key_fingerprint ?? "",
      outbound_directory: d?.outbound_directory ?? "outbound",
      inbound_directory: d?.inbound_directory ?? "inbound",
    },
    use_openpgp: current?.openpgp !== null && current?.openpgp !== undefined,
    openpgp: { bank_public_key: "", private_key: "", private_key_passphrase: "", inbound: current?.openpgp?.inbound ?? "plain" },
  };
}

/** Errors found before sending (the API checks the rest): field path -> message. */
export function localErrors(values: RailFormValues, current: BankRail | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  const times = values.cutoff_times.split(/[\s,]+/).filter((t) => t !== "");
  if (times.length === 0) errors.cutoff_times = "Give at least one cut-off time, such as 15:00.";
  const wrong = times.find((t) => !/^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(t));
  if (wrong !== undefined) errors.cutoff_times = `"${wrong}" is not a time of day as HH:MM (24-hour), such as 09:30.`;
  if (values.delivery.kind === "sftp") {
    const stored = current?.delivery.has_password === true || current?.delivery.has_private_key === true;
    if (!stored && values.delivery.password === "" && values.delivery.private_key === "")
      errors["delivery.password"] = "Give the SFTP password or a private key.";
    if (!/^\d+$/.test(values.delivery.port)) errors["delivery.port"] = "The port is a number, usually 22.";
  }
  if (values.use_openpgp && values.openpgp.bank_public_key.trim() === "")
    errors["openpgp.bank_public_key"] =
      current?.openpgp != null
        ? "Paste the bank's public key again (the service keeps only its fingerprint), or turn OpenPGP off."
        : "Paste the bank's OpenPGP public key.";
  return errors;
}

export function toBody(rail: BankRailName, values: RailFormValues): RailBody {
  const o = values.originator;
  const pick = (name: string) => (o[name] ?? "").trim();
  const cutoffTimes = values.cutoff_times.split(/[\s,]+/).filter((t) => t !== "");
  const d = values.delivery;
  const delivery: SepaRailBody["delivery"] =
    d.kind === "sftp"
      ? {
          kind: "sftp",
          host: d.host.trim(),
          port: Number(d.port),
          username: d.username.trim(),
          host_key_fingerprint: d.host_key_fingerprint.trim(),
          outbound_directory: d.outbound_directory.trim(),
          inbound_directory: d.inbound_directory.trim(),
          ...(d.password === "" ? {} : { password: d.password }),
          ...(d.private_key.trim() === "" ? {} : { private_key: `${d.private_key.trim()}\n` }),
        }
      : {
          kind: "local_directory",
          outbound_directory: d.outbound_directory.trim(),
          inbound_directory: d.inbound_directory.trim(),
        };
  const openpgp = values.use_openpgp
    ? {
        bank_public_key: values.openpgp.bank_public_key.trim(),
        inbound: values.openpgp.inbound as "plain" | "decrypt_and_verify",
        ...(values.openpgp.private_key.trim() === "" ? {} : { private_key: values.openpgp.private_key.trim() }),
        ...(values.openpgp.private_key_passphrase === ""
          ? {}
          : { private_key_passphrase: values.openpgp.private_key_passphrase }),
      }
    : null;
  const common = {
    cutoff_times: cutoffTimes,
    time_zone: values.time_zone,
    status_report_timeout_hours: Number(values.status_report_timeout_hours) || 24,
    delivery,
    openpgp,
  };
  if (rail === "sepa") {
    const hasAddress = pick("town_name") !== "" || pick("country") !== "";
    const body: SepaRailBody = {
      ...common,
      file_format: values.file_format === "pain.001.001.03" ? "pain.001.001.03" : "pain.001.001.09",
      originator: {
        name: pick("name"),
        iban: pick("iban"),
        ...(pick("bic") === "" ? {} : { bic: pick("bic").toUpperCase() }),
        ...(pick("initiating_party_id") === "" ? {} : { initiating_party_id: pick("initiating_party_id") }),
        ...(hasAddress
          ? {
              address: {
                town_name: pick("town_name"),
                country: pick("country").toUpperCase(),
                ...(pick("street_name") === "" ? {} : { street_name: pick("street_name") }),
                ...(pick("building_number") === "" ? {} : { building_number: pick("building_number") }),
                ...(pick("postal_code") === "" ? {} : { postal_code: pick("postal_code") }),
              },
            }
          : {}),
      },
    };
    return { rail, body };
  }
  const purpose = pick("payout_purpose") === "payroll" ? "payroll" : "other";
  const body: AchRailBody = {
    ...common,
    originator: {
      odfi_routing_number: pick("odfi_routing_number"),
      immediate_destination: pick("immediate_destination"),
      immediate_destination_name: pick("immediate_destination_name"),
      immediate_origin: pick("immediate_origin").toUpperCase(),
      immediate_origin_name: pick("immediate_origin_name"),
      company_name: pick("company_name"),
      company_identification: pick("company_identification").toUpperCase(),
      payout_purpose: purpose,
      ...(purpose === "other" && pick("entry_description") !== ""
        ? { entry_description: pick("entry_description").toUpperCase() }
        : {}),
    },
  };
  return { rail, body };
}

/** Every IANA zone the browser knows, for the time-zone picker. */
export function timeZones(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return zones.includes(current) ? zones : [current, ...zones];
}
