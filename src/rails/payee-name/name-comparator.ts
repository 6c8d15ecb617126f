// The local payee name comparator: compares the name an account is declared to be held in with the payee's
// legal name the way a Verification of Payee service does, without asking a bank. Pure (no I/O, no clock).
//
// 1. Normalise each name into tokens, in two spellings: transliterated with the German convention (ü -> ue,
//    ß -> ss; `@sindresorhus/transliterate`) and with the accents dropped (ü -> u), so "Müller", "Mueller" and
//    "Muller" all meet. Lower case; dots and apostrophes inside a word dropped ("S.A." -> "sa", "O'Brien" ->
//    "obrien"), other punctuation a space; honorifics (Mr, Dr, Herr, Mme, ...) and trailing legal forms (GmbH,
//    Ltd, Inc, S.A., B.V., "GmbH & Co. KG", ...) removed, as is a leading "the".
// 2. Pair the tokens of the shorter name with the tokens of the other, in any order (greedy on the best score):
//    equal tokens score 1, an initial ("J") against a word it begins ("john") scores INITIAL_SCORE, anything
//    else its Jaro-Winkler similarity (`cmpstr`).
// 3. Answer (thresholds below, tested on a table of real-world pairs in test/unit/payee-name-comparator.test.ts):
//    - `match`: the same tokens in any order (or the same letters once spaces are dropped: "Mac Donald").
//    - `close_match`: every token of the shorter name paired at CLOSE_TOKEN_SCORE or better (a typo, an
//      initial), at least one of them exactly, and the longer name has at most one token more (a middle name)
//      when the shorter has two or more.
//    - `no_match`: anything else.
//    - `not_possible`: a name with nothing left to compare after normalisation (only honorifics or symbols).
import transliterate from "@sindresorhus/transliterate";
import type { NameCheckResult } from "./payee-name-verifier.js";
import { jaroWinkler } from "./similarity.js";

/** A token pair scoring at least this (Jaro-Winkler, 0..1) is a typo of the same word: "Jon"/"John" 0.93, "Smyth"/"Smith" 0.89. */
export const CLOSE_TOKEN_SCORE = 0.88;
/** The score of an initial against a word it begins ("J." against "John"): close, never a match on its own. */
export const INITIAL_SCORE = 0.9;

const HONORIFICS = new Set([
  "mr",
  "mrs",
  "ms",
  "mx",
  "miss",
  "dr",
  "prof",
  "sir",
  "dame",
  "herr",
  "frau",
  "monsieur",
  "madame",
  "mme",
  "mlle",
  "mademoiselle",
  "sr",
  "sra",
  "srta",
  "senor",
  "senora",
  "don",
  "dona",
  "dott",
  "dottssa",
  "sig",
  "sigra",
]);

/** Legal forms, spelt as they are once dots are dropped; removed from the end of a name, one after another. */
const LEGAL_FORMS = new Set([
  "gmbh",
  "mbh",
  "ag",
  "kg",
  "kgaa",
  "ohg",
  "ug",
  "gbr",
  "ev",
  "eg",
  "se",
  "ltd",
  "limited",
  "plc",
  "llc",
  "llp",
  "lp",
  "inc",
  "incorporated",
  "corp",
  "corporation",
  "co",
  "company",
  "cie",
  "sa",
  "sas",
  "sasu",
  "sarl",
  "eurl",
  "sl",
  "slu",
  "srl",
  "spa",
  "sapa",
  "snc",
  "bv",
  "nv",
  "vof",
  "cv",
  "oy",
  "oyj",
  "ab",
  "as",
  "asa",
  "aps",
  "kft",
  "zrt",
  "nyrt",
  "spzoo",
  "sro",
  "doo",
  "pty",
  "pvt",
  "private",
  "lda",
  "ltda",
  "sc",
  "scs",
  "and",
]);

/** The names' tokens in each spelling; empty when nothing is left to compare. */
export function nameTokenSpellings(name: string): string[][] {
  const withoutAccents = name.normalize("NFD").replace(/\p{M}+/gu, "");
  const spellings = [tokensOf(transliterate(name)), tokensOf(transliterate(withoutAccents))];
  const distinct = new Map(spellings.filter((t) => t.length > 0).map((t) => [t.join(" "), t] as const));
  return [...distinct.values()];
}

function tokensOf(ascii: string): string[] {
  const words = ascii
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/(\p{L}|\p{N})[.'’`](?=\p{L}|\p{N})/gu, "$1")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .split(" ")
    .filter((word) => word !== "");
  let tokens = words.filter((word) => !HONORIFICS.has(word));
  if (tokens[0] === "the" && tokens.length > 1) tokens = tokens.slice(1);
  // Trailing legal forms, possibly spelt in several tokens ("s a", "sp z o o"): never the whole name.
  for (;;) {
    const cut = legalFormTail(tokens);
    if (cut === 0 || cut >= tokens.length) break;
    tokens = tokens.slice(0, tokens.length - cut);
  }
  return tokens;
}

/** How many tokens at the end of `tokens` spell a legal form (0 when none). */
function legalFormTail(tokens: readonly string[]): number {
  for (let count = Math.min(4, tokens.length); count >= 1; count -= 1) {
    if (LEGAL_FORMS.has(tokens.slice(tokens.length - count).join(""))) return count;
  }
  return 0;
}

function tokenScore(a: string, b: string): { score: number; exact: boolean } {
  if (a === b) return { score: 1, exact: true };
  if ((a.length === 1 && b.startsWith(a)) || (b.length === 1 && a.startsWith(b))) return { score: INITIAL_SCORE, exact: false };
  if (a.length === 1 || b.length === 1) return { score: 0, exact: false };
  return { score: jaroWinkler(a, b), exact: false };
}

export interface NameComparison {
  readonly result: Exclude<NameCheckResult, "not_possible"> | "not_possible";
  /** The mean score of the paired tokens (0..1), for logs and tests; 1 for a match. */
  readonly score: number;
}

function compareTokens(a: readonly string[], b: readonly string[]): NameComparison {
  const sortedA = [...a].sort().join(" ");
  const sortedB = [...b].sort().join(" ");
  if (sortedA === sortedB || a.join("") === b.join("")) return { result: "match", score: 1 };
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  const free = new Set(longer.map((_, index) => index));
  let total = 0;
  let worst = 1;
  let exact = 0;
  // Greedy pairing on the best score: the best pair first, then the best among the rest.
  const pairs = shorter.flatMap((token, i) => longer.map((other, j) => ({ i, j, ...tokenScore(token, other) })));
  pairs.sort((x, y) => y.score - x.score);
  const pairedShort = new Set<number>();
  for (const pair of pairs) {
    if (pairedShort.has(pair.i) || !free.has(pair.j)) continue;
    pairedShort.add(pair.i);
    free.delete(pair.j);
    total += pair.score;
    worst = Math.min(worst, pair.score);
    if (pair.exact) exact += 1;
  }
  const score = total / shorter.length;
  const extra = longer.length - shorter.length;
  const extraAllowed = shorter.length >= 2 ? extra <= 1 : extra === 0;
  if (worst >= CLOSE_TOKEN_SCORE && exact >= 1 && extraAllowed) return { result: "close_match", score };
  return { result: "no_match", score };
}

/** Compares the name an account is held in with the payee's legal name (see the file's comment for the rules). */
export function compareNames(accountHolderName: string, payeeName: string): NameComparison {
  const holder = nameTokenSpellings(accountHolderName);
  const payee = nameTokenSpellings(payeeName);
  if (holder.length === 0 || payee.length === 0) return { result: "not_possible", score: 0 };
  const rank = { match: 3, close_match: 2, no_match: 1, not_possible: 0 } as const;
  let best: NameComparison = { result: "no_match", score: 0 };
  for (const a of holder) {
    for (const b of payee) {
      const found = compareTokens(a, b);
      if (rank[found.result] > rank[best.result] || (found.result === best.result && found.score > best.score)) best = found;
    }
  }
  return best;
}
