// Top-ups as the Balances page uses them, from the generated OpenAPI types.
import type { Schemas } from "../../../api/client";

export type TopUp = Schemas["TopUp"];
export type TopUpStatus = TopUp["status"];

export interface TopUpFilters {
  readonly status: TopUpStatus | null;
  readonly fundingAccountId: string | null;
}

export type TopUpDecision = { readonly outcome: "approve" } | { readonly outcome: "reject"; readonly reason: string };
