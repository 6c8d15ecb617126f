// What the bank-rails module offers the reconciliation module (issue 28) over its tables: which rail a bank
// statement's account is (the SEPA debtor IBAN, the ACH originator's account number), the payouts a reference
// names (a SEPA EndToEndId, an ACH trace), and a payment block of ours (its PmtInfId) less its rejected items.
import { electronicFormatIBAN } from "ibantools";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { classOf } from "./bank-rails.iso-answers.js";
import { findConfig, findFileByMessageId, findItemsByReferences, listItemReferencesOfFile } from "./bank-rails.repo.js";
import type { BankRailSettings } from "./bank-rails.service.js";

/** A payout we sent in a bank file, as a statement line may name it. */
export interface SentItem {
  readonly payoutId: string;
  readonly amountMinor: number;
  readonly rail: "sepa" | "ach";
  readonly reference: string;
  /** The bank's last status rejected it (pain.002 RJCT, an ACH return before settlement). */
  readonly rejected: boolean;
}

const normalise = (value: string) => value.replace(/[\s-]/g, "").toUpperCase();

/** The rail whose debtor account the statement names, or null (none of the Business's). */
export async function statementAccountRail(
  db: Db,
  tenant: Tenant,
  account: { readonly iban: string | null; readonly number: string | null },
): Promise<"sepa" | "ach" | null> {
  if (account.iban !== null) {
    const sepa = await findConfig(db, tenant, "sepa");
    const ours = sepa === null ? null : String((sepa.settings as BankRailSettings).originator.iban ?? "");
    if (ours !== null && normalise(electronicFormatIBAN(ours) ?? ours) === normalise(account.iban)) return "sepa";
  }
  if (account.number !== null) {
    const ach = await findConfig(db, tenant, "ach");
    const ours = ach === null ? null : (ach.settings as BankRailSettings).originator.account_number;
    if (typeof ours === "string" && ours !== "" && normalise(ours) === normalise(account.number)) return "ach";
    // A statement may name the SEPA account by its number (the IBAN's BBAN) rather than the IBAN.
    const sepa = await findConfig(db, tenant, "sepa");
    const iban = sepa === null ? null : String((sepa.settings as BankRailSettings).originator.iban ?? "");
    if (iban !== null && iban.length > 4 && normalise(iban).endsWith(normalise(account.number)) && account.number.length >= 8)
      return "sepa";
  }
  return null;
}

/** Our items named by these references (EndToEndIds are matched case-insensitively), keyed by the reference as given. */
export async function sentItemsByReferences(
  db: Db,
  tenant: Tenant,
  references: readonly string[],
): Promise<Map<string, SentItem>> {
  const out = new Map<string, SentItem>();
  if (references.length === 0) return out;
  const wanted = [...new Set(references.flatMap((r) => [r, r.toLowerCase()]))];
  for (const rail of ["sepa", "ach"] as const) {
    const found = await findItemsByReferences(db, tenant, rail, wanted);
    for (const reference of references) {
      const item = found.get(reference) ?? found.get(reference.toLowerCase());
      if (item === undefined || item.fileId === null || out.has(reference)) continue;
      out.set(reference, {
        payoutId: item.payoutId,
        amountMinor: item.amountMinor,
        rail,
        reference: item.reference ?? reference,
        rejected: classOf(item.bankStatus) === "rejected",
      });
    }
  }
  return out;
}

/** The items of one SEPA payment block of ours (our PmtInfIds are a file's MsgId and a four-digit block number), or null. */
export async function paymentBlockItems(db: Db, tenant: Tenant, paymentInfoId: string): Promise<SentItem[] | null> {
  const file = await findFileByMessageId(db, tenant, "sepa", paymentInfoId.replace(/-\d{4}$/, ""));
  if (file === null) return null;
  const items = (await listItemReferencesOfFile(db, file.id)).filter((item) => item.paymentInfoId === paymentInfoId);
  if (items.length === 0) return null;
  return items.map((item) => ({
    payoutId: item.payoutId,
    amountMinor: item.amountMinor,
    rail: "sepa" as const,
    reference: item.reference ?? "",
    rejected: classOf(item.bankStatus) === "rejected",
  }));
}
