// Whether a new set of payout limits weakens the old one (pure): the four-eyes rule and the admins' alert hang on it.

/** One currency's limits, in the stored form (null: no limit). */
export interface LimitSetting {
  readonly currency: string;
  readonly perPayoutMaxMinor: number | null;
  readonly dailyMaxMinor: number | null;
}

function raised(before: number | null, after: number | null): boolean {
  if (before === null) return false;
  return after === null || after > before;
}

/**
 * The currencies whose limits the change raises or removes (a limit that existed is higher or gone, or the currency
 * is left out). Adding a limit, lowering one, or adding a currency tightens. Empty: the change only tightens.
 */
export function limitsWeakenedBy(before: readonly LimitSetting[], after: readonly LimitSetting[]): string[] {
  const next = new Map(after.map((s) => [s.currency, s]));
  const weakened: string[] = [];
  for (const old of before) {
    const now = next.get(old.currency);
    if (raised(old.perPayoutMaxMinor, now?.perPayoutMaxMinor ?? null) || raised(old.dailyMaxMinor, now?.dailyMaxMinor ?? null))
      weakened.push(old.currency);
  }
  return weakened;
}

/** The canonical JSON form of a set (sorted by currency): what a pending change records as its base and compares. */
export function canonicalLimits(settings: readonly LimitSetting[]): Array<{
  currency: string;
  per_payout_max_minor: number | null;
  daily_max_minor: number | null;
}> {
  return [...settings]
    .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
    .map((s) => ({ currency: s.currency, per_payout_max_minor: s.perPayoutMaxMinor, daily_max_minor: s.dailyMaxMinor }));
}
