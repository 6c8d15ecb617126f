// The one masking rule for identifiers shown to anyone (account numbers, IBANs, CLABEs, card numbers, Pix
// keys, tax ids): reveal at most 4 characters, and never more than half of the identifier, rounded down.
//
//   length 1      -> nothing shown
//   length 2..3   -> 1 character
//   length 4..5   -> 2 characters
//   length 6..7   -> 3 characters
//   length 8 and more -> 4 characters (the familiar "last four")
//
// So a short identifier is never shown whole: a 4-digit US account number reads "…34", not "1234". Half is
// the ceiling because what is hidden must stay a guess: with half hidden, even the shortest identifiers keep
// as many unknown characters as are shown. The masked value is computed once, when the identifier is stored,
// and stored beside its ciphertext (`last4`, `tax_id_last4`, a tax form's `tin_last4`): every response, page,
// export, event and e-mail shows that stored value and nothing else.

/** Version of the rule the stored masked values follow; rows masked under an older rule are re-masked by a job. */
export const MASK_VERSION = 1;

/** How many trailing characters of an identifier of this length may be shown. */
export function revealedLength(length: number): number {
  return Math.max(0, Math.min(4, Math.floor(length / 2)));
}

/** The trailing characters of `identifier` that may be shown (empty for a 1-character identifier). */
export function maskTrailing(identifier: string): string {
  const shown = revealedLength(identifier.length);
  return shown === 0 ? "" : identifier.slice(-shown);
}

/** How a sentence names a masked destination: " ending in 1234", or nothing when not even one character may be shown. */
export function endingIn(masked: string): string {
  return masked === "" ? "" : ` ending in ${masked}`;
}
