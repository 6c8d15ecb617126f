// Name comparison for sanctions screening (pure): normalisation (transliterated to Latin, accents and
// punctuation removed, lower case), the index keys a name is filed under (sanctions_name_keys), and the
// similarity score, token-order independent, built on Jaro-Winkler (@skyra/jaro-winkler's, ported below).
import transliterate from "@sindresorhus/transliterate";

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

/**
 * Jaro-Winkler of two words, memoised by word then word (a rescreen of 100,000 payees compares about 37 million
 * word pairs, a few hundred thousand distinct ones per 20,000 payees). Two maps, not one keyed by the pair: the
 * pair's key string had to be built and hashed on every call, which cost more than the comparison; a word's hash
 * is computed once and kept by the string. Cleared past `maxPairs`
 * (500,000 pairs: 44 MB measured, keys included).
 */
export function createTokenSimilarity(maxPairs = 500_000) {
  let memo = new Map<string, Map<string, number>>();
  let size = 0;
  return (a: string, b: string): number => {
    if (a === b) return 1;
    let inner = memo.get(a);
    if (inner === undefined) {
      if (size >= maxPairs) {
        memo = new Map();
        size = 0;
      }
      inner = new Map();
      memo.set(a, inner);
    }
    let value = inner.get(b);
    if (value === undefined) {
      value = jaroWinklerOfWords(a, b);
      inner.set(b, value);
      size++;
    }
    return value;
  };
}

let matched1 = new Uint8Array(64);
let matched2 = new Uint8Array(64);

/**
 * @skyra/jaro-winkler's `jaroWinkler`, step for step and with its quirks (a common prefix of four scores as five;
 * past the end of both words counts as agreeing), on the words `nameTokens` makes (ASCII letters and digits, so a
 * UTF-16 unit is a character) without its allocations: it spreads both strings into arrays and allocates two
 * buffers per call, which made it most of a rescreen's scoring time. test/screening/names.test.ts compares the two.
 */
export function jaroWinklerOfWords(a: string, b: string): number {
  const l1 = a.length;
  const l2 = b.length;
  if (matched1.length < l1) matched1 = new Uint8Array(l1 * 2);
  if (matched2.length < l2) matched2 = new Uint8Array(l2 * 2);
  matched1.fill(0, 0, l1);
  matched2.fill(0, 0, l2);
  const window = Math.floor(Math.max(l1, l2) / 2);
  let matches = 0;
  for (let i = 0; i < l1; i++) {
    const start = Math.max(0, i - window);
    const end = Math.min(i + window + 1, l2);
    const c = a.charCodeAt(i);
    for (let j = start; j < end; j++) {
      if (matched2[j] || b.charCodeAt(j) !== c) continue;
      matched1[i] = 1;
      matched2[j] = 1;
      ++matches;
      break;
    }
  }
  if (matches <= 0) return 0;
  let transpositions = 0;
  for (let i = 0, j = 0; i < l1; i++) {
    if (matched1[i] === 0) continue;
    while (j < l2 && matched2[j] === 0) j++;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) transpositions++;
    j++;
  }
  transpositions = Math.floor(transpositions / 2);
  const similarity = (matches / l1 + matches / l2 + (matches - transpositions) / matches) / 3;
  let prefix = 0;
  for (; prefix < 4; prefix++) {
    const c1 = prefix < l1 ? a.charCodeAt(prefix) : -1;
    const c2 = prefix < l2 ? b.charCodeAt(prefix) : -1;
    if (c1 !== c2) break;
  }
  if (prefix === 4) prefix = 5;
  return similarity + prefix * 0.1 * (1 - similarity);
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
  const n = screened.length;
  const m = listed.length;
  if (n === 0 || m === 0) return 0;
  // The used words are kept as bits: a name of more than 30 words (none seen on a list) takes the plain way.
  if (n > 30 || m > 30) return nameSimilarityBySort(screened, listed, similarity);
  // Every word pair's score, in a buffer reused across calls (a rescreen scores millions of name pairs).
  if (scratch.length < n * m) scratch = new Float64Array(n * m * 2);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < m; j++) scratch[i * m + j] = similarity(screened[i] as string, listed[j] as string);
  // Best pair first, each word used once: the highest score among unused words, ties to the lowest (i, j), which
  // is the order a stable sort of all pairs by score would visit them in.
  let usedI = 0;
  let usedJ = 0;
  let coveredScreened = 0;
  let coveredListed = 0;
  for (let round = Math.min(n, m); round > 0; round--) {
    let best = -1;
    let bestI = -1;
    let bestJ = -1;
    for (let i = 0; i < n; i++) {
      if (usedI & (1 << i)) continue;
      for (let j = 0; j < m; j++) {
        if (usedJ & (1 << j)) continue;
        const score = scratch[i * m + j] as number;
        if (score > best) {
          best = score;
          bestI = i;
          bestJ = j;
        }
      }
    }
    usedI |= 1 << bestI;
    usedJ |= 1 << bestJ;
    coveredScreened += best * (screened[bestI] as string).length;
    coveredListed += best * (listed[bestJ] as string).length;
  }
  let screenedLength = 0;
  for (const token of screened) screenedLength += token.length;
  let listedLength = 0;
  for (const token of listed) listedLength += token.length;
  const screenedCoverage = coveredScreened / screenedLength;
  const listedCoverage = coveredListed / listedLength;
  return screenedCoverage * (0.85 + 0.15 * listedCoverage);
}

let scratch = new Float64Array(64);

/** The same score the plain way (every pair listed, sorted): for very long names, and what tests compare with. */
export function nameSimilarityBySort(
  screened: readonly string[],
  listed: readonly string[],
  similarity: TokenSimilarity,
): number {
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
  return (coveredScreened / screenedLength) * (0.85 + 0.15 * (coveredListed / listedLength));
}
