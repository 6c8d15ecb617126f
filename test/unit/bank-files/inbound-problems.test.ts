// The problems of an inbound file as the listing and the bank_file.item_unmatched event give them.
import { describe, expect, it } from "vitest";
import { refusalWords, unmatchedProblem } from "../../../src/modules/bank-rails/bank-rails.problems.js";
import { IsoParseError } from "../../../src/rails/bank-files/iso-readers.js";
import { NachaParseError } from "../../../src/rails/bank-files/nacha-reader.js";

describe("inbound problems in words", () => {
  it("says what a bare reference means, per message", () => {
    expect(unmatchedProblem("pain.002", "OrgnlMsgId MSG-9")).toEqual({
      reference: "MSG-9",
      reason:
        "The pain.002 status report answers OrgnlMsgId MSG-9, which is no SEPA file we sent (MsgId of our pain.001); nothing was moved. Check that the bank sent it to the right originator.",
    });
    expect(unmatchedProblem("pain.002", "EndToEndId abc")).toEqual({
      reference: "abc",
      reason:
        "The pain.002 status report gives a status for EndToEndId abc, which is not a transaction of the file it answers; nothing was moved.",
    });
    expect(unmatchedProblem("camt.054", "EndToEndId abc")).toEqual({
      reference: "abc",
      reason: "The camt.054 notification has an entry for EndToEndId abc, which is no payout we sent; nothing was moved.",
    });
    expect(unmatchedProblem("camt.054", "EndToEndId (none)")).toEqual({
      reference: null,
      reason: "The camt.054 notification has an entry without an EndToEndId: it names no payout; nothing was moved.",
    });
  });

  it("keeps full sentences and finds the trace or EndToEndId they name", () => {
    const ach = "ACH return R02 for trace 091000010000004 does not agree with our entry: amount. Nothing was moved.";
    expect(unmatchedProblem("nacha_returns", ach)).toEqual({ reference: "091000010000004", reason: ach });
    const camt = "camt.054 booking of EndToEndId 0196aa: we sent EUR 1.00, the bank booked EUR 2.00; nothing was moved.";
    expect(unmatchedProblem("camt.054", camt)).toEqual({ reference: "0196aa", reason: camt });
  });

  it("names the format of a file that could not be read", () => {
    expect(refusalWords("ach", new NachaParseError('unexpected record type "7"', 4))).toBe(
      'The file is not a valid NACHA file: line 4: unexpected record type "7".',
    );
    expect(refusalWords("sepa", new IsoParseError("camt.054 without MsgId"))).toBe(
      "The file cannot be read: camt.054 without MsgId.",
    );
    expect(refusalWords("sepa", new IsoParseError("not a camt.054 debit/credit notification: the root element is <x>"))).toBe(
      "The file is not a camt.054 debit/credit notification: the root element is <x>.",
    );
  });
});
