// What the people module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { Actor } from "../../platform/auth/actor.js";
import type { Tx } from "../../platform/db/client.js";
import type { MailOutbox } from "../emails/index.js";

export interface PeoplePorts {
  /** From the emails module: invitations, resets and weakened-control alerts go through the outbox. */
  readonly mail: Pick<MailOutbox, "sendPlatformMail">;
  /** From the api-keys module: a removed member's keys are revoked in the removal's transaction. */
  readonly revokeKeysOfRemovedMember: (tx: Tx, actor: Actor, membershipId: string) => Promise<number>;
}
