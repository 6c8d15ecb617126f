// Character sets of bank files. SEPA credit transfers carry only the EPC's basic Latin set
// (a-z A-Z 0-9 / - ? : ( ) . , ' + space); NACHA files carry upper-case ASCII. Names and addresses are
// transliterated (accents dropped, ligatures spelled out) rather than refused, the way banks' own portals do;
// a text with nothing left after transliteration (a name in Greek or Cyrillic script, say) is refused by the
// caller with a clear code.

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

function transliterate(text: string, allowed: RegExp): string {
  // Fast path, same result: every character is kept as it is; only whitespace is collapsed.
  if (allowed === SEPA_ALLOWED && SEPA_ONLY.test(text)) return text.replace(/\s+/g, " ").trim();
  const cache = allowed === SEPA_ALLOWED ? SEPA_CHARS : null;
  let out = "";
  for (const char of text.normalize("NFC")) {
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

/** `text` in the SEPA basic Latin character set, whitespace collapsed, cut to `maxLength` characters. */
export function toSepaText(text: string, maxLength: number): string {
  return transliterate(text, SEPA_ALLOWED).slice(0, maxLength).trim();
}

const NACHA_ALLOWED = /[A-Z0-9 .,/\-'&()+]/;

/** `text` in upper-case ASCII for a NACHA field, whitespace collapsed, cut to `maxLength` characters. */
export function toNachaText(text: string, maxLength: number): string {
  let out = "";
  for (const char of text.normalize("NFC")) {
    if (char === "&") {
      out += "&";
      continue;
    }
    const spelled = SPELLED_OUT[char];
    const candidate = (spelled ?? char.normalize("NFD").replace(COMBINING_MARKS, "")).toUpperCase();
    for (const c of candidate) out += NACHA_ALLOWED.test(c) ? c : " ";
  }
  return out.replace(/\s+/g, " ").trim().slice(0, maxLength).trim();
}

/** True when a text has at least one letter or digit left after SEPA transliteration. */
export function isSepaRepresentable(text: string): boolean {
  return /[A-Za-z0-9]/.test(toSepaText(text, 1000));
}
