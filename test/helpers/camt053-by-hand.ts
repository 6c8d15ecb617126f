// A bank statement file a test writes by hand (camt.053.001.08), for the tests of the dashboard and the CLI.

export interface HandEntry {
  readonly direction: "DBIT" | "CRDT";
  readonly amount: string;
  readonly reference: string;
  readonly remittance: string;
}

/**
 * A camt.053.001.08 of one day on `iban`: opening and closing booked balances (credit) and entries that carry the
 * bank's reference and a remittance text but none of ours. Written by hand, from the schema, so a test of the
 * people's side needs nothing of the service's readers; callers validate it with expectIsoValid.
 */
export function camt053ByHand(
  iban: string,
  day: string,
  opening: string,
  closing: string,
  entries: readonly HandEntry[],
): string {
  const balance = (code: string, amount: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${day}</Dt></Dt></Bal>`;
  const entry = (e: HandEntry) =>
    `<Ntry><Amt Ccy="EUR">${e.amount}</Amt><CdtDbtInd>${e.direction}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>` +
    `<BookgDt><Dt>${day}</Dt></BookgDt><ValDt><Dt>${day}</Dt></ValDt><AcctSvcrRef>${e.reference}</AcctSvcrRef>` +
    `<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${e.direction === "DBIT" ? "ICDT" : "RCDT"}</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>` +
    `<AddtlNtryInf>${e.remittance}</AddtlNtryInf></Ntry>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>' +
    `<GrpHdr><MsgId>STMT-MSG-${day}-${iban.slice(-6)}</MsgId><CreDtTm>${day}T20:00:00Z</CreDtTm></GrpHdr>` +
    `<Stmt><Id>STMT-${day}-${iban.slice(-6)}</Id><ElctrncSeqNb>1</ElctrncSeqNb><CreDtTm>${day}T20:00:00Z</CreDtTm>` +
    `<FrToDt><FrDtTm>${day}T00:00:00Z</FrDtTm><ToDtTm>${day}T23:59:59Z</ToDtTm></FrToDt>` +
    `<Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>EUR</Ccy></Acct>` +
    balance("OPBD", opening) +
    balance("CLBD", closing) +
    entries.map(entry).join("") +
    "</Stmt></BkToCstmrStmt></Document>\n"
  );
}
