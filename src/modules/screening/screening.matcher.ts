// Finding a Beneficiary's hits (pure, given the candidates read from the index): every name the Beneficiary goes
// by against every candidate name of an entry, the best pair per entry, kept when its score reaches the threshold.
import type { ScreenedBeneficiary } from "../beneficiaries/index.js";
import { nameKeys, nameSimilarity, nameTokens, type TokenSimilarity } from "./screening.names.js";
import type { HitEntrySnapshot } from "./screening.schema.js";

/** An entry as the matcher needs it: its names already split into words. */
export interface CandidateEntry {
  readonly id: string;
  readonly listId: string;
  readonly ref: string;
  readonly snapshot: HitEntrySnapshot;
  readonly nameTokens: readonly (readonly string[])[];
}

export interface Finding {
  readonly listId: string;
  readonly entryRef: string;
  readonly matchedName: string;
  readonly score: number;
  readonly entry: HitEntrySnapshot;
}

/** The words and index keys of each of a Beneficiary's names. */
export function screenedNames(beneficiary: Pick<ScreenedBeneficiary, "names">) {
  return beneficiary.names
    .map((name) => {
      const tokens = nameTokens(name);
      return { name, tokens, keys: nameKeys(tokens) };
    })
    .filter((name) => name.tokens.length > 0);
}

/**
 * The hits of one Beneficiary among `candidates` (the entries sharing a key with one of its names, and which
 * of their names share it): one finding per entry, its best name, when the score is at least `threshold`.
 * Scores are rounded to three decimals, as shown.
 */
export function findHits(
  names: ReturnType<typeof screenedNames>,
  candidates: ReadonlyMap<string, { entry: CandidateEntry; nameNos: ReadonlySet<number> }>,
  threshold: number,
  similarity: TokenSimilarity,
): Finding[] {
  const findings: Finding[] = [];
  for (const { entry, nameNos } of candidates.values()) {
    let best = 0;
    let bestName = "";
    for (const nameNo of nameNos) {
      const listed = entry.nameTokens[nameNo];
      if (listed === undefined) continue;
      for (const screened of names) {
        const score = nameSimilarity(screened.tokens, listed, similarity);
        if (score > best) {
          best = score;
          bestName = entry.snapshot.names[nameNo] ?? entry.snapshot.primary_name;
        }
      }
    }
    const rounded = Math.round(best * 1000) / 1000;
    if (rounded >= threshold) {
      findings.push({ listId: entry.listId, entryRef: entry.ref, matchedName: bestName, score: rounded, entry: entry.snapshot });
    }
  }
  return findings.sort((a, b) => b.score - a.score || a.listId.localeCompare(b.listId) || a.entryRef.localeCompare(b.entryRef));
}
