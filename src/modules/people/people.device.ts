// A coarse, versionless description of the device behind a session ("Chrome on macOS"), from the
// User-Agent header recorded at sign-in. It is derived when the list of sessions is read rather than stored,
// so a better parser relabels live sessions too; versions are left out on purpose: "Chrome on macOS" is
// what a person recognises, and a version number adds fingerprint detail nobody needs here.

/** Browsers, most specific first: Edge, Opera and Samsung Internet also say "Chrome", Chrome also says "Safari". */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\bHeadlessChrome\//, "Headless Chrome"],
  [/\b(?:Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

/** Systems, most specific first: iPadOS and iOS before macOS (an iPad may say "Macintosh"), Android before Linux. */
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\b(?:iPhone|iPod)\b/, "iOS"],
  [/\biPad\b/, "iPadOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

const UNKNOWN = "Unknown device";

/**
 * "Chrome on macOS", "Firefox", "curl" (a program's product name, without its version), or "Unknown device".
 * Never more than 40 characters, and only letters, digits, spaces and `.-_` from the header itself.
 */
export function deviceLabelOf(userAgent: string | null): string {
  if (userAgent === null) return UNKNOWN;
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser !== undefined) return system === undefined ? browser : `${browser} on ${system}`;
  if (system !== undefined) return `Browser on ${system}`;
  // A program (curl, an SDK, a script): its product token, as RFC 9110 shapes it ("name/version ...").
  const product = /^\s*([A-Za-z][A-Za-z0-9._-]{0,39})(?:\/|\s|$)/.exec(userAgent)?.[1];
  // Every browser starts with "Mozilla/5.0": one this table does not know is still a browser.
  if (product === "Mozilla") return "Browser";
  return product ?? UNKNOWN;
}
