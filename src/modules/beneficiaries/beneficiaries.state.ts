// Derived, read-only projections of a Beneficiary: `identity_complete` and `status`. Nothing here is
// stored, so growing the list of required identity fields changes what existing Beneficiaries read
// without touching their compliance state (spec: identity_complete).

import { ConfigError } from "../../config.js";

export type BeneficiaryType = "person" | "business";
export type ComplianceStatus = "pending" | "compliant" | "suspended";
export type BeneficiaryStatus =
  | "suspended"
  | "reacknowledgment_required"
  | "pending_details"
  | "pending_kyc"
  | "action_required"
  | "ready";

/** Identity fields a Beneficiary can be required to have, per type. */
export const PERSON_IDENTITY_FIELDS = [
  "first_name",
  "last_name",
  "country_of_residence",
  "date_of_birth",
  "tax_id",
  "postal_address",
  "phone",
] as const;
export const BUSINESS_IDENTITY_FIELDS = [
  "business_name",
  "country_of_incorporation",
  "registration_number",
  "tax_id",
  "postal_address",
  "phone",
] as const;
export type PersonIdentityField = (typeof PERSON_IDENTITY_FIELDS)[number];
export type BusinessIdentityField = (typeof BUSINESS_IDENTITY_FIELDS)[number];

export interface IdentityRequirements {
  readonly person: readonly PersonIdentityField[];
  readonly business: readonly BusinessIdentityField[];
}

/** The default configuration (IDENTITY_REQUIRED_PERSON / IDENTITY_REQUIRED_BUSINESS override it). */
export const DEFAULT_IDENTITY_REQUIREMENTS: IdentityRequirements = {
  person: ["first_name", "last_name", "country_of_residence"],
  business: ["business_name", "country_of_incorporation"],
};

function identityFieldList<F extends string>(
  variable: string,
  configured: readonly string[] | null,
  allowed: readonly F[],
  fallback: readonly F[],
): readonly F[] {
  if (configured === null) return fallback;
  for (const field of configured) {
    if (!(allowed as readonly string[]).includes(field)) {
      throw new ConfigError(`${variable} may list only ${allowed.join(", ")}; got "${field}"`);
    }
  }
  return configured as readonly F[];
}

/**
 * The identity requirements from the configuration's plain lists (config.ts reads the variables and knows no
 * field): each name must be a field of its type, and a list not set takes the default. A wrong name stops the
 * start with a configuration error naming the variable.
 */
export function identityRequirementsOf(configured: {
  readonly person: readonly string[] | null;
  readonly business: readonly string[] | null;
}): IdentityRequirements {
  return {
    person: identityFieldList(
      "IDENTITY_REQUIRED_PERSON",
      configured.person,
      PERSON_IDENTITY_FIELDS,
      DEFAULT_IDENTITY_REQUIREMENTS.person,
    ),
    business: identityFieldList(
      "IDENTITY_REQUIRED_BUSINESS",
      configured.business,
      BUSINESS_IDENTITY_FIELDS,
      DEFAULT_IDENTITY_REQUIREMENTS.business,
    ),
  };
}

/**
 * Fields whose change after acknowledgment sets `reacknowledgment_required`: the ones the Business's
 * compliance check was about (who the payee legally is, where, and their tax identity). Contact details
 * (e-mail, phone, postal address) and the nickname are not triggers.
 */
export const REACKNOWLEDGMENT_TRIGGER_FIELDS = [
  "name",
  "first_name",
  "last_name",
  "date_of_birth",
  "country_of_residence",
  "business_name",
  "country_of_incorporation",
  "registration_number",
  "tax_id",
] as const;

export interface StatusInputs {
  readonly identityComplete: boolean;
  readonly complianceStatus: ComplianceStatus;
  readonly reacknowledgmentRequired: boolean;
  /** Destinations that pass validation and were not refused by the rail. */
  readonly payoutUsableDestinations: number;
  readonly enrollmentRejected: boolean;
}

/**
 * Precedence, first match wins (docs/decisions.md):
 *   1. suspended                  compliance suspended: nothing else matters until it is lifted
 *   2. reacknowledgment_required  a trigger field changed after acknowledgment: payouts are blocked
 *   3. pending_details            identity still deferred: the Business (or a collection link) must supply it
 *   4. pending_kyc                identity complete, compliance acknowledgment not yet given
 *   5. action_required            compliant, but no payout-usable destination, or the rail refused enrollment
 *   6. ready                      a payout can be created
 */
export function deriveBeneficiaryStatus(inputs: StatusInputs): BeneficiaryStatus {
  if (inputs.complianceStatus === "suspended") return "suspended";
  if (inputs.reacknowledgmentRequired) return "reacknowledgment_required";
  if (!inputs.identityComplete) return "pending_details";
  if (inputs.complianceStatus === "pending") return "pending_kyc";
  if (inputs.payoutUsableDestinations === 0 || inputs.enrollmentRejected) return "action_required";
  return "ready";
}

/** A stable code per thing that stands between a Beneficiary and `ready` (the API's `missing_for_ready`). */
export type ReadinessCode =
  | "archived"
  | "compliance_suspended"
  | "identity_incomplete"
  | "reacknowledgment_required"
  | "compliance_acknowledgment"
  | "payout_destination"
  | "enrollment_rejected";

export interface ReadinessRequirement {
  readonly code: ReadinessCode;
  /** In words, for people (the dashboard shows it as it is). */
  readonly message: string;
}

export interface ReadinessInputs {
  readonly archived: boolean;
  readonly complianceStatus: ComplianceStatus;
  /** Required identity fields still missing (API names). */
  readonly missingIdentityFields: readonly string[];
  readonly reacknowledgmentRequired: boolean;
  readonly acknowledged: boolean;
  readonly payoutUsableDestinations: number;
  readonly enrollmentRejected: boolean;
  /** The rail's wording of the enrollment refusal, when it gave one. */
  readonly enrollmentFailureDetail: string | null;
}

/** Identity fields as people name them. */
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

/**
 * Everything that stands between a Beneficiary and `ready`, in the order a person would deal with it (not only
 * the first rule that matches, as `status` gives): the same rules as deriveBeneficiaryStatus, plus archiving
 * (an archived Beneficiary refuses new payouts whatever its status). Empty when a payout can be created.
 */
export function missingForReady(inputs: ReadinessInputs): ReadinessRequirement[] {
  const missing: ReadinessRequirement[] = [];
  if (inputs.archived) missing.push({ code: "archived", message: "It is archived: restore it to pay it." });
  if (inputs.complianceStatus === "suspended")
    missing.push({ code: "compliance_suspended", message: "Compliance suspended it: no payout until it is lifted." });
  if (inputs.missingIdentityFields.length > 0) {
    const named = inputs.missingIdentityFields.map((f) => FIELD_NAMES[f] ?? f.replaceAll("_", " ")).join(", ");
    missing.push({ code: "identity_incomplete", message: `Identity details: ${named}.` });
  }
  if (inputs.reacknowledgmentRequired) {
    missing.push({
      code: "reacknowledgment_required",
      message: "Its identity changed after your acknowledgment: acknowledge it again.",
    });
  } else if (!inputs.acknowledged) {
    missing.push({ code: "compliance_acknowledgment", message: "Your compliance acknowledgment (you checked who they are)." });
  }
  if (inputs.payoutUsableDestinations === 0) {
    missing.push({
      code: "payout_destination",
      message: "A payout-usable destination: add a bank account or send a collection link.",
    });
  }
  if (inputs.enrollmentRejected) {
    const detail = inputs.enrollmentFailureDetail === null ? "" : `: ${inputs.enrollmentFailureDetail}`;
    missing.push({ code: "enrollment_rejected", message: `The payout rail refused its enrollment${detail}.` });
  }
  return missing;
}
