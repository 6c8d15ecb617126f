// Name comparison for sanctions screening (pure): normalisation (transliterated to Latin, accents and
// punctuation removed, lower case), the index keys a name is filed under (sanctions_name_keys), and the
// similarity score, token-order independent, built on Jaro-Winkler (@skyra/jaro-winkler).
import transliterate from "@sindresorhus/transliterate";
import { jaroWinkler } from "@skyra/jaro-winkler";

/**
 * Words that say what kind of party a name is, not who: left out of the index keys (they would make every
 * company a candidate for every other) but kept in the score.
 */
const KEY_STOP_WORDS = new Set([
  "the",
  "of",
  "and",
  "al",
  "el",
  "bin",
  "ibn",
  "abu",
  "de",
  "la",
  "le",
  "van",
  "von",
  "der",
  "da",
  "di",
  "du",
  "co",
  "ltd",
  "llc",
  "inc",
  "sa",
  "ag",
  "gmbh",
  "limited",
  "company",
  "corp",
  "corporation",
  "jsc",
  "ooo",
  "oao",
  "pjsc",
  "plc",
  "bv",
  "srl",
  "sl",
  "trading",
  "group",
  "holding",
  "holdings",
  "international",
  "mr",
  "mrs",
  "dr",
]);

/** Lower-case ASCII words of a name: transliterated (Cyrillic, Greek, Arabic…), accents gone, punctuation a space. */
export function nameTokens(name: string): string[] {
  const latin = transliterate(name).toLowerCase();
  const tokens = latin
    .replace(/['’`]/g, "")
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 0);
  return tokens;
}

/**
 * The keys a name is filed under, and looked up by: every word of three letters or more that is not a stop
 * word, and the first four letters of every word of five or more (`p:abcd`), so one typo in a long word still
 * finds the entry through its other words or its start.
 */
export function nameKeys(tokens: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const token of tokens) {
    if (token.length < 3 || KEY_STOP_WORDS.has(token)) continue;
    keys.add(token);
    if (token.length >= 5) keys.add(`p:${token.slice(0, 4)}`);
  }
  // A name made only of short or stop words (e.g. "Al Ra") is filed under its words as they are.
  if (keys.size === 0) for (const token of tokens) if (token.length >= 2) keys.add(token);
  return [...keys];
}

/** Jaro-Winkler of two words, memoised: names repeat their words a lot, across a batch and across a list. */
export function createTokenSimilarity(maxEntries = 200_000) {
  const memo = new Map<string, number>();
  return (a: string, b: string): number => {
    if (a === b) return 1;
    const key = a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const value = jaroWinkler(a, b);
    if (memo.size >= maxEntries) memo.clear();
    memo.set(key, value);
    return value;
  };
}

export type TokenSimilarity = ReturnType<typeof createTokenSimilarity>;

/**
 * Similarity of two names in [0, 1], whatever the order of their words: the word pairs are matched best
 * first (each word used once), then
 *  - coverage of the screened name: its words weighted by length, each by the Jaro-Winkler of its pair
 *    (an unpaired word counts 0);
 *  - coverage of the listed name, the same way;
 * and the score is the screened name's coverage, lowered by at most 15% when the listed name has words
 * the screened one lacks (a middle name, a patronymic): "Ivan Petrov" against "PETROV, Ivan Sergeyevich" is 0.92,
 * "John Smith" against "John Smithson Trading Company" 0.88.
 */
export function nameSimilarity(screened: readonly string[], listed: readonly string[], similarity: TokenSimilarity): number {
  if (screened.length === 0 || listed.length === 0) return 0;
  const pairs: { i: number; j: number; score: number }[] = [];
  for (let i = 0; i < screened.length; i++) {
    for (let j = 0; j < listed.length; j++) {
      pairs.push({ i, j, score: similarity(screened[i] as string, listed[j] as string) });
    }
  }
  pairs.sort((x, y) => y.score - x.score);
  const usedI = new Set<number>();
  const usedJ = new Set<number>();
  let coveredScreened = 0;
  let coveredListed = 0;
  for (const pair of pairs) {
    if (usedI.has(pair.i) || usedJ.has(pair.j)) continue;
    usedI.add(pair.i);
    usedJ.add(pair.j);
    coveredScreened += pair.score * (screened[pair.i] as string).length;
    coveredListed += pair.score * (listed[pair.j] as string).length;
  }
  const screenedLength = screened.reduce((sum, token) => sum + token.length, 0);
  const listedLength = listed.reduce((sum, token) => sum + token.length, 0);
  const screenedCoverage = coveredScreened / screenedLength;
  const listedCoverage = coveredListed / listedLength;
  return screenedCoverage * (0.85 + 0.15 * listedCoverage);
}
