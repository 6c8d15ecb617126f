/**
 * The English name of a two-letter ISO 3166-1 code, or null when the code is incomplete or unknown.
 * Country inputs take the code (what the API stores), so they show the name it stands for: a person who types
 * "Germany" into a two-letter field gets "GE", which is Georgia, and must see that before saving.
 */
export function countryName(code: string): string | null {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper)) return null;
  try {
    const name = new Intl.DisplayNames(["en"], { type: "region" }).of(upper);
    return name === undefined || name === upper ? null : name;
  } catch {
    return null;
  }
}

/** The hint under a country input: the expected form while empty, then the country the typed code names. */
export function countryHint(code: string): string {
  const upper = code.trim().toUpperCase();
  if (upper === "") return "Two letters, such as DE for Germany";
  const name = countryName(upper);
  return name === null ? "Two letters, such as DE for Germany: this code names no country" : `${upper} is ${name}`;
}
