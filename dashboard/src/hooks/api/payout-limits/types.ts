import type { Schemas } from "../../../api/client";

export type PayoutLimits = Schemas["PayoutLimits"];
export type PayoutLimit = Schemas["PayoutLimit"];
export type PayoutLimitsInput = Schemas["PutPayoutLimitsRequest"];
export type ControlChange = Schemas["ControlChange"];

/** Whether a control's save answered a pending control change (202: a weakening waiting for a second admin). */
export function isControlChange(answer: unknown): answer is ControlChange {
  return typeof answer === "object" && answer !== null && (answer as { object?: unknown }).object === "control_change";
}
