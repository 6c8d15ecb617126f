// Character sets of bank files. SEPA credit transfers carry only the EPC's basic Latin set
// (a-z A-Z 0-9 / - ? : ( ) . , ' + space); NACHA files carry upper-case ASCII. Names and addresses are
// transliterated (accents dropped, ligatures spelled out) rather than refused, the way banks' own portals do.
// Greek and Cyrillic text is transliterated into Latin letters first, as the EPC recommends (EPC217-08), with
// a maintained table (`@sindresorhus/transliterate`); only those two scripts go through it, so Latin text is
// written exactly as before. A text with nothing left after transliteration (a name in Chinese script, say)
// is refused by the caller with a clear code. Field lengths are measured on the transliterated text
// (`sepaTextLength`, `nachaTextLength`): what is too long for its field is refused at creation, never cut
// (bank-files/limits.ts).
import transliterateToLatin from "@sindresorhus/transliterate";

const SPELLED_OUT: Readonly<Record<string, string>> = {
  ß: "ss",
  ẞ: "SS",
  Æ: "AE",
  æ: "ae",
  Œ: "OE",
  œ: "oe",
  Ø: "O",
  ø: "o",
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Ð: "D",
  ð: "d",
  Þ: "TH",
  þ: "th",
  ı: "i",
  ĸ: "k",
  "&": "+",
  "\u2018": "'",
  "\u2019": "'",
  "\u201C": "'",
  "\u201D": "'",
  '"': "'",
  "\u2013": "-",
  "\u2014": "-",
  _: "-",
};

const SEPA_ALLOWED = /[A-Za-z0-9/\-?:().,'+ ]/;
const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** Texts made only of SEPA characters (most names and addresses): nothing to transliterate. */
const SEPA_ONLY = /^[A-Za-z0-9/\-?:().,'+ ]*$/;

const GREEK_OR_CYRILLIC = /[\p{Script=Greek}\p{Script=Cyrillic}][\p{Script=Greek}\p{Script=Cyrillic}\p{M}]*/gu;

/**
 * ELOT 743 (the Greek standard the EPC points to) writes the digraph ου as "ou"; the library's letter-by-letter
 * table would give "oy" (Papadopoylos).
 */
const GREEK_DIGRAPHS: Array<[string, string]> = [
  ["ου", "ou"],
  ["ού", "ou"],
  ["Ου", "Ou"],
  ["Ού", "Ou"],
  ["ΟΥ", "OU"],
  ["ΟΎ", "OU"],
];

/**
 * Greek and Cyrillic runs of `text` in Latin letters; everything else untouched. A capital that becomes two
 * letters before lower-case ones is written as a capital and a small letter ("Θεσσαλονίκη" -> "Thessaloniki",
 * not "THessaloniki"); an all-capital word stays all capitals.
 */
export function latinizeGreekAndCyrillic(text: string): string {
  GREEK_OR_CYRILLIC.lastIndex = 0;
  if (!GREEK_OR_CYRILLIC.test(text)) return text;
  return text.replace(GREEK_OR_CYRILLIC, (run) =>
    transliterateToLatin(run, { customReplacements: GREEK_DIGRAPHS }).replace(
      /\b([A-Z])([A-Z]+)(?=[a-z])/g,
      (_, first: string, rest: string) => first + rest.toLowerCase(),
    ),
  );
}

function transliterate(text: string, allowed: RegExp): string {
  // Fast path, same result: every character is kept as it is; only whitespace is collapsed.
  if (allowed === SEPA_ALLOWED && SEPA_ONLY.test(text)) return text.replace(/\s+/g, " ").trim();
  const cache = allowed === SEPA_ALLOWED ? SEPA_CHARS : null;
  let out = "";
  for (const char of latinizeGreekAndCyrillic(text.normalize("NFC"))) {
    let mapped = cache?.get(char);
    if (mapped === undefined) {
      const spelled = SPELLED_OUT[char];
      const candidate = spelled ?? char.normalize("NFD").replace(COMBINING_MARKS, "");
      mapped = "";
      for (const c of candidate) mapped += allowed.test(c) ? c : " ";
      if (cache !== null && cache.size < 10_000) cache.set(char, mapped);
    }
    out += mapped;
  }
  return out.replace(/\s+/g, " ").trim();
}

/**
 * What each character becomes in SEPA text, remembered (a 10,000-payout file transliterates the same few
 * hundred characters again and again); bounded so odd input cannot grow it without end.
 */
const SEPA_CHARS = new Map<string, string>();

/**
 * `text` in the SEPA basic Latin character set, whitespace collapsed, cut to `maxLength` characters. Callers
 * that write a payee's text check its length first (sepaTextLength): the cut is a last guard, never a policy.
 */
export function toSepaText(text: string, maxLength: number): string {
  return transliterate(text, SEPA_ALLOWED).slice(0, maxLength).trim();
}

/** How many characters `text` takes in a SEPA file once transliterated (what its field's limit applies to). */
export function sepaTextLength(text: string): number {
  return transliterate(text, SEPA_ALLOWED).length;
}

const NACHA_ALLOWED = /[A-Z0-9 .,/\-'&()+]/;

/** `text` in upper-case ASCII for a NACHA field, whitespace collapsed (no cut). */
function nachaText(text: string): string {
  let out = "";
  for (const char of latinizeGreekAndCyrillic(text.normalize("NFC"))) {
    if (char === "&") {
      out += "&";
      continue;
    }
    const spelled = SPELLED_OUT[char];
    const candidate = (spelled ?? char.normalize("NFD").replace(COMBINING_MARKS, "")).toUpperCase();
    for (const c of candidate) out += NACHA_ALLOWED.test(c) ? c : " ";
  }
  return out.replace(/\s+/g, " ").trim();
}

/**
 * `text` in upper-case ASCII for a NACHA field, whitespace collapsed, cut to `maxLength` characters. Payee
 * texts are checked against their field first (nachaTextLength); the cut is a last guard, never a policy.
 */
export function toNachaText(text: string, maxLength: number): string {
  return nachaText(text).slice(0, maxLength).trim();
}

/** How many characters `text` takes in a NACHA field once transliterated (what its field's limit applies to). */
export function nachaTextLength(text: string): number {
  return nachaText(text).length;
}

/** True when a text has at least one letter or digit left after SEPA transliteration. */
export function isSepaRepresentable(text: string): boolean {
  return /[A-Za-z0-9]/.test(toSepaText(text, 1000));
}
