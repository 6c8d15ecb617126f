// Bulk uploads: a CSV file's rows sent as payouts, and the uploads made so far as batches of payouts.
import type { Schemas } from "../../../api/client";
import type { Payout } from "../payouts/types";

export type BulkUploadRequest = Schemas["BulkPayoutRequest"];
export type BulkResult = Schemas["BulkPayoutResult"];
export type BulkRowResult = BulkResult["results"][number];

/** One upload: the payouts its rows created, grouped by upload id. */
export interface Batch {
  readonly uploadId: string;
  /** When its first payout was created. */
  readonly firstAt: string;
  readonly payouts: Payout[];
}

export interface Batches {
  /** Newest first. */
  readonly batches: readonly Batch[];
  /** More payouts than were read: older uploads are only in Payouts, filtered by upload id. */
  readonly partial: boolean;
}
