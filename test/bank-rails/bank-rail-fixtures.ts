// Bank-rail configurations and destinations shared by the bank-rails tests.
import path from "node:path";
import { composeIBAN } from "ibantools";
import type { AppInstance } from "../../src/platform/http/types.js";
import { bearer, createBeneficiary, GERMAN_IBAN_ACCOUNT, registerBankAccount } from "../helpers/factories.js";
import { PERSON_IDENTITY } from "../payouts/payout-fixtures.js";

export const FINGERPRINT = "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU";

export function sepaConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    originator: {
      name: "Acme Payouts GmbH",
      iban: "DE89 3704 0044 0532 0130 00",
      bic: "COBADEFFXXX",
      initiating_party_id: "ACME-001",
      address: { street_name: "Hauptstraße", building_number: "1", postal_code: "10115", town_name: "Berlin", country: "DE" },
    },
    cutoff_times: ["15:00", "09:30"],
    time_zone: "Europe/Berlin",
    delivery: {
      kind: "sftp",
      host: "sftp.bank.example",
      port: 2222,
      username: "acme",
      password: "s3cret-sftp-password",
      host_key_fingerprint: FINGERPRINT,
      outbound_directory: "out",
      inbound_directory: "in",
    },
    ...overrides,
  };
}

let debtorCounter = 0;

/**
 * A SEPA originator with a debtor IBAN no other call gave (one debtor account belongs to one Business per
 * environment, so each Business of a test needs its own).
 */
export function uniqueSepaOriginator(): Record<string, unknown> {
  debtorCounter += 1;
  const iban = composeIBAN({ countryCode: "DE", bban: `37040044${String(debtorCounter).padStart(10, "0")}` });
  if (iban === null) throw new Error("could not compose an IBAN");
  return { ...(sepaConfig().originator as object), iban };
}

/** An ACH originator with a Company Identification no other call gave. */
export function uniqueAchOriginator(): Record<string, unknown> {
  debtorCounter += 1;
  return { ...(achConfig().originator as object), company_identification: `9${String(debtorCounter).padStart(9, "0")}` };
}

/** Where a Business's local folder `directory` is on disk: its own folder under the operator's root. */
export function localFolder(root: string, businessId: string, directory: string): string {
  return path.join(root, businessId, "production", directory);
}

export function achConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    originator: {
      odfi_routing_number: "091000019",
      immediate_destination: "091000019",
      immediate_destination_name: "Wells Fargo",
      immediate_origin: "1234567890",
      immediate_origin_name: "Acme Payouts Inc",
      company_name: "Acme Payouts",
      company_identification: "1234567890",
    },
    cutoff_times: ["16:00"],
    time_zone: "America/New_York",
    delivery: { kind: "local_directory", outbound_directory: "ach/out", inbound_directory: "ach/in" },
    ...overrides,
  };
}

export const US_ACCOUNT = {
  account_holder_name: "Jane Doe",
  country: "US",
  currency: "USD",
  routing_code: "021000021",
  account_number: "123456789",
};

/** A compliant Beneficiary with a structured address and one validated EUR account (payable by SEPA). */
export async function sepaPayee(app: AppInstance, key: string): Promise<{ beneficiaryId: string }> {
  const beneficiary = await createBeneficiary(app, key, {
    ...PERSON_IDENTITY,
    postal_address: { line1: "Hauptstraße 1", city: "Berlin", postal_code: "10115", country: "DE" },
  });
  await registerBankAccount(app, key, beneficiary.id, GERMAN_IBAN_ACCOUNT);
  const ack = await app.inject({ method: "POST", url: `/v1/beneficiaries/${beneficiary.id}/acknowledge`, headers: bearer(key) });
  if (ack.statusCode !== 200) throw new Error(`acknowledge failed: ${ack.statusCode} ${ack.body}`);
  return { beneficiaryId: beneficiary.id };
}
