// The one rule for names (src/platform/names.ts): at least one letter or digit, whatever else surrounds it.
import { describe, expect, it } from "vitest";
import { isVisibleName } from "../../src/platform/names.js";

describe("isVisibleName", () => {
  it.each([
    ["", false],
    ["   ", false],
    ["\t\n\r", false],
    ["\u00A0\u2003\u3000", false], // no-break, em and ideographic spaces (Zs)
    ["\u200B\u200C\u200D\u2060\uFEFF", false], // zero-width characters (Cf)
    ["\u200E\u202E\u2066", false], // direction marks and isolates (Cf)
    ["\u00AD", false], // soft hyphen (Cf)
    ["\u2028\u2029", false], // line and paragraph separators (Zl, Zp)
    ["\u0000\u0007\u001B\u007F", false], // controls (Cc)
    ["\u0301\u0308\u034F", false], // combining marks on nothing
    ["\u115F\u1160\u3164\uFFA0", false], // Hangul fillers: letters by category, invisible
    ["\u2800", false], // Braille pattern blank
    ["-.'", false], // punctuation only
    ["Ada", true],
    [" Ada ", true],
    ["\u200BAda\u200B", true],
    ["O\u0301scar", true],
    ["李小龙", true],
    ["محمد", true],
    ["Đặng Thị", true],
    ["\u3164a", true],
    ["7", true],
    ["Æ A-12", true],
  ])("%j -> %s", (value, visible) => {
    expect(isVisibleName(value)).toBe(visible);
  });
});
