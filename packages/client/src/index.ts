// The browser-safe entry: no Node.js imports. Webhook verification is in "./webhooks", file helpers in "./node".
export {
  BULK_MAX_ROWS,
  type BulkOptions,
  type BulkOutcome,
  type BulkPayoutResult,
  type BulkPayoutRow,
  type BulkProgress,
  type BulkRowResult,
  computeUploadId,
  createPayoutsFromCsv,
  createPayoutsFromRows,
} from "./bulk.js";
export {
  type ClientOptions,
  createClient,
  type OperationMethods,
  type PayoutsClient,
  parseRetryAfter,
  type RawResult,
  type RequestOptions,
  type RetryOptions,
} from "./client.js";
export { beneficiaryRowsFromCsv, CsvError, type CsvTable, PAYOUT_CSV_COLUMNS, parseCsv, payoutRowsFromCsv } from "./csv.js";
export { type ErrorDetail, PayoutsApiError, PayoutsConnectionError } from "./errors.js";
export { EVENT_TYPES, OPERATIONS, type OperationId, type OperationInfo, SIMULATOR_SCENARIOS } from "./generated/operations.js";
export type { components, operations, paths } from "./generated/schema.js";
export type {
  ErrorEnvelope,
  InputIsOptional,
  ListItem,
  ListOperationId,
  OperationInput,
  OperationResult,
  Schemas,
} from "./types.js";
