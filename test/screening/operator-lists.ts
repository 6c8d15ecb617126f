// Loading a sanctions list the way an operator does (`PUT /operator/sanctions-lists/{list}`, files base64 in the
// JSON body), for every test that needs a listed name: one place for the route's shape.

import { expect } from "vitest";
import type { AppInstance } from "../../src/platform/http/types.js";
import { euXml, type ListedParty, ofacAltCsv, ofacSdnCsv } from "./list-writers.js";

export const operatorHeaders = (token: string) => ({ authorization: `Bearer ${token}` });

/** The operator's request as sent: the caller checks the answer (a refusal is a test too). */
export function putSanctionsList(
  app: AppInstance,
  headers: Record<string, string>,
  listId: string,
  files: readonly { readonly format: string; readonly content: string }[],
) {
  return app.inject({
    method: "PUT",
    url: `/operator/sanctions-lists/${listId}`,
    headers,
    payload: { files: files.map((f) => ({ format: f.format, content_base64: Buffer.from(f.content).toString("base64") })) },
  });
}

/** OFAC's SDN list of these parties (sdn.csv and alt.csv), loaded; fails the test unless it answers 200. */
export async function loadOfacList(app: AppInstance, operatorToken: string, parties: readonly ListedParty[]): Promise<void> {
  const loaded = await putSanctionsList(app, operatorHeaders(operatorToken), "ofac_sdn", [
    { format: "ofac_sdn", content: ofacSdnCsv(parties) },
    { format: "ofac_alt", content: ofacAltCsv(parties) },
  ]);
  expect(loaded.statusCode, loaded.body).toBe(200);
}

/** The EU consolidated list of these parties (XML), loaded; fails the test unless it answers 200. */
export async function loadEuXmlList(app: AppInstance, operatorToken: string, parties: readonly ListedParty[]): Promise<void> {
  const loaded = await putSanctionsList(app, operatorHeaders(operatorToken), "eu_consolidated", [
    { format: "eu_xml", content: euXml(parties) },
  ]);
  expect(loaded.statusCode, loaded.body).toBe(200);
}
