// The screening hits' shapes as the dashboard reads them (from the generated OpenAPI types).
import type { Operations, Schemas } from "../../../api/client";

export type ScreeningHit = Schemas["ScreeningHit"];
export type ScreeningHitStatus = ScreeningHit["status"];
export type ScreeningOutcome = "clear" | "confirm";

export interface ScreeningHitFilters {
  readonly status: NonNullable<NonNullable<Operations["listScreeningHits"]["parameters"]["query"]>["status"]> | null;
  readonly beneficiaryId: string | null;
}
