// Readers of the sanctions lists in the formats their publishers use (pure, no I/O):
//  - US OFAC SDN, CSV: `sdn.csv` (ent_num, name, type, programs, title, call sign, vessel fields, remarks),
//    `alt.csv` (ent_num, alt_num, type, alternate name, remarks) and `add.csv` (ent_num, add_num, address,
//    city/state/postal code, country, remarks); no header, every field quoted, "-0-" for empty.
//  - EU consolidated financial sanctions list, CSV ("1.1": `;`-separated with a header row, one row per name,
//    address, birth date… of an entity, rows of one entity sharing Entity_LogicalId) or XML (`export` root,
//    `sanctionEntity` elements with `regulation`, `subjectType`, `nameAlias`, `address`, `citizenship`).
// Both are read into one shape, SanctionsEntryInput: every name of an entry (primary name and aliases), its
// countries (ISO 3166-1 alpha-2 where the publisher gives a country we know), its programs and addresses.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import countries from "i18n-iso-countries";
import Papa from "papaparse";

export const LIST_FORMATS = ["ofac_sdn", "ofac_alt", "ofac_add", "eu_csv", "eu_xml"] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

/** The lists the service knows: OFAC's three files make one list, the EU's CSV or XML the other. */
export const LIST_IDS = ["ofac_sdn", "eu_consolidated"] as const;
export type ListId = (typeof LIST_IDS)[number];

export function listIdOfFormat(format: ListFormat): ListId {
  return format.startsWith("ofac_") ? "ofac_sdn" : "eu_consolidated";
}

export type EntryKind = "individual" | "entity" | "vessel" | "aircraft" | "other";

export interface SanctionsEntryInput {
  /** The publisher's id: OFAC ent_num, EU Entity_LogicalId / logicalId. */
  readonly ref: string;
  readonly kind: EntryKind;
  readonly primaryName: string;
  /** Every name, the primary one first, without repeats. */
  readonly names: readonly string[];
  readonly countries: readonly string[];
  readonly programs: readonly string[];
  readonly addresses: readonly string[];
}

export class SanctionsListError extends Error {}

export interface ListFile {
  readonly format: ListFormat;
  readonly content: string;
}

/** The format of a file from its name and first bytes, or null when neither says. */
export function detectListFormat(fileName: string, content: string): ListFormat | null {
  const base = fileName.split(/[\\/]/).pop()?.toLowerCase() ?? "";
  if (base === "sdn.csv") return "ofac_sdn";
  if (base === "alt.csv") return "ofac_alt";
  if (base === "add.csv") return "ofac_add";
  const head = content
    .replace(/^\uFEFF/, "")
    .slice(0, 2000)
    .trimStart();
  if (head.startsWith("<")) return head.includes("sanctionEntity") || head.includes("<export") ? "eu_xml" : null;
  if (/Entity_LogicalId/.test(head.split(/\r?\n/, 1)[0] ?? "")) return "eu_csv";
  return null;
}

/** Reads the files of one list (all OFAC formats together, or one EU file) into entries, in the file's order. */
export function readSanctionsList(listId: ListId, files: readonly ListFile[]): SanctionsEntryInput[] {
  for (const file of files) {
    if (listIdOfFormat(file.format) !== listId)
      throw new SanctionsListError(`A ${file.format} file is not part of the ${listId} list.`);
  }
  if (listId === "ofac_sdn") {
    const sdn = files.filter((file) => file.format === "ofac_sdn");
    if (sdn.length !== 1)
      throw new SanctionsListError("The OFAC list needs exactly one sdn.csv (alt.csv and add.csv are optional).");
    return readOfac(
      (sdn[0] as ListFile).content,
      files.filter((file) => file.format === "ofac_alt").map((file) => file.content),
      files.filter((file) => file.format === "ofac_add").map((file) => file.content),
    );
  }
  if (files.length !== 1) throw new SanctionsListError("The EU list is one file: its CSV or its XML.");
  const [file] = files as [ListFile];
  return file.format === "eu_csv" ? readEuCsv(file.content) : readEuXml(file.content);
}

// OFAC ---------------------------------------------------------------------------------------------------------

const OFAC_NULL = "-0-";

function ofacRows(content: string, fields: number, what: string): string[][] {
  const parsed = Papa.parse<string[]>(content.replace(/^\uFEFF/, ""), { skipEmptyLines: "greedy" });
  const rows: string[][] = [];
  for (const row of parsed.data) {
    // The files end with a control character (0x1A) on a line of its own; rows of another width are not records.
    if (row.length < fields) continue;
    rows.push(row.slice(0, fields).map((value) => (value.trim() === OFAC_NULL ? "" : value.replaceAll(OFAC_NULL, "").trim())));
  }
  if (rows.length === 0 && content.trim().length > 0 && content.trim() !== "\u001a")
    throw new SanctionsListError(`${what} has no record of ${fields} fields: is it the OFAC CSV file?`);
  return rows;
}

/** "[SDGT] [IFSR]" and "SDGT; IFSR" are both two programs. */
function ofacPrograms(value: string): string[] {
  return value
    .replace(/\]\s*\[/g, ";")
    .replace(/[[\]]/g, "")
    .split(";")
    .map((program) => program.trim())
    .filter((program) => program !== "");
}

function ofacKind(type: string): EntryKind {
  switch (type.toLowerCase()) {
    case "individual":
      return "individual";
    case "vessel":
      return "vessel";
    case "aircraft":
      return "aircraft";
    case "":
      return "entity";
    default:
      return "other";
  }
}

function readOfac(sdn: string, alts: readonly string[], adds: readonly string[]): SanctionsEntryInput[] {
  const aliases = new Map<string, string[]>();
  for (const content of alts) {
    for (const [entNum, , , name] of ofacRows(content, 5, "alt.csv")) {
      if (entNum === undefined || name === undefined || name === "") continue;
      const list = aliases.get(entNum) ?? [];
      list.push(name);
      aliases.set(entNum, list);
    }
  }
  const addresses = new Map<string, { text: string[]; countries: string[] }>();
  for (const content of adds) {
    for (const [entNum, , street, cityLine, country] of ofacRows(content, 6, "add.csv")) {
      if (entNum === undefined) continue;
      const found = addresses.get(entNum) ?? { text: [], countries: [] };
      const text = [street, cityLine, country].filter((part) => part !== undefined && part !== "").join(", ");
      if (text !== "") found.text.push(text);
      const code = countryCodeOf(country ?? "");
      if (code !== null) found.countries.push(code);
      addresses.set(entNum, found);
    }
  }
  const entries: SanctionsEntryInput[] = [];
  for (const [entNum, name, type, programs] of ofacRows(sdn, 12, "sdn.csv")) {
    if (entNum === undefined || name === undefined || name === "") continue;
    const address = addresses.get(entNum);
    entries.push({
      ref: entNum,
      kind: ofacKind(type ?? ""),
      primaryName: name,
      names: unique([name, ...(aliases.get(entNum) ?? [])]),
      countries: unique(address?.countries ?? []),
      programs: ofacPrograms(programs ?? ""),
      addresses: unique(address?.text ?? []),
    });
  }
  return entries;
}

// EU -----------------------------------------------------------------------------------------------------------

interface EntryBuilder {
  ref: string;
  kind: EntryKind;
  names: string[];
  countries: string[];
  programs: string[];
  addresses: string[];
}

function euKind(code: string): EntryKind {
  const lower = code.toLowerCase();
  if (lower === "person" || lower === "p") return "individual";
  if (lower === "enterprise" || lower === "e") return "entity";
  return "other";
}

function readEuCsv(content: string): SanctionsEntryInput[] {
  const parsed = Papa.parse<Record<string, string>>(content.replace(/^\uFEFF/, ""), {
    delimiter: ";",
    header: true,
    skipEmptyLines: "greedy",
  });
  const fields = parsed.meta.fields ?? [];
  if (!fields.includes("Entity_LogicalId")) throw new SanctionsListError("The EU CSV file has no Entity_LogicalId column.");
  const byRef = new Map<string, EntryBuilder>();
  for (const row of parsed.data) {
    const ref = (row.Entity_LogicalId ?? "").trim();
    if (!/^\d+$/.test(ref)) continue;
    let entry = byRef.get(ref);
    if (entry === undefined) {
      entry = { ref, kind: "other", names: [], countries: [], programs: [], addresses: [] };
      byRef.set(ref, entry);
    }
    const kind = row.Entity_SubjectType_ClassificationCode ?? row.Entity_SubjectType ?? "";
    if (kind !== "" && entry.kind === "other") entry.kind = euKind(kind);
    const whole = (row.NameAlias_WholeName ?? "").trim();
    const assembled = [row.NameAlias_FirstName, row.NameAlias_MiddleName, row.NameAlias_LastName]
      .map((part) => (part ?? "").trim())
      .filter((part) => part !== "")
      .join(" ");
    if (whole !== "" || assembled !== "") entry.names.push(whole !== "" ? whole : assembled);
    const programme = (row.Entity_Regulation_Programme ?? "").trim();
    if (programme !== "") entry.programs.push(programme);
    for (const country of [row.Address_CountryIso2Code, row.Citizenship_CountryIso2Code]) {
      const code = (country ?? "").trim().toUpperCase();
      if (/^[A-Z]{2}$/.test(code) && code !== "00") entry.countries.push(code);
    }
    const address = [row.Address_Street, row.Address_City, row.Address_ZipCode, row.Address_CountryDescription]
      .map((part) => (part ?? "").trim())
      .filter((part) => part !== "")
      .join(", ");
    if (address !== "") entry.addresses.push(address);
  }
  return [...byRef.values()].flatMap(finish);
}

const EU_REPEATED = new Set(["sanctionEntity", "nameAlias", "address", "citizenship", "regulation"]);

function readEuXml(content: string): SanctionsEntryInput[] {
  const text = content.replace(/^\uFEFF/, "");
  const validation = XMLValidator.validate(text);
  if (validation !== true)
    throw new SanctionsListError(`The EU XML file is not well-formed: ${validation.err.msg} (line ${validation.err.line}).`);
  // Same safe options as the bank files: no entity expansion, every value a string.
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    trimValues: true,
    isArray: (name) => EU_REPEATED.has(name),
  });
  const parsed = parser.parse(text) as { export?: { sanctionEntity?: Record<string, unknown>[] } };
  if (parsed.export === undefined) throw new SanctionsListError("The EU XML file has no `export` root element.");
  const out: SanctionsEntryInput[] = [];
  for (const entity of parsed.export.sanctionEntity ?? []) {
    const ref = attribute(entity, "logicalId");
    if (ref === "") continue;
    const subject = entity.subjectType as Record<string, unknown> | undefined;
    const entry: EntryBuilder = {
      ref,
      kind: euKind(subject === undefined ? "" : attribute(subject, "code") || attribute(subject, "classificationCode")),
      names: [],
      countries: [],
      programs: [],
      addresses: [],
    };
    for (const alias of asRecords(entity.nameAlias)) {
      const whole = attribute(alias, "wholeName");
      const assembled = ["firstName", "middleName", "lastName"]
        .map((field) => attribute(alias, field))
        .filter((part) => part !== "")
        .join(" ");
      if (whole !== "" || assembled !== "") entry.names.push(decodeXml(whole !== "" ? whole : assembled));
    }
    for (const regulation of asRecords(entity.regulation)) {
      const programme = attribute(regulation, "programme");
      if (programme !== "") entry.programs.push(programme);
    }
    for (const place of [...asRecords(entity.address), ...asRecords(entity.citizenship)]) {
      const code = attribute(place, "countryIso2Code").toUpperCase();
      if (/^[A-Z]{2}$/.test(code) && code !== "00") entry.countries.push(code);
    }
    for (const address of asRecords(entity.address)) {
      const textual = ["street", "city", "zipCode", "countryDescription"]
        .map((field) => attribute(address, field))
        .filter((part) => part !== "")
        .join(", ");
      if (textual !== "") entry.addresses.push(decodeXml(textual));
    }
    out.push(...finish(entry));
  }
  return out;
}

// Helpers ------------------------------------------------------------------------------------------------------

function finish(entry: EntryBuilder): SanctionsEntryInput[] {
  const names = unique(entry.names);
  if (names.length === 0) return [];
  return [
    {
      ref: entry.ref,
      kind: entry.kind,
      primaryName: names[0] as string,
      names,
      countries: unique(entry.countries),
      programs: unique(entry.programs),
      addresses: unique(entry.addresses),
    },
  ];
}

function attribute(record: Record<string, unknown>, name: string): string {
  const value = record[`@${name}`];
  return typeof value === "string" ? value.trim() : "";
}

function asRecords(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is Record<string, unknown> => item !== null && typeof item === "object");
}

/** The five predefined XML entities and numeric references (the parser expands none, by design). */
function decodeXml(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number.parseInt(dec, 10)))
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** OFAC gives country names ("Iran", "Korea, North"); the alpha-2 code when the ISO table knows the name. */
function countryCodeOf(name: string): string | null {
  if (name === "") return null;
  const code = countries.getAlpha2Code(name, "en") ?? countries.getAlpha2Code(name.split(",").reverse().join(" ").trim(), "en");
  return code ?? null;
}
