// Pix keys (Brazil's instant-payment aliases) and the CPF/CNPJ check digits they rely on. The five key
// types and their canonical spellings follow the Central Bank's DICT directory: CPF and CNPJ as bare
// characters, e-mail in lowercase (at most 77 characters), phone in E.164 with +55, random key (EVP) as a
// lowercase UUID. No maintained npm library covers this, so the rules live here, each with its reason.

export const PIX_KEY_TYPES = ["cpf", "cnpj", "email", "phone", "evp"] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export type PixKeyCheck = { ok: true; type: PixKeyType; key: string } | { ok: false; message: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// DICT's own e-mail pattern (lowercase), plus a dot in the domain so "user@localhost" is refused.
const EMAIL = /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const MAX_EMAIL_KEY_LENGTH = 77;
// Pix phone keys are Brazilian mobile numbers: +55, a two-digit area code (no zero), then 9 and 8 digits.
const BR_MOBILE = /^\+55[1-9]{2}9\d{8}$/;

/** Classifies and normalises a raw Pix key, or says why it is not one. */
export function checkPixKey(raw: string): PixKeyCheck {
  const key = raw.trim();
  if (key.startsWith("+")) return checkPhoneKey(key);
  if (key.includes("@")) return checkEmailKey(key);
  if (UUID.test(key.toLowerCase())) return { ok: true, type: "evp", key: key.toLowerCase() };
  return checkTaxIdKey(key);
}

function checkPhoneKey(key: string): PixKeyCheck {
  // People type "+55 (11) 98765-4321"; DICT stores "+5511987654321".
  const phone = key.replace(/[\s().-]/g, "");
  if (BR_MOBILE.test(phone)) return { ok: true, type: "phone", key: phone };
  return { ok: false, message: "A phone Pix key is a Brazilian mobile number in E.164 form, such as +5511987654321." };
}

function checkEmailKey(key: string): PixKeyCheck {
  const email = key.toLowerCase();
  if (email.length <= MAX_EMAIL_KEY_LENGTH && EMAIL.test(email)) return { ok: true, type: "email", key: email };
  return { ok: false, message: `An e-mail Pix key must be a valid address of at most ${MAX_EMAIL_KEY_LENGTH} characters.` };
}

function checkTaxIdKey(key: string): PixKeyCheck {
  // CPF and CNPJ are usually written with punctuation ("529.982.247-25", "11.222.333/0001-81").
  const bare = key.replace(/[\s./-]/g, "").toUpperCase();
  if (/^\d{11}$/.test(bare)) {
    if (isValidCpf(bare)) return { ok: true, type: "cpf", key: bare };
    return { ok: false, message: "The CPF check digits do not match (a phone key must start with +55)." };
  }
  if (/^[0-9A-Z]{12}\d{2}$/.test(bare)) {
    if (isValidCnpj(bare)) return { ok: true, type: "cnpj", key: bare };
    return { ok: false, message: "The CNPJ check digits do not match." };
  }
  return {
    ok: false,
    message: "A Pix key is a CPF, a CNPJ, an e-mail address, a +55 mobile number or a random key (UUID).",
  };
}

/** CPF: 9 digits and two mod-11 check digits. A run of one digit ("111.111.111-11") passes the arithmetic but is never issued. */
export function isValidCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  return hasCheckDigits(digits, 9, 11);
}

/**
 * CNPJ: 12 characters and two mod-11 check digits. From July 2026 the Receita Federal issues alphanumeric
 * CNPJs (letters in the first 12 positions); the same algorithm applies with each character valued at its
 * ASCII code minus 48, so numeric and alphanumeric CNPJs share one check.
 */
export function isValidCnpj(value: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(value) || /^(\d)\1{13}$/.test(value)) return false;
  return hasCheckDigits(value, 12, 9);
}

/** Both trailing check digits of a CPF/CNPJ-style number; the second also covers the first. */
function hasCheckDigits(value: string, bodyLength: number, maxWeight: number): boolean {
  const first = mod11CheckDigit(value.slice(0, bodyLength), maxWeight);
  const second = mod11CheckDigit(value.slice(0, bodyLength + 1), maxWeight);
  return value.slice(bodyLength) === `${first}${second}`;
}

/**
 * Weights 2, 3, 4, … from the rightmost character, wrapping back to 2 after `maxWeight` (CNPJ wraps at 9;
 * CPF's weights never reach its 11). A remainder below 2 gives 0, else 11 minus the remainder.
 */
function mod11CheckDigit(body: string, maxWeight: number): number {
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += (body.charCodeAt(i) - 48) * weight;
    weight = weight === maxWeight ? 2 : weight + 1;
  }
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}
