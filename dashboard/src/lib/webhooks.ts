// Webhook event types and delivery statuses as the API names them. The list is checked against the
// generated OpenAPI types both ways: a type the API drops or adds fails the typecheck.
import type { Schemas } from "../api/client";
import type { CompleteList } from "./complete-list";

export type EventType = Schemas["CreateWebhookSubscriptionRequest"]["enabled_events"][number];
export type Delivery = Schemas["WebhookDelivery"];
export type DeliveryStatus = Delivery["status"];

export const EVENT_TYPES = [
  "payout.disbursement_submitted",
  "payout.acknowledged",
  "payout.estimated_arrival_at",
  "payout.disbursed",
  "payout.delivered",
  "payout.settled",
  "payout.canceled",
  "payout.rejected",
  "payout.failed",
  "payout.returned",
  "payout.awaiting_funds",
  "payout.funds_reserved",
  "funding_account.low_balance",
  "beneficiary.details_submitted",
  "beneficiary.bank_account.registered",
  "beneficiary.enrollment_rejected",
  "beneficiary.bank_account.notification_of_change",
  "beneficiary.bank_account.corrected",
  "beneficiary.bank_account.review_required",
  "beneficiary.bank_account.approved",
  "beneficiary.bank_account.rejected",
  "bank_file.refused",
  "bank_file.item_unmatched",
  "top_up.approved",
  "top_up.rejected",
  "payout.reconciled",
  "statement_line.needs_review",
  "funding_account.credited",
  "funding_account.balance_mismatch",
  "beneficiary.screening_hit",
  "beneficiary.screening_cleared",
] as const satisfies readonly EventType[];
true satisfies CompleteList<typeof EVENT_TYPES, EventType>;

export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: "Pending",
  succeeded: "Succeeded",
  abandoned: "Abandoned",
  dropped: "Dropped",
};

// Filled badges with white text at AA contrast (the shades the payout statuses use).
export const DELIVERY_STATUS_COLORS: Record<DeliveryStatus, string> = {
  pending: "blue.8",
  succeeded: "teal.9",
  abandoned: "red.8",
  dropped: "gray.7",
};

/** Failing: abandoned after 8 attempts, or pending after at least one failed attempt (retrying). */
export function isFailing(delivery: Delivery): boolean {
  return delivery.status === "abandoned" || (delivery.status === "pending" && delivery.attempt_count > 0);
}

/** The last attempt's outcome in words: "HTTP 500", "timeout", … */
export function attemptOutcome(attempt: Delivery["attempts"][number]): string {
  if (attempt.succeeded) return `HTTP ${attempt.status_code ?? "—"}`;
  if (attempt.error_class === "http_status" || attempt.error_class === "redirect") return `HTTP ${attempt.status_code ?? "—"}`;
  return (attempt.error_class ?? "error").replaceAll("_", " ");
}
