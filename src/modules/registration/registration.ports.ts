// What the registration module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { Role, Tenant } from "../../platform/auth/actor.js";
import type { Tx } from "../../platform/db/client.js";
import type { MailOutbox } from "../emails/index.js";
import type { PasswordPolicy } from "./registration.password.js";

/**
 * A first key to issue, as the api-keys module takes it. Stated here rather than imported: the api-keys module
 * reads registration's memberships, so registration importing it back would tie the two modules in a loop.
 */
export interface FirstApiKeyInput extends Tenant {
  readonly membershipId: string;
  readonly role: Role;
  readonly label: string | null;
}

/** An issued key, shown once in the registration response (serialized by the api-keys module's `IssuedApiKey` schema). */
export interface IssuedFirstApiKey {
  readonly id: string;
  readonly key: string;
}

export interface RegistrationPorts {
  /** From the api-keys module: the first keys of a verified Business, in its transaction. */
  readonly issueApiKey: (tx: Tx, input: FirstApiKeyInput) => Promise<IssuedFirstApiKey>;
  /** From the emails module: the verification e-mail goes through the outbox. */
  readonly mail: Pick<MailOutbox, "sendPlatformMail">;
  /**
   * The password rule (registration.password.ts, this module's own), passed in so that one policy serves
   * registration, invitations, resets and changes (the people module takes the same one).
   */
  readonly passwordPolicy: PasswordPolicy;
}
