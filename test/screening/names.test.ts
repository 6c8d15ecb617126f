// The scoring's fast paths give exactly what the plain ones gave (same hits, same scores shown): the
// allocation-free Jaro-Winkler against @skyra/jaro-winkler, and the best-pair-first matching on a reused buffer
// against the sort of every pair, on random words and names, ties included (few letters make many equal scores).
import { jaroWinkler } from "@skyra/jaro-winkler";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createTokenSimilarity,
  jaroWinklerOfWords,
  nameSimilarity,
  nameSimilarityBySort,
} from "../../src/modules/screening/screening.names.js";

// Few letters: words share letters and prefixes, pairs tie, the paths where an off-by-one would show.
const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "d", "e", "1"), minLength: 1, maxLength: 12 });
const name = fc.array(word, { minLength: 1, maxLength: 7 });

describe("scoring fast paths", () => {
  it("Jaro-Winkler of words is the library's, to the last bit", () => {
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(jaroWinklerOfWords(a, b)).toBe(jaroWinkler(a, b));
      }),
      { numRuns: 5000 },
    );
  });

  it("the library's quirks are kept: a common prefix of four or more counts five", () => {
    expect(jaroWinklerOfWords("abcdx", "abcdy")).toBe(jaroWinkler("abcdx", "abcdy"));
    expect(jaroWinklerOfWords("ab", "abc")).toBe(jaroWinkler("ab", "abc"));
    expect(jaroWinklerOfWords("abc", "xyz")).toBe(0);
  });

  it("the memo answers what the library does, also for the reversed pair and after it was cleared", () => {
    const memoised = createTokenSimilarity(3);
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(memoised(a, b)).toBe(a === b ? 1 : jaroWinkler(a, b));
        expect(memoised(b, a)).toBe(a === b ? 1 : jaroWinkler(b, a));
        expect(memoised(a, b)).toBe(a === b ? 1 : jaroWinkler(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it("a name's score is the one the sort of every word pair gives", () => {
    const similarity = createTokenSimilarity();
    fc.assert(
      fc.property(name, name, (screened, listed) => {
        expect(nameSimilarity(screened, listed, similarity)).toBe(nameSimilarityBySort(screened, listed, similarity));
      }),
      { numRuns: 5000 },
    );
  });
});
