// Funding accounts and their ledger transfers as the Balances page uses them, from the generated OpenAPI types.
import type { Schemas } from "../../../api/client";

export type FundingAccount = Schemas["FundingAccount"];
export type Transfer = Schemas["Transfer"];
export type Enforcement = FundingAccount["enforcement"];

/** The settings an admin changes (PATCH /v1/funding-accounts/{id}). */
export interface FundingSettingsChanges {
  readonly enforcement?: Enforcement;
  readonly overdraft_limit_minor?: number;
  readonly low_balance_threshold_minor?: number | null;
  readonly awaiting_funds_expiry_hours?: number;
}
