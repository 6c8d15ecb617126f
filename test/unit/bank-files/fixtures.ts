// Inputs of the golden-file tests: fixed payouts, names that need transliteration, dates around holidays.
import type { AchCredit, AchFile } from "../../../src/rails/bank-files/nacha-writer.js";
import type { SepaDebtor, SepaMessage, SepaTransfer } from "../../../src/rails/bank-files/sepa-pain001.js";

export const DEBTOR: SepaDebtor = {
  name: "Acme Payouts GmbH",
  iban: "DE89370400440532013000",
  bic: "COBADEFFXXX",
  address: { streetName: "Hauptstraße", buildingNumber: "1", postalCode: "10115", townName: "Berlin", country: "DE" },
};

export const SECOND_DEBTOR: SepaDebtor = { name: "Acme Payouts BV", iban: "NL91ABNA0417164300", bic: null, address: null };

export function sepaTransfer(overrides: Partial<SepaTransfer> & { readonly payoutId: string }): SepaTransfer {
  return {
    amountMinor: 10_000,
    creditorName: "Ana Pérez",
    creditorIban: "ES9121000418450200051332",
    creditorBic: null,
    creditorAddress: { streetName: "Calle Mayor", buildingNumber: "5", postalCode: "28013", townName: "Madrid", country: "ES" },
    remittance: null,
    purposeCode: null,
    executionDate: "2026-11-25",
    debtor: DEBTOR,
    ...overrides,
  };
}

export const GOLDEN_SEPA: SepaMessage = {
  version: "pain.001.001.09",
  messageId: "BF20261124T1500-0001",
  createdAt: "2026-11-24T15:00:00",
  initiatingParty: { name: "Acme Payouts GmbH", id: "DE98ZZZ09999999999" },
  transfers: [
    sepaTransfer({
      payoutId: "0190f0a0-0000-7000-8000-000000000001",
      amountMinor: 123_456,
      creditorName: "Zoë Ångström & Søn",
      creditorIban: "FR1420041010050500013M02606",
      creditorAddress: {
        streetName: "Rue de l’Église",
        buildingNumber: "12",
        postalCode: "75001",
        townName: "Paris",
        country: "FR",
      },
      remittance: "Payout 0190f0a0 – Rechnung Nr. 42 für Müller",
      purposeCode: "SALA",
    }),
    sepaTransfer({
      payoutId: "0190f0a0-0000-7000-8000-000000000002",
      amountMinor: 5,
      creditorName: "Łukasz Żółć",
      creditorIban: "PL61109010140000071219812874",
      creditorBic: "WBKPPLPP",
      creditorAddress: { townName: "Łódź", country: "PL" },
      executionDate: "2026-11-26",
    }),
    sepaTransfer({
      payoutId: "0190f0a0-0000-7000-8000-000000000003",
      amountMinor: 99_999_999_999,
      creditorName: "Straße & Co. KG",
    }),
    sepaTransfer({ payoutId: "0190f0a0-0000-7000-8000-000000000004", amountMinor: 100, debtor: SECOND_DEBTOR }),
  ],
};

export const ACH_ORIGINATOR: AchFile["originator"] = {
  odfiRoutingNumber: "091000019",
  immediateDestination: "091000019",
  immediateDestinationName: "Wells Fargo Bank",
  immediateOrigin: "1234567890",
  immediateOriginName: "Acme Payouts Inc",
  companyName: "Acme Payouts",
  companyIdentification: "1234567890",
};

export function achCredit(overrides: Partial<AchCredit> & { readonly payoutId: string }): AchCredit {
  return {
    amountMinor: 10_000,
    secCode: "PPD",
    accountType: "checking",
    routingNumber: "021000021",
    accountNumber: "123456789",
    receiverName: "Jane Doe",
    receiverId: "000000000000001",
    entryDescription: "PAYOUT",
    effectiveDate: "2026-11-27",
    ...overrides,
  };
}

export const GOLDEN_ACH: AchFile = {
  originator: ACH_ORIGINATOR,
  createdDate: "2026-11-25",
  createdTime: "15:00",
  fileIdModifier: "A",
  credits: [
    achCredit({
      payoutId: "0190f0a0-0000-7000-8000-000000000011",
      amountMinor: 123_456,
      receiverName: "José Ñúñez-O’Brien",
      receiverId: "8000000000011",
    }),
    achCredit({
      payoutId: "0190f0a0-0000-7000-8000-000000000012",
      amountMinor: 1,
      accountType: "savings",
      routingNumber: "011000015",
      accountNumber: "00012345",
      receiverName: "Mary Smith",
      receiverId: "8000000000012",
      entryDescription: "PAYROLL",
    }),
    achCredit({
      payoutId: "0190f0a0-0000-7000-8000-000000000013",
      amountMinor: 9_999_999_999,
      secCode: "CCD",
      routingNumber: "122105155",
      accountNumber: "9876543210123",
      receiverName: "Globex Corp. Worldwide",
      receiverId: "8000000000013",
    }),
  ],
};
