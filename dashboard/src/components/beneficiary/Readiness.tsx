// What stands between a Beneficiary and `ready`, in words, on its page: a green "ready" alert, or the list of
// everything still missing (not only the first rule that matches).
import { Alert, List } from "@mantine/core";
import type { Beneficiary, Destination } from "../../hooks/api/beneficiaries/types";
import { DARK_TITLE } from "./alert-styles";

const FIELD_NAMES: Readonly<Record<string, string>> = {
  first_name: "first name",
  last_name: "last name",
  date_of_birth: "date of birth",
  country_of_residence: "country of residence",
  business_name: "business name",
  country_of_incorporation: "country of incorporation",
  registration_number: "registration number",
  postal_address: "postal address",
  tax_id: "tax id",
  name: "name",
  phone: "phone",
};

/** Everything that stands between this Beneficiary and `ready`, in words (not only the first rule that matches). */
export function missingForReady(b: Beneficiary, destinations: readonly Destination[] | undefined): string[] {
  const missing: string[] = [];
  if (b.archived_at !== null) missing.push("It is archived: restore it to pay it.");
  if (b.compliance_status === "suspended") missing.push("Compliance suspended it: no payout until it is lifted.");
  if (!b.identity_complete)
    missing.push(
      `Identity details: ${b.missing_identity_fields.map((f) => FIELD_NAMES[f] ?? f.replaceAll("_", " ")).join(", ")}.`,
    );
  if (b.reacknowledgment_required) missing.push("Its identity changed after your acknowledgment: acknowledge it again.");
  else if (b.acknowledged_at === null) missing.push("Your compliance acknowledgment (you checked who they are).");
  if (destinations !== undefined && !destinations.some((d) => d.payout_usable))
    missing.push("A payout-usable destination: add a bank account or send a collection link.");
  if (b.enrollment_status === "rejected")
    missing.push(
      `The payout rail refused its enrollment${b.enrollment_failure_detail === null ? "" : `: ${b.enrollment_failure_detail}`}.`,
    );
  return missing;
}

export function Readiness({ b, destinations }: { b: Beneficiary; destinations: readonly Destination[] | undefined }) {
  if (b.status === "ready" && b.archived_at === null)
    return <Alert color="green" title="Ready to be paid" data-testid="readiness" styles={DARK_TITLE} />;
  return (
    <Alert color="yellow" title="Not ready to be paid yet: missing" data-testid="readiness">
      <List size="sm">
        {missingForReady(b, destinations).map((m) => (
          <List.Item key={m}>{m}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
