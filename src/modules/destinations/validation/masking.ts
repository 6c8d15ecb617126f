// What may be shown of a destination. The spec masks identifiers to their last four characters; a Pix key
// has no "last four" that means anything for an e-mail, so it gets a masked form by key type instead.
// Every function here returns a string that is safe to display, log and serialize.
import type { PixKeyType } from "./pix.js";

/** The trailing four characters of an account identifier (IBAN, account number, CLABE, card number). */
export function maskLast4(identifier: string): string {
  return identifier.slice(-4);
}

/** A Pix key with only what lets its owner recognise it. Input is the normalised key from `checkPixKey`. */
export function maskPixKey(key: string, type: PixKeyType): string {
  switch (type) {
    case "cpf":
      // The Central Bank's own display of a CPF in Pix receipts: the middle six digits.
      return `***.${key.slice(3, 6)}.${key.slice(6, 9)}-**`;
    case "cnpj":
      return `**.${key.slice(2, 5)}.${key.slice(5, 8)}/${key.slice(8, 12)}-**`;
    case "phone":
      // +55, the area code, then only the last four digits.
      return `+55 (${key.slice(3, 5)}) *****-${key.slice(-4)}`;
    case "email":
      return maskEmail(key);
    case "evp":
      return `********-****-****-****-********${key.slice(-4)}`;
  }
}

/**
 * First character of the local part and the domain ("j***@example.com"). The stored masked value must fit
 * 64 characters; a DICT e-mail key can reach 77, so a very long domain is masked down to its last label.
 */
function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const masked = `${local.slice(0, 1)}***@${domain}`;
  if (masked.length <= MAX_MASKED_LENGTH) return masked;
  const topLevel = domain.slice(domain.lastIndexOf(".") + 1);
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***.${topLevel}`.slice(0, MAX_MASKED_LENGTH);
}

/** Width of the stored `last4` column, which also holds a masked Pix key. */
export const MAX_MASKED_LENGTH = 64;
