// The columns of the Beneficiary CSV export, in order: the header name, what it holds (rendered into the
// route's OpenAPI description, so the documentation cannot drift from the file) and how a record fills it.
// Values come from the Beneficiary exactly as the API presents it (tax id masked, status derived) and from
// destinations read through masked columns only: no column can carry a full account number.
import type { BeneficiaryBody } from "../beneficiaries/index.js";

/** A destination as the export shows it: masked, like the bank-account listing. */
export interface ExportDestination {
  readonly id: string;
  readonly kind: "bank_account" | "card";
  readonly country: string;
  readonly currency: string;
  readonly last4: string;
  readonly validationStatus: "validated" | "unvalidated";
  readonly status: "unverified" | "verified" | "rejected";
  readonly payoutUsable: boolean;
}

/** One line of the export. */
export interface ExportRecord {
  readonly beneficiary: BeneficiaryBody;
  /** Live (not deleted) destinations, in every status. */
  readonly destinationCount: number;
  /**
   * Where a payout that names no destination would go: the declared destination, or, when none is declared,
   * the only payout-usable one. Null when neither applies (the payout would be refused as ambiguous).
   */
  readonly payoutDestination: {
    readonly source: "declared" | "only_payout_usable";
    readonly destination: ExportDestination;
  } | null;
}

type Cell = string | number | null;

interface ExportColumn {
  readonly header: string;
  readonly description: string;
  readonly value: (record: ExportRecord) => Cell;
}

const bool = (value: boolean): string => (value ? "true" : "false");
const b = (pick: (beneficiary: BeneficiaryBody) => Cell) => (record: ExportRecord) => pick(record.beneficiary);
const address = (pick: (a: NonNullable<BeneficiaryBody["postal_address"]>) => string | undefined) =>
  b((beneficiary) => (beneficiary.postal_address === null ? null : (pick(beneficiary.postal_address) ?? null)));
const destination = (pick: (d: ExportDestination) => Cell) => (record: ExportRecord) =>
  record.payoutDestination === null ? null : pick(record.payoutDestination.destination);

export const EXPORT_COLUMNS: readonly ExportColumn[] = [
  { header: "id", description: "Beneficiary id.", value: b((x) => x.id) },
  { header: "beneficiary_type", description: "`person` or `business`.", value: b((x) => x.beneficiary_type) },
  { header: "name", description: "Legal display name.", value: b((x) => x.name) },
  { header: "nickname", description: "Business-facing label, when set.", value: b((x) => x.nickname) },
  { header: "display_name", description: "The nickname when set, else the legal name.", value: b((x) => x.display_name) },
  { header: "email", description: "Contact address.", value: b((x) => x.email) },
  {
    header: "phone",
    description: "E.164; it starts with `+`, so it always carries the formula prefix `'`.",
    value: b((x) => x.phone),
  },
  { header: "first_name", description: "Person identity.", value: b((x) => x.first_name) },
  { header: "last_name", description: "Person identity.", value: b((x) => x.last_name) },
  { header: "country_of_residence", description: "ISO 3166-1 alpha-2.", value: b((x) => x.country_of_residence) },
  { header: "date_of_birth", description: "`YYYY-MM-DD`.", value: b((x) => x.date_of_birth) },
  { header: "business_name", description: "Business identity.", value: b((x) => x.business_name) },
  { header: "country_of_incorporation", description: "ISO 3166-1 alpha-2.", value: b((x) => x.country_of_incorporation) },
  { header: "registration_number", description: "Business identity.", value: b((x) => x.registration_number) },
  {
    header: "tax_id",
    description: "Masked as the API shows it: at most the last four characters (fewer for short tax ids).",
    value: b((x) => x.tax_id),
  },
  { header: "postal_address_line1", description: "Postal address, flattened.", value: address((a) => a.line1) },
  { header: "postal_address_line2", description: "", value: address((a) => a.line2) },
  { header: "postal_address_city", description: "", value: address((a) => a.city) },
  { header: "postal_address_state", description: "", value: address((a) => a.state) },
  { header: "postal_address_postal_code", description: "", value: address((a) => a.postal_code) },
  { header: "postal_address_country", description: "ISO 3166-1 alpha-2.", value: address((a) => a.country) },
  { header: "compliance_status", description: "`pending`, `compliant` or `suspended`.", value: b((x) => x.compliance_status) },
  { header: "acknowledged_at", description: "ISO 8601, when acknowledged.", value: b((x) => x.acknowledged_at) },
  {
    header: "reacknowledgment_required",
    description: "`true` or `false`.",
    value: b((x) => bool(x.reacknowledgment_required)),
  },
  {
    header: "collection_status",
    description: "`not_invited`, `invited` or `details_submitted`.",
    value: b((x) => x.collection_status),
  },
  { header: "details_submitted_at", description: "ISO 8601.", value: b((x) => x.details_submitted_at) },
  { header: "status", description: "Derived, exactly as the API shows it.", value: b((x) => x.status) },
  { header: "identity_complete", description: "`true` or `false`.", value: b((x) => bool(x.identity_complete)) },
  {
    header: "missing_identity_fields",
    description: "Required identity fields still missing, separated by `;`.",
    value: b((x) => x.missing_identity_fields.join(";")),
  },
  {
    header: "enrollment_status",
    description: "Provider enrollment status, when enrolled.",
    value: b((x) => x.enrollment_status),
  },
  { header: "declared_destination_id", description: "As on the Beneficiary.", value: b((x) => x.declared_destination_id) },
  {
    header: "destination_count",
    description: "Live (not deleted) destinations, in every status.",
    value: (record) => record.destinationCount,
  },
  {
    header: "payout_destination_source",
    description:
      "Where the `payout_destination_*` columns come from: `declared` (the declared destination) or `only_payout_usable` (none is declared and exactly one destination is payout-usable). Empty when neither applies, and then those columns are empty too.",
    value: (record) => record.payoutDestination?.source ?? null,
  },
  { header: "payout_destination_id", description: "", value: destination((d) => d.id) },
  { header: "payout_destination_kind", description: "`bank_account` or `card`.", value: destination((d) => d.kind) },
  { header: "payout_destination_country", description: "", value: destination((d) => d.country) },
  { header: "payout_destination_currency", description: "", value: destination((d) => d.currency) },
  {
    header: "payout_destination_last4",
    description: "Masked, as the bank-account listing shows it; never the full number.",
    value: destination((d) => d.last4),
  },
  { header: "payout_destination_validation_status", description: "", value: destination((d) => d.validationStatus) },
  { header: "payout_destination_status", description: "", value: destination((d) => d.status) },
  {
    header: "payout_destination_payout_usable",
    description: "`true` or `false`.",
    value: destination((d) => bool(d.payoutUsable)),
  },
  { header: "created_at", description: "ISO 8601.", value: b((x) => x.created_at) },
  { header: "updated_at", description: "ISO 8601.", value: b((x) => x.updated_at) },
  {
    header: "archived_at",
    description: "Always empty: archived Beneficiaries are not exported (kept so the layout matches the API).",
    value: b((x) => x.archived_at),
  },
];

export const EXPORT_HEADERS: readonly string[] = EXPORT_COLUMNS.map((column) => column.header);

/** A record as the CSV writer takes it: one cell per column, in column order; null is an empty cell. */
export function toCsvRow(record: ExportRecord): Cell[] {
  return EXPORT_COLUMNS.map((column) => column.value(record));
}

/** The column list as a Markdown list, for the route's description. */
export function describeColumns(): string {
  return EXPORT_COLUMNS.map((c) => `- \`${c.header}\`${c.description === "" ? "" : `: ${c.description}`}`).join("\n");
}
