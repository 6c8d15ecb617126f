// Validation of the bank answers the tests write (pain.002, camt.054) against the ISO 20022 schemas kept in
// ../shared/standards (never copied into the repository), with xmllint compiled to WebAssembly, as
// test/unit/bank-files/xsd.ts does for pain.001 and the EPC schema. The schema is chosen from the document's
// namespace (`urn:iso:std:iso:20022:tech:xsd:camt.054.001.08` -> camt.054.001.08.xsd).
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { validateXML } from "xmllint-wasm";

const STANDARDS = resolve(import.meta.dirname, "../../../shared/standards");

export function isoSchemasAvailable(): boolean {
  return existsSync(resolve(STANDARDS, "pain.002.001.10.xsd"));
}

/** xmllint's schema errors for `xml` against the ISO schema of its namespace; empty when the file is valid. */
export async function isoSchemaErrors(xml: string): Promise<string[]> {
  const match = /xmlns="urn:iso:std:iso:20022:tech:xsd:([a-z]{4}\.\d{3}\.\d{3}\.\d{2})"/.exec(xml);
  if (!match) return ["the document names no ISO 20022 namespace"];
  const name = `${match[1]}.xsd`;
  const schema = readFileSync(resolve(STANDARDS, name), "utf8");
  const result = await validateXML({
    xml: [{ fileName: "answer.xml", contents: xml }],
    schema: [{ fileName: name, contents: schema }],
    maxMemoryPages: 16384,
  });
  return result.errors.map((error) => error.rawMessage);
}

/** Fails the test when `xml` is not valid against its ISO schema (skipped, with the check, when the schemas are absent). */
export async function expectIsoValid(xml: string): Promise<string> {
  if (!isoSchemasAvailable()) return xml;
  const errors = await isoSchemaErrors(xml);
  if (errors.length > 0) throw new Error(`bank answer not valid against its ISO 20022 schema:\n${errors.join("\n")}\n${xml}`);
  return xml;
}
