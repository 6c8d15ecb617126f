// Validation of generated pain.001.001.09 files against the EPC's own schema (../shared/standards), with
// xmllint compiled to WebAssembly (npm `xmllint-wasm`): nothing to install, and no code of ours involved.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { validateXML } from "xmllint-wasm";

export const EPC_SCHEMA_PATH = resolve(import.meta.dirname, "../../../../shared/standards/pain.001.001.09.epc-sct-2023.xsd");

export function epcSchemaAvailable(): boolean {
  return existsSync(EPC_SCHEMA_PATH);
}

/** xmllint's schema errors for `xml`, empty when the file is valid. */
export async function epcSchemaErrors(xml: string): Promise<string[]> {
  const schema = readFileSync(EPC_SCHEMA_PATH, "utf8");
  const result = await validateXML({
    xml: [{ fileName: "pain001.xml", contents: xml }],
    schema: [{ fileName: "epc.xsd", contents: schema }],
    maxMemoryPages: 16384,
  });
  return result.errors.map((error) => error.rawMessage);
}
