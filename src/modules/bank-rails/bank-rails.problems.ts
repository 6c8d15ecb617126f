// The problems of an inbound file in words a bank operations person acts on. The apply functions keep each
// item that moved nothing in the inbound file's `unmatched` list, some as a full sentence (ACH answers and
// camt.054 amounts: bank-rails.matching.ts) and some as the bare reference the item named (`EndToEndId …`,
// `OrgnlMsgId …`); the listing and the `bank_file.item_unmatched` event give each as a reference and a
// sentence, read from what was recorded (pure: rows kept before this change read the same way).
import { IsoParseError } from "../../rails/bank-files/iso-readers.js";
import { NachaParseError } from "../../rails/bank-files/nacha-reader.js";
import { BankPgpError } from "../../rails/bank-files/openpgp.js";

export interface InboundProblem {
  /** The ACH trace number, EndToEndId or OrgnlMsgId the item named; null when it named none. */
  readonly reference: string | null;
  readonly reason: string;
}

const MESSAGE: Readonly<Record<string, string>> = {
  "pain.002": "pain.002 status report",
  "camt.054": "camt.054 notification",
  nacha_returns: "ACH return file",
};

/** One recorded unmatched item of an inbound file of `kind` (pain.002, camt.054, nacha_returns) in words. */
export function unmatchedProblem(kind: string, recorded: string): InboundProblem {
  const message = MESSAGE[kind] ?? "file";
  const bare = /^(EndToEndId|OrgnlMsgId) (\S+)$/.exec(recorded);
  if (bare !== null) {
    const [, element, value] = bare as unknown as [string, string, string];
    if (value === "(none)")
      return {
        reference: null,
        reason: `The ${message} has an entry without an EndToEndId: it names no payout; nothing was moved.`,
      };
    if (element === "OrgnlMsgId")
      return {
        reference: value,
        reason: `The ${message} answers OrgnlMsgId ${value}, which is no SEPA file we sent (MsgId of our pain.001); nothing was moved. Check that the bank sent it to the right originator.`,
      };
    return {
      reference: value,
      reason:
        kind === "pain.002"
          ? `The ${message} gives a status for EndToEndId ${value}, which is not a transaction of the file it answers; nothing was moved.`
          : `The ${message} has an entry for EndToEndId ${value}, which is no payout we sent; nothing was moved.`,
    };
  }
  const trace = /\btrace (\d{15})\b/.exec(recorded);
  const endToEnd = /\bEndToEndId (\S+?)[:,;]?(\s|$)/.exec(recorded);
  return { reference: trace?.[1] ?? endToEnd?.[1] ?? null, reason: recorded };
}

/** Why a file could not be read, in words, naming the format and where (a NACHA record's line). */
export function refusalWords(rail: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof NachaParseError) return `The file is not a valid NACHA file: ${message}.`.replace(/\.\.$/, ".");
  if (error instanceof IsoParseError) {
    const sentence = message.startsWith("the file ")
      ? `T${message.slice(1)}`
      : /^(not|neither) /.test(message)
        ? `The file is ${message}`
        : `The file cannot be read: ${message}`;
    return `${sentence}.`.replace(/\.\.$/, ".");
  }
  if (error instanceof BankPgpError) return `The file could not be opened with OpenPGP: ${message}.`.replace(/\.\.$/, ".");
  return rail === "ach" ? `The file could not be read as a NACHA file: ${message}` : `The file could not be read: ${message}`;
}
