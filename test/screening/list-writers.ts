// Writers of small sanctions lists in the publishers' formats, for tests and the benchmark: OFAC's sdn.csv, alt.csv
// and add.csv (no header, every field quoted, "-0-" for empty, a trailing 0x1A line as OFAC ends its files) and the
// EU consolidated list's CSV (";", a header, one row per name) and XML (`export`, `sanctionEntity`, `nameAlias`…).

export interface ListedParty {
  readonly ref: string;
  readonly kind: "individual" | "entity";
  /** OFAC style for individuals: "LAST, First". */
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly programs?: readonly string[];
  readonly address?: { readonly street: string; readonly city: string; readonly country: string; readonly iso2: string };
}

const NULL = "-0-";
const quoted = (values: readonly string[]) => values.map((value) => `"${value.replaceAll('"', '""')}"`).join(",");

export function ofacSdnCsv(parties: readonly ListedParty[]): string {
  const rows = parties.map((p) =>
    quoted([
      p.ref,
      p.name,
      p.kind === "individual" ? "individual" : NULL,
      (p.programs ?? ["SDGT"]).map((program) => `[${program}]`).join(" "),
      NULL,
      NULL,
      NULL,
      NULL,
      NULL,
      NULL,
      NULL,
      p.kind === "individual" ? "DOB 1970." : NULL,
    ]),
  );
  return `${rows.join("\r\n")}\r\n\u001a\r\n`;
}

export function ofacAltCsv(parties: readonly ListedParty[]): string {
  let altNum = 1000;
  const rows = parties.flatMap((p) => (p.aliases ?? []).map((alias) => quoted([p.ref, String(altNum++), "aka", alias, NULL])));
  return `${rows.join("\r\n")}\r\n\u001a\r\n`;
}

export function ofacAddCsv(parties: readonly ListedParty[]): string {
  let addNum = 2000;
  const rows = parties.flatMap((p) =>
    p.address === undefined ? [] : [quoted([p.ref, String(addNum++), p.address.street, p.address.city, p.address.country, NULL])],
  );
  return `${rows.join("\r\n")}\r\n\u001a\r\n`;
}

const EU_HEADER = [
  "fileGenerationDate",
  "Entity_LogicalId",
  "Entity_EU_ReferenceNumber",
  "Entity_UnitedNationId",
  "Entity_DesignationDate",
  "Entity_DesignationDetails",
  "Entity_Remark",
  "Entity_SubjectType",
  "Entity_SubjectType_ClassificationCode",
  "Entity_Regulation_Type",
  "Entity_Regulation_OrganisationType",
  "Entity_Regulation_PublicationDate",
  "Entity_Regulation_EntryIntoForceDate",
  "Entity_Regulation_NumberTitle",
  "Entity_Regulation_Programme",
  "Entity_Regulation_PublicationUrl",
  "NameAlias_LastName",
  "NameAlias_FirstName",
  "NameAlias_MiddleName",
  "NameAlias_WholeName",
  "NameAlias_NameLanguage",
  "NameAlias_Gender",
  "NameAlias_Title",
  "NameAlias_Function",
  "NameAlias_LogicalId",
  "NameAlias_RegulationLanguage",
  "NameAlias_Remark",
  "Address_City",
  "Address_Street",
  "Address_PoBox",
  "Address_ZipCode",
  "Address_Region",
  "Address_Place",
  "Address_AsAtListingTime",
  "Address_ContactInfo",
  "Address_CountryIso2Code",
  "Address_CountryDescription",
];

/** EU style: whole names ("Ivan Petrovich Petrov"); one row per name, the address on the first row. */
export function euCsv(parties: readonly ListedParty[]): string {
  const lines = [`\uFEFF${EU_HEADER.join(";")}`];
  let aliasId = 500;
  for (const p of parties) {
    const names = [p.name, ...(p.aliases ?? [])];
    names.forEach((name, index) => {
      const row: Record<string, string> = {
        fileGenerationDate: "28/11/2026",
        Entity_LogicalId: p.ref,
        Entity_EU_ReferenceNumber: `EU.${p.ref}.1`,
        Entity_SubjectType: p.kind === "individual" ? "person" : "enterprise",
        Entity_SubjectType_ClassificationCode: p.kind === "individual" ? "P" : "E",
        Entity_Regulation_Type: "regulation",
        Entity_Regulation_Programme: (p.programs ?? ["RUS"])[0] ?? "RUS",
        NameAlias_WholeName: name,
        NameAlias_LogicalId: String(aliasId++),
        NameAlias_RegulationLanguage: "en",
        ...(index === 0 && p.address !== undefined
          ? {
              Address_City: p.address.city,
              Address_Street: p.address.street,
              Address_CountryIso2Code: p.address.iso2,
              Address_CountryDescription: p.address.country.toUpperCase(),
            }
          : {}),
      };
      lines.push(EU_HEADER.map((field) => (row[field] ?? "").replaceAll(";", ",")).join(";"));
    });
  }
  return `${lines.join("\n")}\n`;
}

const xmlEscape = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

export function euXml(parties: readonly ListedParty[]): string {
  const entities = parties.map((p) => {
    const names = [p.name, ...(p.aliases ?? [])]
      .map(
        (name, index) =>
          `    <nameAlias firstName="" middleName="" lastName="" wholeName="${xmlEscape(name)}" function="" gender="" title="" nameLanguage="" strong="true" regulationLanguage="en" logicalId="${Number(p.ref) * 10 + index}"/>`,
      )
      .join("\n");
    const address =
      p.address === undefined
        ? ""
        : `\n    <address city="${xmlEscape(p.address.city)}" street="${xmlEscape(p.address.street)}" poBox="" zipCode="" region="" place="" asAtListingTime="false" regulationLanguage="en" countryIso2Code="${p.address.iso2}" countryDescription="${xmlEscape(p.address.country.toUpperCase())}" logicalId="${p.ref}9"/>`;
    return `  <sanctionEntity designationDetails="" unitedNationId="" euReferenceNumber="EU.${p.ref}.1" logicalId="${p.ref}">
    <remark>Test entry</remark>
    <regulation regulationType="regulation" organisationType="council" publicationDate="2022-03-15" entryIntoForceDate="2022-03-15" numberTitle="2022/427" programme="${(p.programs ?? ["RUS"])[0] ?? "RUS"}" logicalId="${p.ref}1">
      <publicationUrl>https://eur-lex.europa.eu/</publicationUrl>
    </regulation>
    <subjectType code="${p.kind === "individual" ? "person" : "enterprise"}" classificationCode="${p.kind === "individual" ? "P" : "E"}"/>
${names}${address}
  </sanctionEntity>`;
  });
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<export xmlns="http://eu.europa.ec/fpi/fsd/export" generationDate="2026-11-28T10:00:00.000+01:00" globalFileId="123">
${entities.join("\n")}
</export>
`;
}
