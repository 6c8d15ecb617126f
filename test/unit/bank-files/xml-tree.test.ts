// The one-pass tree builder (src/rails/bank-files/xml-tree.ts) against fast-xml-parser's XMLParser with the options
// parseXml used before it (the reference): the same object, key order included, on every XML file of the
// reconciliation corpus (statements, the pain.001 we send, the bank's pain.002 answers) for several seeds, on the
// golden files and the test bank's writers, and on generated documents; and parseXml's outcome (tree or refusal)
// unchanged on generated documents with a character broken, and on the shapes left to XMLParser.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { IsoParseError, parseXml, REPEATED_ELEMENTS } from "../../../src/rails/bank-files/iso-readers.js";
import { buildPain001 } from "../../../src/rails/bank-files/sepa-pain001.js";
import { readXmlTree } from "../../../src/rails/bank-files/xml-tree.js";
import { generateReconciliationCorpus } from "../../fixtures/statements/corpus.js";
import { camt053ByHand } from "../../helpers/camt053-by-hand.js";
import { bankCamt054, bankPain002 } from "../../helpers/test-bank.js";
import { GOLDEN_SEPA } from "./fixtures.js";

const isRepeated = (name: string) => REPEATED_ELEMENTS.has(name);

// The genkgo/camt samples (real banks' shapes), read where they are kept, never copied (statements-camt.test.ts).
const SAMPLES = resolve(import.meta.dirname, "../../../../shared/standards/samples");

/** XMLParser exactly as parseXml set it up before the one-pass builder. */
function reference(text: string): unknown {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: false,
    htmlEntities: false,
    trimValues: true,
    isArray: isRepeated,
  }).parse(text);
}

type Outcome = { tree: string } | { refused: string };

/** What parseXml did before: refuse a DTD, refuse what XMLValidator refuses, else XMLParser's tree or its error. */
function referenceOutcome(text: string): Outcome {
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) return { refused: "doctype" };
  if (XMLValidator.validate(text) !== true) return { refused: "not well-formed" };
  try {
    return { tree: JSON.stringify(reference(text)) };
  } catch (error) {
    return { refused: `the file is not well-formed XML: ${(error as Error).message}` };
  }
}

function outcome(text: string): Outcome {
  try {
    return { tree: JSON.stringify(parseXml(text)) };
  } catch (error) {
    if (!(error instanceof IsoParseError)) throw error;
    if (error.message === "document type declarations are not accepted") return { refused: "doctype" };
    // XMLValidator's refusals are worded by notWellFormed (unchanged); XMLParser's own errors are passed on.
    return { refused: XMLValidator.validate(text) === true ? error.message : "not well-formed" };
  }
}

/** The builder's tree equals the reference's, key order included (JSON text), and parseXml returns it. */
function expectSameTree(text: string): void {
  const tree = readXmlTree(text, isRepeated);
  expect(tree, "read in one pass, not left to XMLParser").toBeDefined();
  const expected = reference(text);
  expect(JSON.stringify(tree)).toBe(JSON.stringify(expected));
  expect(tree).toStrictEqual(expected);
  expect(JSON.stringify(parseXml(text))).toBe(JSON.stringify(expected));
}

describe("the one-pass XML tree", () => {
  it("builds XMLParser's tree for every XML file of the reconciliation corpus (three seeds)", () => {
    let files = 0;
    for (const [seed, minLines] of [
      [28, 10_000],
      [5, 500],
      [11, 500],
    ] as const) {
      const corpus = generateReconciliationCorpus({ seed, payouts: 200, minLines });
      const xml = [...corpus.files, ...corpus.sentFiles, ...corpus.bankAnswers]
        .map((file) => file.content)
        .filter((content) => content.trimStart().startsWith("<"));
      for (const text of xml) expectSameTree(text);
      files += xml.length;
    }
    expect(files).toBeGreaterThan(1_000);
  });

  it("builds XMLParser's tree for the golden pain.001 files, our pain.001 writer and the test bank's answers", () => {
    const golden = (name: string) => readFileSync(resolve(import.meta.dirname, "golden", name), "utf8");
    const texts = [
      golden("pain.001.001.09.xml"),
      golden("pain.001.001.03.xml"),
      buildPain001(GOLDEN_SEPA),
      buildPain001({ ...GOLDEN_SEPA, version: "pain.001.001.03" }),
      ...([3, 10] as const).map((version) =>
        bankPain002({
          messageId: "STS-1",
          originalMessageId: "BF-1",
          version,
          groupStatus: "PART",
          groupReasonCode: "NARR",
          blocks: [
            {
              paymentInfoId: "BF-1-0001",
              status: "PART",
              transactions: [
                { endToEndId: "E2E-1", status: "ACCP", originalAmount: "10.00" },
                { endToEndId: "E2E-2", status: "RJCT", reasonCode: "AC04", additionalInfo: "Konto <geschlossen> & gelöscht" },
              ],
            },
          ],
        }),
      ),
      ...([2, 8] as const).map((version) =>
        bankCamt054({
          messageId: "NTF-1",
          version,
          bookings: [
            { endToEndId: "E2E-1", amount: "10.00", creditDebit: "DBIT", bookingDate: "2026-03-02" },
            {
              endToEndId: "E2E-2",
              amount: "12.50",
              creditDebit: "CRDT",
              bookingDate: "2026-03-02T10:00:00+01:00",
              returnReasonCode: "AC04",
              returnInfo: "closed & gone",
            },
          ],
          batches: [{ paymentInfoId: "BF-1-0001", amount: "22.50", numberOfTransactions: 2, bookingDate: "2026-03-02" }],
        }),
      ),
      camt053ByHand("DE89370400440532013000", "2026-03-02", "100.00", "90.00", [
        { direction: "DBIT", amount: "10.00", reference: "REF-1", remittance: "Rent &amp; fees" },
      ]),
    ];
    for (const text of texts) expectSameTree(text);
  });

  it.skipIf(!existsSync(SAMPLES))("builds XMLParser's tree for the genkgo/camt sample statements and notifications", () => {
    const samples = readdirSync(SAMPLES).filter((name) => name.endsWith(".xml"));
    expect(samples.length).toBeGreaterThan(0);
    for (const name of samples) expectSameTree(readFileSync(resolve(SAMPLES, name), "utf8"));
  });

  it("builds XMLParser's tree for generated documents: prefixes, xmlns, attributes, whitespace, entities, comments, CDATA, repeats", () => {
    fc.assert(
      fc.property(documents, (text) => {
        expect(XMLValidator.validate(text)).toBe(true);
        expectSameTree(text);
      }),
      { numRuns: 1_500 },
    );
  });

  it("leaves parseXml's outcome unchanged on generated documents with a character broken or added", () => {
    const broken = fc
      .tuple(documents, fc.nat(), fc.constantFrom(..."<>&\"'/!?-] x:=;#".split(""), ""), fc.boolean())
      .map(([text, at, character, remove]) => {
        const position = at % (text.length + 1);
        return text.slice(0, position) + character + text.slice(remove ? position + 1 : position);
      });
    fc.assert(
      fc.property(broken, (text) => {
        expect(outcome(text)).toEqual(referenceOutcome(text));
      }),
      { numRuns: 3_000 },
    );
  });

  it("leaves the shapes it does not read to XMLParser, with the same outcome", () => {
    const deep = `${"<a>".repeat(101)}x${"</a>".repeat(101)}`;
    const leftAlone = [
      '<a><?pi x="1"?>text</a>',
      '<?xml-stylesheet href="a.xsl"?><a>1</a>',
      "<a><toString>1</toString><valueOf/></a>",
      "<a><__proto__>1</__proto__></a>",
      "<a><b:>1</b:></a>",
      "<Straße>1</Straße>",
      "<a/><b/>",
      "<a>1</a><!-- not closed",
      "<a>1</a><![CDATA[x]]>",
      deep,
      `<?xml version="1.0"?>${deep}`,
    ];
    for (const text of leftAlone) {
      expect(readXmlTree(text, isRepeated), text).toBeUndefined();
      expect(outcome(text), text).toEqual(referenceOutcome(text));
    }
  });

  it("keeps entities as written and refuses a document type declaration before reading anything", () => {
    expect(parseXml("<a x='&amp;'>R&amp;D &lt;1&gt; &#233;</a>")).toEqual({
      a: { "#text": "R&amp;D &lt;1&gt; &#233;", "@x": "&amp;" },
    });
    expect(() => parseXml('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')).toThrow("document type declarations are not accepted");
  });
});

const elementNames = fc.constantFrom(
  "Document",
  "Ntry",
  "Amt",
  "a",
  "b",
  "ns:a",
  "x:Ntry",
  "c.d",
  "e-f",
  "_g",
  "Rsn",
  "n:Bal",
  "A1",
  "xmlns:e",
);
const attributeNames = fc.constantFrom("Ccy", "xsi:type", "xmlns", "xmlns:x", "a:id", "b:id", "id", "v", "x:y:z", "xmlnsx", "p:");
const attributeValues = fc.constantFrom(
  "",
  " EUR ",
  "a &amp; b",
  "it's",
  'say "hi"',
  "x > y",
  "1 < 2",
  "\n t \t",
  "1/",
  "/",
  "0",
);
const spaces = fc.constantFrom("", " ", "\n", "\t", "\r\n  ");
const texts = fc.constantFrom(
  "",
  " ",
  "\n  ",
  "EUR",
  " 12.50 ",
  "a &amp; b",
  "&lt;x&gt;",
  "&#233;&#x20AC;",
  "é ü ß",
  "x > y",
  "line\r\nnext\r",
  " \u00a0nbsp\u00a0 ",
  "0",
  "true",
);
const comments = fc.constantFrom("<!-- c -->", "<!---->", "<!-- <a> & -->");
const cdata = fc.constantFrom("<![CDATA[ raw <b> & ]]>", "<![CDATA[]]>", "<![CDATA[\r\n x ]]>");

const attribute = fc
  .tuple(attributeNames, attributeValues, spaces, fc.constantFrom("", " "))
  .map(([name, value, before, around]) => {
    const quote = value.includes('"') ? "'" : value.includes("'") ? '"' : around === "" ? '"' : "'";
    return { name, text: `${before === "" ? " " : before}${name}${around}=${around}${quote}${value}${quote}` };
  });

const { element } = fc.letrec<{ element: string }>((tie) => ({
  element: fc
    .record({
      name: elementNames,
      attributes: fc.uniqueArray(attribute, { selector: (a) => a.name, maxLength: 3 }),
      content: fc.array(fc.oneof({ maxDepth: 4, depthIdentifier: "element" }, texts, texts, comments, cdata, tie("element")), {
        maxLength: 5,
      }),
      selfClosing: fc.boolean(),
      inside: fc.constantFrom("", " ", "\n"),
    })
    .map(({ name, attributes, content, selfClosing, inside }) => {
      const open = `<${name}${attributes.map((a) => a.text).join("")}${inside}`;
      if (selfClosing && content.length === 0) return `${open}/>`;
      return `${open}>${content.join("")}</${name}${inside}>`;
    }),
}));

const documents = fc
  .tuple(
    fc.constantFrom(
      "",
      '<?xml version="1.0" encoding="UTF-8"?>\n',
      "<?xml version='1.0'?>",
      '<?xml version="1.0" standalone="yes" ?>\r\n',
    ),
    fc.constantFrom("", "\n", "<!-- head -->\n"),
    element,
    fc.constantFrom("", "\n", "\n<!-- tail -->\n", "  "),
  )
  .map((parts) => parts.join(""));
