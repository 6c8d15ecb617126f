// TEMPORARY, until the reconciliation module's routes are in the OpenAPI document (branch h/recon): the routes
// and shapes of /work/notes/contracts.md (issue 28) added to the generated `paths`, so the page and its hooks call
// `api.GET("/v1/bank-statements")` exactly as they will once the document has them. When the generated types
// carry these paths, TypeScript refuses the duplicate declarations: delete this file and its import in
// hooks/api/reconciliation/types.ts, nothing else changes.
import type { Schemas } from "./client";

type Envelope = { content: { "application/json": Schemas["ErrorEnvelope"] } };
type Json<T> = { headers: Record<string, unknown>; content: { "application/json": T } };
type Refusals = { 400: Envelope; 401: Envelope; 403: Envelope; 404: Envelope; 409: Envelope; 422: Envelope };

export interface ContractBankStatement {
  id: string;
  object: "bank_statement";
  funding_account_id: string;
  format: "camt.053" | "camt.052" | "bai2";
  message_version: string;
  statement_id: string;
  sequence_number: number | null;
  period_from: string | null;
  period_to: string | null;
  opening_booked_minor: number | null;
  closing_booked_minor: number | null;
  currency: string;
  line_count: number;
  lines_by_status: { matched: number; needs_review: number; unmatched: number; ignored: number; pending: number };
  balance_check: {
    status: "agrees" | "mismatch" | "not_checked" | "resolved";
    ledger_minor: number | null;
    bank_minor: number | null;
    difference_minor: number | null;
    sequence_gap: { expected: number; received: number } | null;
  };
  created_at: string;
  source: "upload" | "inbound_folder";
}

export interface ContractStatementLine {
  id: string;
  object: "statement_line";
  statement_id: string;
  funding_account_id: string;
  status: "matched" | "needs_review" | "unmatched" | "ignored";
  entry_status: "booked" | "pending";
  booking_date: string | null;
  value_date: string | null;
  direction: "debit" | "credit";
  amount_minor: number;
  currency: string;
  bank_reference: string | null;
  references: {
    end_to_end_ids: string[];
    payment_information_id: string | null;
    instruction_ids: string[];
    ach_trace: string | null;
  };
  remittance: string | null;
  match: {
    rule: string;
    payout_ids: string[];
    top_up_id: string | null;
    difference_minor: number;
    matched_by: unknown;
    matched_at: string;
  } | null;
  candidates: { payout_id: string; amount_minor: number; currency: string; payee: string; created_at: string }[];
  ignored_reason: string | null;
}

type Statement = ContractBankStatement;
type Line = ContractStatementLine;
type Page = { limit?: number; cursor?: string };
/** A path item as openapi-typescript writes one: every method named, those the path lacks as `never`. */
type PathItem<M> = Omit<NoMethods, keyof M> & M;
type NoMethods = {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  get?: never;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};

declare module "./generated/openapi" {
  interface paths {
    "/v1/bank-statements": PathItem<{
      get: {
        parameters: { query?: Page & { funding_account_id?: string } };
        responses: { 200: Json<{ bank_statements: Statement[]; next_cursor: string | null }> } & Refusals;
      };
      post: {
        parameters: Record<string, never>;
        requestBody: { content: { "application/xml": string; "text/plain": string } };
        responses: { 200: Json<Statement>; 201: Json<Statement> } & Refusals;
      };
    }>;
    "/v1/bank-statements/{id}": PathItem<{
      get: { parameters: { path: { id: string } }; responses: { 200: Json<Statement> } & Refusals };
    }>;
    "/v1/bank-statements/{id}/accept-opening-balance": PathItem<{
      post: { parameters: { path: { id: string } }; responses: { 200: Json<Statement> } & Refusals };
    }>;
    "/v1/bank-statements/{id}/resolve-mismatch": PathItem<{
      post: {
        parameters: { path: { id: string } };
        requestBody: { content: { "application/json": { reason: string } } };
        responses: { 200: Json<Statement> } & Refusals;
      };
    }>;
    "/v1/statement-lines": PathItem<{
      get: {
        parameters: {
          query?: Page & { status?: Line["status"]; funding_account_id?: string; statement_id?: string };
        };
        responses: { 200: Json<{ statement_lines: Line[]; next_cursor: string | null }> } & Refusals;
      };
    }>;
    "/v1/statement-lines/{id}": PathItem<{
      get: { parameters: { path: { id: string } }; responses: { 200: Json<Line> } & Refusals };
    }>;
    "/v1/statement-lines/{id}/match": PathItem<{
      post: {
        parameters: { path: { id: string } };
        requestBody: { content: { "application/json": { payout_ids: string[] } | { top_up_id: string } } };
        responses: { 200: Json<Line> } & Refusals;
      };
    }>;
    "/v1/statement-lines/{id}/unmatch": PathItem<{
      post: { parameters: { path: { id: string } }; responses: { 200: Json<Line> } & Refusals };
    }>;
    "/v1/statement-lines/{id}/ignore": PathItem<{
      post: {
        parameters: { path: { id: string } };
        requestBody: { content: { "application/json": { reason: string } } };
        responses: { 200: Json<Line> } & Refusals;
      };
    }>;
  }
}
