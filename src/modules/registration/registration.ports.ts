// What the registration module needs from other modules, named and required (test/startup/module-ports.test.ts).
import type { Tx } from "../../platform/db/client.js";
import type { IssueApiKeyInput, IssuedApiKeyBody } from "../api-keys/index.js";
import type { MailOutbox } from "../emails/index.js";
import type { PasswordPolicy } from "../people/index.js";

export interface RegistrationPorts {
  /** From the api-keys module: the first keys of a verified Business, in its transaction. */
  readonly issueApiKey: (tx: Tx, input: IssueApiKeyInput) => Promise<IssuedApiKeyBody>;
  /** From the emails module: the verification e-mail goes through the outbox. */
  readonly mail: Pick<MailOutbox, "sendPlatformMail">;
  /** From the people module: one password rule for registration, invitations, resets and changes. */
  readonly passwordPolicy: PasswordPolicy;
}
