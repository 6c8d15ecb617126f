import { describe, expect, it } from "vitest";
import { isSepaRepresentable, toNachaText, toSepaText } from "../../../src/rails/bank-files/charset.js";

describe("SEPA character set", () => {
  it("drops accents and spells out ligatures and special letters", () => {
    expect(toSepaText("Zoë Ångström", 70)).toBe("Zoe Angstrom");
    expect(toSepaText("Straße", 70)).toBe("Strasse");
    expect(toSepaText("Łukasz Żółć", 70)).toBe("Lukasz Zolc");
    expect(toSepaText("Søren Æbelø", 70)).toBe("Soren AEbelo");
    expect(toSepaText("Œuvre Þór", 70)).toBe("OEuvre THor");
    expect(toSepaText("Ñúñez-O’Brien", 70)).toBe("Nunez-O'Brien");
  });

  it("maps & to + and removes what the set does not carry", () => {
    expect(toSepaText("Smith & Sons", 70)).toBe("Smith + Sons");
    expect(toSepaText("a*b#c@d €5 [x] {y}", 70)).toBe("a b c d 5 x y");
    expect(toSepaText("  many   spaces\tand\nlines ", 70)).toBe("many spaces and lines");
    expect(toSepaText("keep / - ? : ( ) . , ' +", 70)).toBe("keep / - ? : ( ) . , ' +");
  });

  it("cuts to the field's length without a trailing space", () => {
    expect(toSepaText("abcde fghij", 6)).toBe("abcde");
    expect(toSepaText("x".repeat(80), 70)).toHaveLength(70);
  });

  it("recognises names with nothing left to send", () => {
    expect(isSepaRepresentable("Ελένη Παπαδοπούλου")).toBe(false);
    expect(isSepaRepresentable("Иван")).toBe(false);
    expect(isSepaRepresentable("Ana")).toBe(true);
  });
});

describe("NACHA character set", () => {
  it("is upper-case ASCII", () => {
    expect(toNachaText("José Ñúñez-O’Brien", 22)).toBe("JOSE NUNEZ-O'BRIEN");
    expect(toNachaText("Smith & Sons, Inc.", 22)).toBe("SMITH & SONS, INC.");
    expect(toNachaText("Straße 5 #3", 22)).toBe("STRASSE 5 3");
    expect(toNachaText("Globex Corporation Worldwide Holdings", 22)).toBe("GLOBEX CORPORATION WOR");
  });
});
