// One parser for every address the service puts in a header (MAIL_FROM, a recipient), so a value that
// would smuggle a second recipient or a header line past the mail composer is refused up front.
import addressparser from "nodemailer/lib/addressparser";

export interface Mailbox {
  /** Display name; empty when the value was a bare address. */
  readonly name: string;
  readonly address: string;
}

// The characters of a header line break and other controls: never valid in an address field we accept.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const BARE_ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;

/**
 * Parses `Name <local@domain>` or `local@domain` holding exactly one mailbox; null for anything else
 * (no address, several addresses, a group, a line break).
 */
export function parseMailbox(value: string): Mailbox | null {
  if (value.trim() === "" || CONTROL_CHARACTERS.test(value)) return null;
  const parsed = addressparser(value);
  if (parsed.length !== 1) return null;
  const [entry] = parsed;
  if (entry === undefined || entry.address === undefined || !BARE_ADDRESS.test(entry.address)) return null;
  return { name: entry.name, address: entry.address };
}

/** The domain part of a mailbox's address (lower-cased), e.g. for Message-ID values. */
export function mailboxDomain(mailbox: Mailbox): string {
  return mailbox.address.slice(mailbox.address.lastIndexOf("@") + 1).toLowerCase();
}
