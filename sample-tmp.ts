import { buildPain001 } from "./src/rails/bank-files/sepa-pain001.ts";
import { epcSchemaErrors } from "./test/rails/bank-files/xsd.ts";
const debtor = { name: "Acme Payouts GmbH", iban: "DE89370400440532013000", bic: "COBADEFFXXX", address: { streetName: "Hauptstraße", buildingNumber: "1", postalCode: "10115", townName: "Berlin", country: "DE" } };
const xml = buildPain001({ version: "pain.001.001.09", messageId: "BF-20261124-0001", createdAt: "2026-11-24T15:00:00", initiatingParty: { name: "Acme Payouts GmbH", id: "DE98ZZZ09999999999" },
 transfers: [
  { payoutId: "0190f0a0-0000-7000-8000-000000000001", amountMinor: 123456, creditorName: "Zoë Ångström & Søn", creditorIban: "FR1420041010050500013M02606", creditorBic: null, creditorAddress: { streetName: "Rue de l'Église", buildingNumber: "12", postalCode: "75001", townName: "Paris", country: "FR" }, remittance: "Invoice 42 — €", purposeCode: "SALA", executionDate: "2026-11-25", debtor },
  { payoutId: "0190f0a0-0000-7000-8000-000000000002", amountMinor: 5, creditorName: "Jan Kowalski", creditorIban: "NL91ABNA0417164300", creditorBic: "ABNANL2A", creditorAddress: { townName: "Łódź", country: "PL" }, remittance: null, purposeCode: null, executionDate: "2026-11-26", debtor },
 ]});
console.log(xml);
console.log(await epcSchemaErrors(xml));
