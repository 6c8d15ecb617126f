// The sanctions list readers on small files written in the publishers' formats, and the name score on the
// variations screening must see through (order, accents, scripts, a typo) and the ones it must not.
import { describe, expect, it } from "vitest";
import { detectListFormat, readSanctionsList } from "../../src/modules/screening/screening.lists.js";
import { createTokenSimilarity, nameSimilarity, nameTokens } from "../../src/modules/screening/screening.names.js";
import { euCsv, euXml, type ListedParty, ofacAddCsv, ofacAltCsv, ofacSdnCsv } from "./list-writers.js";

const PARTIES: ListedParty[] = [
  {
    ref: "36",
    kind: "entity",
    name: 'AERO-CARIBBEAN "AIRLINES"',
    aliases: ["AEROCARIBBEAN AIRLINES"],
    programs: ["CUBA", "SDGT"],
    address: { street: "Calle 23 No. 64", city: "Havana", country: "Cuba", iso2: "CU" },
  },
  { ref: "7160", kind: "individual", name: "PETROV, Ivan Sergeyevich", aliases: ["Ivan PETROFF"], programs: ["RUSSIA-EO14024"] },
];

describe("OFAC SDN CSV", () => {
  it("reads sdn.csv with its aliases (alt.csv) and addresses (add.csv), -0- as empty, programs split", () => {
    const entries = readSanctionsList("ofac_sdn", [
      { format: "ofac_sdn", content: ofacSdnCsv(PARTIES) },
      { format: "ofac_alt", content: ofacAltCsv(PARTIES) },
      { format: "ofac_add", content: ofacAddCsv(PARTIES) },
    ]);
    expect(entries).toEqual([
      {
        ref: "36",
        kind: "entity",
        primaryName: 'AERO-CARIBBEAN "AIRLINES"',
        names: ['AERO-CARIBBEAN "AIRLINES"', "AEROCARIBBEAN AIRLINES"],
        countries: ["CU"],
        programs: ["CUBA", "SDGT"],
        addresses: ["Calle 23 No. 64, Havana, Cuba"],
      },
      {
        ref: "7160",
        kind: "individual",
        primaryName: "PETROV, Ivan Sergeyevich",
        names: ["PETROV, Ivan Sergeyevich", "Ivan PETROFF"],
        countries: [],
        programs: ["RUSSIA-EO14024"],
        addresses: [],
      },
    ]);
  });

  it("refuses an OFAC list without sdn.csv, and a file that is not the OFAC CSV", () => {
    expect(() => readSanctionsList("ofac_sdn", [{ format: "ofac_alt", content: ofacAltCsv(PARTIES) }])).toThrow(/sdn\.csv/);
    expect(() => readSanctionsList("ofac_sdn", [{ format: "ofac_sdn", content: "a,b\nc,d\n" }])).toThrow(
      /no record of 12 fields/,
    );
  });
});

describe("EU consolidated list", () => {
  it("reads the CSV: one entry per logical id, every name row an alias, the address's country", () => {
    const entries = readSanctionsList("eu_consolidated", [{ format: "eu_csv", content: euCsv(PARTIES) }]);
    expect(entries.map((e) => [e.ref, e.kind, e.names, e.countries, e.programs])).toEqual([
      ["36", "entity", ['AERO-CARIBBEAN "AIRLINES"', "AEROCARIBBEAN AIRLINES"], ["CU"], ["CUBA"]],
      ["7160", "individual", ["PETROV, Ivan Sergeyevich", "Ivan PETROFF"], [], ["RUSSIA-EO14024"]],
    ]);
  });

  it("reads the XML export: nameAlias, address and regulation of each sanctionEntity, entities decoded", () => {
    const entries = readSanctionsList("eu_consolidated", [{ format: "eu_xml", content: euXml(PARTIES) }]);
    expect(entries[0]).toMatchObject({
      ref: "36",
      kind: "entity",
      names: ['AERO-CARIBBEAN "AIRLINES"', "AEROCARIBBEAN AIRLINES"],
      countries: ["CU"],
      addresses: ["Calle 23 No. 64, Havana, CUBA"],
    });
    expect(entries[1]).toMatchObject({ ref: "7160", kind: "individual", programs: ["RUSSIA-EO14024"] });
  });

  it("refuses XML that is not well-formed and CSV without the EU header", () => {
    expect(() => readSanctionsList("eu_consolidated", [{ format: "eu_xml", content: "<export><sanctionEntity>" }])).toThrow(
      /not well-formed/,
    );
    expect(() => readSanctionsList("eu_consolidated", [{ format: "eu_csv", content: "a;b\n1;2\n" }])).toThrow(/Entity_LogicalId/);
  });
});

it("tells a file's format from its name or its first bytes", () => {
  expect(detectListFormat("/lists/SDN.CSV", "")).toBe("ofac_sdn");
  expect(detectListFormat("/lists/alt.csv", "")).toBe("ofac_alt");
  expect(detectListFormat("/lists/add.csv", "")).toBe("ofac_add");
  expect(detectListFormat("/lists/eu.csv", euCsv(PARTIES))).toBe("eu_csv");
  expect(detectListFormat("/lists/eu-export.xml", euXml(PARTIES))).toBe("eu_xml");
  expect(detectListFormat("/lists/other.csv", "name,country\n")).toBeNull();
});

describe("name similarity", () => {
  const similarity = createTokenSimilarity();
  const score = (a: string, b: string) => nameSimilarity(nameTokens(a), nameTokens(b), similarity);

  it.each([
    ["Ivan Petrov", "PETROV, Ivan", "order and punctuation"],
    ["José Muñoz", "JOSE MUNOZ", "accents"],
    ["Иван Петров", "Ivan Petrov", "Cyrillic"],
    ["Ivan Petrof", "PETROV, Ivan", "one letter"],
    ["Ivan Petrov", "PETROV, Ivan Sergeyevich", "a patronymic the payee leaves out"],
  ])("%s is close to %s (%s)", (a, b) => {
    expect(score(a, b)).toBeGreaterThanOrEqual(0.9);
  });

  it.each([
    ["Maria Garcia", "Ivan Petrov"],
    ["Ivan Smirnov", "PETROV, Ivan"],
    ["John Smith", "JOHN SMITHSON TRADING COMPANY"],
  ])("%s is not close to %s", (a, b) => {
    expect(score(a, b)).toBeLessThan(0.9);
  });
});
