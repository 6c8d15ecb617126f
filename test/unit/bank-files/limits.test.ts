// What a bank file can carry: every text limit measured after transliteration, one at the limit accepted and
// one past it refused with the field and the limit; the writers cut nothing the checks let through; Greek and
// Cyrillic names reach the pain.001 in Latin letters and the file still validates against the EPC schema.
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import {
  ACH_MAX_AMOUNT_MINOR,
  achTextProblems,
  SEPA_MAX_AMOUNT_MINOR,
  sepaNeedsCreditorBic,
  sepaTextProblems,
} from "../../../src/rails/bank-files/limits.js";
import { buildNachaFile, checkAchCredit } from "../../../src/rails/bank-files/nacha-writer.js";
import { buildPain001, checkSepaTransfer } from "../../../src/rails/bank-files/sepa-pain001.js";
import { achCredit, GOLDEN_ACH, GOLDEN_SEPA, sepaTransfer } from "./fixtures.js";
import { epcSchemaAvailable, epcSchemaErrors } from "./xsd.js";

const withSchema = epcSchemaAvailable() ? it : it.skip;
const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false });

describe("SEPA text limits (pain.001, after transliteration)", () => {
  // [field, the SepaTexts carrying `value`, limit]
  const cases: Array<[string, (value: string) => Parameters<typeof sepaTextProblems>[0], number]> = [
    ["account_holder_name", (v) => ({ name: v }), 70],
    ["external_ref", (v) => ({ remittance: v }), 140],
    ["postal_address.line1", (v) => ({ address: { line1: v } }), 70],
    ["postal_address.line2", (v) => ({ address: { line1: "Hauptstraße 5", line2: v } }), 35],
    ["postal_address.postal_code", (v) => ({ address: { postal_code: v } }), 16],
    ["postal_address.city", (v) => ({ address: { city: v } }), 35],
    ["postal_address.state", (v) => ({ address: { state: v } }), 35],
  ];

  it.each(cases)("%s: at its limit accepted, one past refused naming the field and the limit", (field, texts, limit) => {
    expect(sepaTextProblems(texts("a".repeat(limit)))).toEqual([]);
    expect(sepaTextProblems(texts("a".repeat(limit + 1)))).toEqual([
      expect.objectContaining({ field, limit, length: limit + 1 }),
    ]);
  });

  it("counts the transliterated text, not the typed one", () => {
    // ß is written "ss": 35 of them fill a 70-character name; one more letter is too long at 36 typed.
    expect(sepaTextProblems({ name: "ß".repeat(35) })).toEqual([]);
    expect(sepaTextProblems({ name: `${"ß".repeat(35)}a` })).toEqual([
      expect.objectContaining({ field: "account_holder_name", limit: 70, length: 71 }),
    ]);
    // The town of the issue: 38 characters once written in the SEPA set, the field carries 35.
    expect(sepaTextProblems({ address: { city: "Garmisch-Partenkirchen im schönen Oberland" } })).toEqual([
      expect.objectContaining({ field: "postal_address.city", limit: 35 }),
    ]);
    // Ψ is written "Ps": 35 of them are 70 characters.
    expect(sepaTextProblems({ name: "Ψ".repeat(35) })).toEqual([]);
    expect(sepaTextProblems({ name: "Ψ".repeat(36) })).toEqual([
      expect.objectContaining({ field: "account_holder_name", length: 72 }),
    ]);
  });

  it("pain.001.001.03 has no building name: line1 and line2 share the street name's 70 characters", () => {
    const address = { line1: "a".repeat(40), line2: "b".repeat(28) }; // "a…a, b…b" = 70
    expect(sepaTextProblems({ address }, "pain.001.001.03")).toEqual([]);
    expect(sepaTextProblems({ address: { ...address, line2: "b".repeat(29) } }, "pain.001.001.03")).toEqual([
      expect.objectContaining({ field: "postal_address.line2", limit: 70, length: 71 }),
    ]);
    // The same address fits pain.001.001.09, where line2 has a field of its own.
    expect(sepaTextProblems({ address: { ...address, line2: "b".repeat(29) } })).toEqual([]);
  });
});

describe("ACH text limit (NACHA, after transliteration)", () => {
  it("the name: 22 characters accepted, 23 refused", () => {
    expect(achTextProblems({ name: "a".repeat(22) })).toEqual([]);
    expect(achTextProblems({ name: "a".repeat(23) })).toEqual([
      expect.objectContaining({ field: "account_holder_name", limit: 22, length: 23 }),
    ]);
    // Щ is written "Sch": 8 typed letters are 24 characters.
    expect(achTextProblems({ name: "Щ".repeat(8) })).toEqual([expect.objectContaining({ length: 24 })]);
  });
});

describe("the writers cut nothing: what is too long fails the payout at the cut-off", () => {
  it("a SEPA transfer: name, reference, address parts past their fields; amount past the rulebook", () => {
    const base = sepaTransfer({ payoutId: "0190f0a0-0000-7000-8000-000000000021" });
    expect(checkSepaTransfer({ ...base, creditorName: "a".repeat(70) })).toBeNull();
    expect(checkSepaTransfer({ ...base, creditorName: "a".repeat(71) })).toBe("SEPA_FIELD_TOO_LONG");
    expect(checkSepaTransfer({ ...base, remittance: "r".repeat(141) })).toBe("SEPA_FIELD_TOO_LONG");
    const address = base.creditorAddress as NonNullable<typeof base.creditorAddress>;
    expect(checkSepaTransfer({ ...base, creditorAddress: { ...address, streetName: "s".repeat(71) } })).toBe(
      "SEPA_FIELD_TOO_LONG",
    );
    expect(checkSepaTransfer({ ...base, creditorAddress: { ...address, townName: "t".repeat(36) } })).toBe("SEPA_FIELD_TOO_LONG");
    expect(checkSepaTransfer({ ...base, amountMinor: SEPA_MAX_AMOUNT_MINOR })).toBeNull();
    expect(checkSepaTransfer({ ...base, amountMinor: SEPA_MAX_AMOUNT_MINOR + 1 })).toBe("SEPA_AMOUNT_OUT_OF_RANGE");
    expect(() => buildPain001({ ...GOLDEN_SEPA, transfers: [{ ...base, creditorName: "a".repeat(71) }] })).toThrow(
      /SEPA_FIELD_TOO_LONG/,
    );
  });

  it("an ACH credit: the name past 22 characters, the amount past ten digits of cents", () => {
    const credit = achCredit({ payoutId: "0190f0a0-0000-7000-8000-000000000022" });
    expect(checkAchCredit({ ...credit, receiverName: "a".repeat(22) })).toBeNull();
    expect(checkAchCredit({ ...credit, receiverName: "a".repeat(23) })).toBe("ACH_FIELD_TOO_LONG");
    expect(checkAchCredit({ ...credit, amountMinor: ACH_MAX_AMOUNT_MINOR })).toBeNull();
    expect(checkAchCredit({ ...credit, amountMinor: ACH_MAX_AMOUNT_MINOR + 1 })).toBe("ACH_AMOUNT_OUT_OF_RANGE");
    expect(() => buildNachaFile({ ...GOLDEN_ACH, credits: [{ ...credit, receiverName: "a".repeat(23) }] })).toThrow(
      /ACH_FIELD_TOO_LONG/,
    );
  });
});

describe("SEPA outside the EEA: the creditor's BIC", () => {
  it("is required for the non-EEA SEPA countries and territories, not inside the EEA", () => {
    for (const country of [
      "CH",
      "GB",
      "GG",
      "JE",
      "IM",
      "GI",
      "MC",
      "SM",
      "VA",
      "AD",
      "PM",
      "BL",
      "AL",
      "MD",
      "ME",
      "MK",
      "RS",
    ]) {
      expect(sepaNeedsCreditorBic(country), country).toBe(true);
    }
    for (const country of ["DE", "FR", "ES", "IS", "LI", "NO", "GP", "RE", "AX"]) {
      expect(sepaNeedsCreditorBic(country), country).toBe(false);
    }
  });

  it("a Swiss IBAN without a BIC fails at the cut-off; with it, the BIC is written in CdtrAgt", async () => {
    const swiss = sepaTransfer({
      payoutId: "0190f0a0-0000-7000-8000-000000000023",
      creditorIban: "CH9300762011623852957",
      creditorAddress: { townName: "Zürich", country: "CH" },
    });
    expect(checkSepaTransfer(swiss)).toBe("SEPA_BIC_REQUIRED");
    const withBic = { ...swiss, creditorBic: "UBSWCHZH80A" };
    expect(checkSepaTransfer(withBic)).toBeNull();
    const file = buildPain001({ ...GOLDEN_SEPA, transfers: [withBic] });
    const tx = xml.parse(file).Document.CstmrCdtTrfInitn.PmtInf.CdtTrfTxInf;
    expect(tx.CdtrAgt.FinInstnId.BICFI).toBe("UBSWCHZH80A");
    if (epcSchemaAvailable()) expect(await epcSchemaErrors(file)).toEqual([]);
  });
});

describe("Greek and Cyrillic in the pain.001", () => {
  withSchema("are written in Latin letters, never dropped, and the file validates against the EPC schema", async () => {
    const message = {
      ...GOLDEN_SEPA,
      transfers: [
        sepaTransfer({
          payoutId: "0190f0a0-0000-7000-8000-000000000031",
          creditorName: "Ελένη Παπαδοπούλου",
          creditorIban: "GR1601101250000000012300695",
          creditorAddress: { streetName: "Οδός Ερμού 12", townName: "Αθήνα", postalCode: "10563", country: "GR" },
          remittance: "Τιμολόγιο 42",
        }),
        sepaTransfer({
          payoutId: "0190f0a0-0000-7000-8000-000000000032",
          creditorName: "Мария Иванова",
          creditorIban: "BG80BNBG96611020345678",
          creditorAddress: { streetName: "ул. Витоша 1", townName: "София", country: "BG" },
        }),
      ],
    };
    const file = buildPain001(message);
    expect(await epcSchemaErrors(file)).toEqual([]);
    const txs = xml.parse(file).Document.CstmrCdtTrfInitn.PmtInf.CdtTrfTxInf;
    expect(txs[0].Cdtr.Nm).toBe("Eleni Papadopoulou");
    expect(txs[0].Cdtr.PstlAdr).toMatchObject({ StrtNm: "Odos Ermou 12", TwnNm: "Athina" });
    expect(txs[0].RmtInf.Ustrd).toBe("Timologio 42");
    expect(txs[1].Cdtr.Nm).toBe("Mariya Ivanova");
    expect(txs[1].Cdtr.PstlAdr).toMatchObject({ StrtNm: "ul. Vitosha 1", TwnNm: "Sofiya" });
    expect(file).not.toContain("( )");
  });

  it("pain.001.001.03 writes line2 after line1 in the street name instead of dropping it", () => {
    const file = buildPain001({
      ...GOLDEN_SEPA,
      version: "pain.001.001.03",
      transfers: [
        sepaTransfer({
          payoutId: "0190f0a0-0000-7000-8000-000000000033",
          creditorAddress: { streetName: "Calle Mayor 5", buildingName: "Escalera B, 3A", townName: "Madrid", country: "ES" },
        }),
      ],
    });
    const tx = xml.parse(file).Document.CstmrCdtTrfInitn.PmtInf.CdtTrfTxInf;
    expect(tx.Cdtr.PstlAdr.StrtNm).toBe("Calle Mayor 5, Escalera B, 3A");
  });
});
