import { describe, expect, it } from "vitest";
import {
  isSepaRepresentable,
  nachaTextLength,
  sepaTextLength,
  toNachaText,
  toSepaText,
} from "../../../src/rails/bank-files/charset.js";

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
    expect(isSepaRepresentable("王小明")).toBe(false);
    expect(isSepaRepresentable("محمد")).toBe(false);
    expect(isSepaRepresentable("Ana")).toBe(true);
  });

  it("writes Greek and Cyrillic in Latin letters, as the EPC recommends, instead of dropping them", () => {
    expect(isSepaRepresentable("Ελένη Παπαδοπούλου")).toBe(true);
    expect(toSepaText("Ελένη Παπαδοπούλου", 70)).toBe("Eleni Papadopoulou");
    expect(toSepaText("Θεσσαλονίκη", 35)).toBe("Thessaloniki");
    expect(toSepaText("Ψυχάρης", 70)).toBe("Psyxaris");
    expect(toSepaText("ΕΘΝΙΚΗ ΤΡΑΠΕΖΑ", 70)).toBe("ETHNIKI TRAPEZA");
    expect(toSepaText("Мария Иванова", 70)).toBe("Mariya Ivanova");
    expect(toSepaText("Ана (Ivana) Жукова", 70)).toBe("Ana (Ivana) Zhukova");
    expect(toNachaText("Юрий Жуков", 22)).toBe("YURIY ZHUKOV");
  });

  it("measures lengths on the transliterated text", () => {
    expect(sepaTextLength("Straße")).toBe(7);
    expect(sepaTextLength("  Ana   Pérez ")).toBe(9);
    expect(sepaTextLength("Щукин")).toBe(7); // "Schukin": one letter became three
    expect(nachaTextLength("Жуков")).toBe(6);
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
