// The tests' bank, ACH side: NACHA return (addenda 99) and notification-of-change (addenda 98) files, written from
// the record layouts with no code of the service. Free of vitest, so the reconciliation corpus (also loaded by the
// bench) can write the bank's ACH answers with it; re-exported by test-bank.ts.

export interface BankAchReturn {
  /** The trace number of the entry being returned or corrected. */
  readonly originalTrace: string;
  readonly receivingRouting: string;
  readonly accountNumber: string;
  readonly amountMinor: number;
  readonly name: string;
  readonly accountType: "checking" | "savings";
  readonly code: string;
  /** For notifications of change: the corrected data (e.g. the right account number). */
  readonly correctedData?: string;
}

function field(value: string, width: number, align: "left" | "right" = "left", fill = " "): string {
  const cut = value.slice(0, width);
  return align === "left" ? cut.padEnd(width, fill) : cut.padStart(width, fill);
}

/**
 * A NACHA file from the RDFI side with one batch of returns (addenda 99) and one COR batch of notifications
 * of change (addenda 98), as an ODFI passes them on to its originator.
 */
export function bankAchReturnFile(options: {
  readonly companyIdentification: string;
  readonly odfiIdentification: string;
  readonly returns: readonly BankAchReturn[];
  readonly changes: readonly BankAchReturn[];
  /** The file's creation date and its batches' effective date, YYYY-MM-DD (default 2026-11-26). */
  readonly createdDate?: string;
}): string {
  const day = (options.createdDate ?? "2026-11-26").replaceAll("-", "").slice(2);
  const lines: string[] = [];
  lines.push(
    `101 ${options.odfiIdentification}1 091000019${day}0800A094101${field("ACME BANK", 23)}${field("FEDERAL RESERVE", 23)}${" ".repeat(8)}`,
  );
  let batchNo = 0;
  let fileEntries = 0;
  let fileHash = 0;
  let fileCredit = 0;
  let trace = 0;
  const batch = (sec: string, items: readonly BankAchReturn[], addendaType: "99" | "98") => {
    if (items.length === 0) return;
    batchNo += 1;
    lines.push(
      `5220${field("ACME PAYOUTS", 16)}${" ".repeat(20)}${field(options.companyIdentification, 10)}${sec}${field(addendaType === "99" ? "RETURN" : "NOC", 10)}${" ".repeat(6)}${day}   1${field("09100001", 8)}${String(batchNo).padStart(7, "0")}`,
    );
    let hash = 0;
    let credit = 0;
    for (const item of items) {
      trace += 1;
      const ownTrace = `09100001${String(trace).padStart(7, "0")}`;
      const code = item.accountType === "checking" ? "21" : "31";
      const amount = addendaType === "99" ? item.amountMinor : 0;
      hash += Number(item.receivingRouting.slice(0, 8));
      credit += amount;
      lines.push(
        `6${code}${item.receivingRouting}${field(item.accountNumber, 17)}${String(amount).padStart(10, "0")}${field("", 15)}${field(item.name.toUpperCase(), 22)}  1${ownTrace}`,
      );
      if (addendaType === "99") {
        lines.push(
          `799${item.code}${item.originalTrace}${" ".repeat(6)}${item.receivingRouting.slice(0, 8)}${field("", 44)}${ownTrace}`,
        );
      } else {
        lines.push(
          `798${item.code}${item.originalTrace}${" ".repeat(6)}${item.receivingRouting.slice(0, 8)}${field(item.correctedData ?? "", 29)}${" ".repeat(15)}${ownTrace}`,
        );
      }
    }
    lines.push(
      `8220${String(items.length * 2).padStart(6, "0")}${String(hash % 10_000_000_000).padStart(10, "0")}${"0".repeat(12)}${String(credit).padStart(12, "0")}${field(options.companyIdentification, 10)}${" ".repeat(25)}${field("09100001", 8)}${String(batchNo).padStart(7, "0")}`,
    );
    fileEntries += items.length * 2;
    fileHash += hash;
    fileCredit += credit;
  };
  batch("PPD", options.returns, "99");
  batch("COR", options.changes, "98");
  const blocks = Math.ceil((lines.length + 1) / 10);
  lines.push(
    `9${String(batchNo).padStart(6, "0")}${String(blocks).padStart(6, "0")}${String(fileEntries).padStart(8, "0")}${String(fileHash % 10_000_000_000).padStart(10, "0")}${"0".repeat(12)}${String(fileCredit).padStart(12, "0")}${" ".repeat(39)}`,
  );
  while (lines.length % 10 !== 0) lines.push("9".repeat(94));
  for (const line of lines) if (line.length !== 94) throw new Error(`test bank wrote a ${line.length}-character record: ${line}`);
  return `${lines.join("\n")}\n`;
}
