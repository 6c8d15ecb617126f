// The payout resource as the pages use it, from the generated OpenAPI types.
import type { Schemas } from "../../../api/client";
import type { PayoutFilterQuery } from "../../../lib/payout-filters";

export type Payout = Schemas["Payout"];
export type PayoutStatus = Payout["status"];
export type Decision = Schemas["Decision"];
export type CreatePayoutRequest = Schemas["CreatePayoutRequest"];

/** The Payouts list's filters, as the page reads them from its address. */
export interface PayoutListFilters {
  readonly status: PayoutStatus | null;
  /** Sent only once it is a whole id (the field is typed into). */
  readonly beneficiaryId: string;
  readonly uploadId: string;
  readonly externalRef: string;
  /** Text of the payee's name or nickname (`payee`); sent when not blank. */
  readonly payee?: string;
  /** The extra filters (components/PayoutFilters.tsx), already in the API's terms. */
  readonly more: PayoutFilterQuery;
}

/** A new payout: its body and the key that makes sending it twice create it once. */
export interface CreatePayoutInput {
  readonly idempotencyKey: string;
  readonly body: CreatePayoutRequest;
}
