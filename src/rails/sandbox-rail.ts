// The sandbox rail (spec, What the service does 5): every payout succeeds and stops at `disbursed`.
// It reports `acknowledged` then `disbursed` at once; delivered, settled, canceled and returned never happen.
import { createHash } from "node:crypto";
import type { PayoutRail } from "./rail.js";

export function createSandboxRail(): PayoutRail {
  return {
    name: "sandbox",
    async submit(request) {
      // Derived from our idempotency key, so a repeated submission yields the same reference.
      const railRef = `sbx_${createHash("sha256").update(request.idempotencyKey).digest("hex").slice(0, 24)}`;
      return {
        accepted: true,
        railRef,
        scheduledOutcomes: [
          { afterMs: 0, outcome: { type: "acknowledged" } },
          { afterMs: 0, outcome: { type: "disbursed" } },
        ],
      };
    },
    async enroll() {
      return { outcome: "verified" };
    },
  };
}
