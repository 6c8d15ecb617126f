// The local payee name comparator on real-world name pairs, and the simulator's magic values (issue 29).
import { describe, expect, it } from "vitest";
import { compareNames } from "../../src/rails/payee-name/name-comparator.js";
import type { NameCheckResult, PayeeNameRequest } from "../../src/rails/payee-name/payee-name-verifier.js";
import { createPayeeNameVerifiers } from "../../src/rails/payee-name/registry.js";
import { simulatedVerification } from "../../src/rails/payee-name/simulator-verifier.js";

/** [the name the account is held in, the payee's legal name, the answer]. */
const PAIRS: ReadonlyArray<readonly [string, string, NameCheckResult]> = [
  // Same name, other spelling: case, spaces, order, accents, transliteration.
  ["Hans Mueller", "Hans Mueller", "match"],
  ["HANS  MUELLER", "hans mueller", "match"],
  ["Müller Hans", "Hans Mueller", "match"],
  ["Hans Müller", "Hans Muller", "match"],
  ["Hans Müller", "Hans Mueller", "match"],
  ["Jürgen Groß", "Juergen Gross", "match"],
  ["José García", "Jose Garcia", "match"],
  ["François Lefèvre", "Francois Lefevre", "match"],
  ["Søren Kierkegaard", "Soren Kierkegaard", "match"],
  ["Zoë O'Brien", "Zoe OBrien", "match"],
  ["Anne-Marie Dupont", "Anne Marie Dupont", "match"],
  ["Ian Mac Donald", "Ian MacDonald", "match"],
  ["Łukasz Wiśniewski", "Lukasz Wisniewski", "match"],
  ["Ольга Иванова", "Olga Ivanova", "match"],
  // Honorifics and company suffixes.
  ["Dr. Anna Schmidt", "Anna Schmidt", "match"],
  ["Mr John Smith", "John Smith", "match"],
  ["Acme GmbH", "ACME", "match"],
  ["ACME Ltd.", "Acme Limited", "match"],
  ["Acme Inc", "Acme, Inc.", "match"],
  ["Globex S.A.", "Globex SA", "match"],
  ["Initech B.V.", "Initech", "match"],
  ["Müller Bau GmbH & Co. KG", "Mueller Bau", "match"],
  ["The Boring Company", "Boring Co", "match"],
  // Initials, typos and a middle name: close.
  ["J. Smith", "John Smith", "close_match"],
  ["Smith J", "John Smith", "close_match"],
  ["Jon Smith", "John Smith", "close_match"],
  ["John Smyth", "John Smith", "close_match"],
  ["Katarina Schmidt", "Katharina Schmidt", "close_match"],
  ["John Michael Smith", "John Smith", "close_match"],
  ["Acme Trading GmbH", "Acme Tradeing", "close_match"],
  // Clearly different.
  ["Maria Garcia", "John Smith", "no_match"],
  ["John Brown", "John Smith", "no_match"],
  ["Jane Doe", "John Doe Smith Brown", "no_match"],
  ["Smith", "John Smith", "no_match"],
  ["Globex", "Initech", "no_match"],
  ["Acme GmbH", "Apex GmbH", "no_match"],
  ["Jane Doe", "Jane Dough", "no_match"],
  // Nothing to compare.
  ["Mr.", "John Smith", "not_possible"],
  ["John Smith", "---", "not_possible"],
];

describe("the local payee name comparator", () => {
  it.each(PAIRS)("%s against %s: %s", (holder, payee, expected) => {
    expect(compareNames(holder, payee).result).toBe(expected);
    // Symmetric: which side is the account and which the payee does not change the answer.
    expect(compareNames(payee, holder).result).toBe(expected);
  });
});

const request = (last4: string, accountHolderName = "Jane Doe", payeeName = "Jane Doe"): PayeeNameRequest => ({
  accountHolderName,
  payeeName,
  payeeType: "person",
  country: "DE",
  scheme: "iban",
  last4,
  account: {},
});

describe("the simulator's magic values", () => {
  it("answers by the account's last four, whatever the names", () => {
    expect(simulatedVerification(request("0921"))).toEqual({ result: "no_match", bankName: null, source: "simulator" });
    expect(simulatedVerification(request("0922"))).toEqual({ result: "close_match", bankName: "J. DOE", source: "simulator" });
    expect(simulatedVerification(request("0923"))).toEqual({ result: "not_possible", bankName: null, source: "simulator" });
  });

  it("compares the names like the local check for any other account", () => {
    expect(simulatedVerification(request("3000"))).toEqual({ result: "match", bankName: null, source: "simulator" });
    expect(simulatedVerification(request("3000", "Jon Doe", "John Doe"))).toEqual({
      result: "close_match",
      bankName: "Jon Doe",
      source: "simulator",
    });
    expect(simulatedVerification(request("3000", "Max Power"))).toMatchObject({ result: "no_match" });
  });

  it("is what sandbox gets; production gets the configured verifier", async () => {
    const local = createPayeeNameVerifiers("local");
    expect(await local("sandbox").verify(request("0921"))).toMatchObject({ result: "no_match", source: "simulator" });
    expect(await local("production").verify(request("0921"))).toEqual({ result: "match", bankName: null, source: "local" });
    const simulator = createPayeeNameVerifiers("simulator");
    expect(await simulator("production").verify(request("0921"))).toMatchObject({ result: "no_match", source: "simulator" });
  });
});
