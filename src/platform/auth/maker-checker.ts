// Maker-checker compares people, not keys: the checker is the maker when the same key, the same membership or
// the same user made the thing (a second key minted by the same person is still the same person). One rule for
// every four-eyes decision (payouts, top-ups).
import type { Actor } from "./actor.js";

/** Who made something: the key (null for a dashboard session), the membership and the user behind it. */
export interface MakerIdentity {
  readonly apiKeyId: string | null;
  readonly membershipId: string | null;
  readonly userId: string | null;
}

export function isSameMaker(maker: MakerIdentity, actor: Pick<Actor, "apiKeyId" | "membershipId" | "userId">): boolean {
  return (
    (actor.apiKeyId !== null && maker.apiKeyId === actor.apiKeyId) ||
    (maker.membershipId !== null && maker.membershipId === actor.membershipId) ||
    (maker.userId !== null && maker.userId === actor.userId)
  );
}
