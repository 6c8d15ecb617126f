// What a payee's sanctions screening state says on a payout (dashboard/src/lib/payee-screening.ts): a hit on a payout
// not sent yet says it is held until an admin clears it; on a payout already sent to the bank (a bank file built, or
// disbursed) it says it is not recalled; no hit reads as the state in words.
import { describe, expect, it } from "vitest";
import { type PayoutScreeningFacts, payeeScreeningText } from "../../dashboard/src/lib/payee-screening.js";

const payout = (status: string, screening: string, disbursement: string | null = null): PayoutScreeningFacts => ({
  status,
  disbursement_status: disbursement,
  payee: { screening_status: screening },
});

describe("payeeScreeningText", () => {
  it("says a hit holds a payout not sent yet", () => {
    expect(payeeScreeningText(payout("pending_approval", "potential_match"))).toBe(
      "Sanctions review required: not sent until an admin clears the hit",
    );
    expect(payeeScreeningText(payout("approved", "potential_match", "queued"))).toBe(
      "Sanctions review required: not sent until an admin clears the hit",
    );
    expect(payeeScreeningText(payout("approved", "confirmed_match"))).toBe("Confirmed sanctions match: this payout is not sent");
  });

  it("says a payout already sent to the bank is not recalled", () => {
    for (const facts of [payout("approved", "potential_match", "submitted"), payout("disbursed", "confirmed_match")]) {
      expect(payeeScreeningText(facts)).toMatch(/: this payout was already sent to the bank and is not recalled$/);
    }
  });

  it("names the state alone when there is no hit, or the payout ended without money moving", () => {
    expect(payeeScreeningText(payout("approved", "clear"))).toBe("Sanctions screening: No match on the sanctions lists");
    expect(payeeScreeningText(payout("pending_approval", "not_screened"))).toBe("Sanctions screening: Not screened");
    expect(payeeScreeningText(payout("canceled", "potential_match"))).toBe("Sanctions review required");
  });
});
