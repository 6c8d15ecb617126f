// What may be shown of a destination, under the one masking rule of platform/masking.ts: at most 4 characters
// of an identifier, never more than half of it. A Pix key has no "last four" that means anything for an
// e-mail or a CPF, so it is masked by key type, revealing no more than that rule allows of the key's own
// characters (the fixed parts, like the +55 of a phone key or the punctuation of a CPF, tell nothing).
// Every function here returns a string that is safe to display, log and serialize.
import { maskTrailing } from "../../../platform/masking.js";
import type { PixKeyType } from "./pix.js";

/** The trailing characters of an account identifier (IBAN, account number, CLABE, card number) that may be shown. */
export function maskIdentifier(identifier: string): string {
  return maskTrailing(identifier);
}

/** A Pix key with only what lets its owner recognise it. Input is the normalised key from `checkPixKey`. */
export function maskPixKey(key: string, type: PixKeyType): string {
  switch (type) {
    case "cpf":
      // 11 digits: the last four before the two check digits (which follow from the others, so showing
      // them would give away more than they seem to).
      return `***.**${key.slice(5, 6)}.${key.slice(6, 9)}-**`;
    case "cnpj":
      // 14 digits: the last four of the company root; the branch and check digits stay hidden.
      return `**.**${key.slice(4, 5)}.${key.slice(5, 8)}/****-**`;
    case "phone":
      // +55, then only the last four digits of the number.
      return `+55 (**) *****-${key.slice(-4)}`;
    case "email":
      return maskEmail(key);
    case "evp":
      return `********-****-****-****-********${key.slice(-4)}`;
  }
}

/**
 * First character of the local part (none when the local part is a single character, which would then be
 * shown whole) and the domain, which names the provider the owner recognises ("j***@example.com"). The stored
 * masked value must fit 64 characters; a DICT e-mail key can reach 77, so a very long domain is masked down
 * to its last label.
 */
function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const first = local.length >= 2 ? local.slice(0, 1) : "";
  const masked = `${first}***@${domain}`;
  if (masked.length <= MAX_MASKED_LENGTH) return masked;
  const topLevel = domain.slice(domain.lastIndexOf(".") + 1);
  return `${first}***@${domain.slice(0, 1)}***.${topLevel}`.slice(0, MAX_MASKED_LENGTH);
}

/** Width of the stored `last4` column, which also holds a masked Pix key. */
export const MAX_MASKED_LENGTH = 64;

/** The sensitive values of a destination as stored (encrypted JSON); at most one identifies the account. */
export interface StoredSensitiveValues {
  readonly iban?: string;
  readonly account_number?: string;
  readonly clabe?: string;
  readonly pix_key?: string;
  readonly card_number?: string;
}

/**
 * The masked display value of a stored destination, from its decrypted sensitive values: the same choice as
 * at registration (an IBAN before the UK account number stored beside it). Null when nothing identifies it.
 */
export function maskStoredDestination(values: StoredSensitiveValues, pixKeyType: PixKeyType | null): string | null {
  if (values.iban !== undefined) return maskIdentifier(values.iban);
  if (values.clabe !== undefined) return maskIdentifier(values.clabe);
  if (values.pix_key !== undefined && pixKeyType !== null) return maskPixKey(values.pix_key, pixKeyType);
  if (values.card_number !== undefined) return maskIdentifier(values.card_number);
  if (values.account_number !== undefined) return maskIdentifier(values.account_number);
  return null;
}
