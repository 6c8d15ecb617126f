// What the bank-rails module offers the reconciliation module (issue 28) over its tables: which rail a bank
// statement's account is (the SEPA debtor IBAN, the ACH originator's account number), the payouts a reference
// names (a SEPA EndToEndId, an ACH trace), and a payment block of ours (its PmtInfId) less its rejected items.
import { electronicFormatIBAN } from "ibantools";
import type { Tenant } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/client.js";
import { classOf } from "./bank-rails.iso-answers.js";
import { findConfigsOfRails, findItemsByPaymentInfoIds, findItemsByReferencesOnRails } from "./bank-rails.repo.js";
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
  // Both rails' configurations in one query (an ACH statement may name the SEPA account by its number).
  const configs = await findConfigsOfRails(db, tenant, ["sepa", "ach"]);
  const sepa = configs.get("sepa") ?? null;
  const ach = configs.get("ach") ?? null;
  const sepaIban = sepa === null ? null : String((sepa.settings as BankRailSettings).originator.iban ?? "");
  if (account.iban !== null) {
    if (sepaIban !== null && normalise(electronicFormatIBAN(sepaIban) ?? sepaIban) === normalise(account.iban)) return "sepa";
  }
  if (account.number !== null) {
    const ours = ach === null ? null : (ach.settings as BankRailSettings).originator.account_number;
    if (typeof ours === "string" && ours !== "" && normalise(ours) === normalise(account.number)) return "ach";
    // A statement may name the SEPA account by its number (the IBAN's BBAN) rather than the IBAN.
    if (
      sepaIban !== null &&
      sepaIban.length > 4 &&
      normalise(sepaIban).endsWith(normalise(account.number)) &&
      account.number.length >= 8
    )
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
  // Both rails in one query; a reference found on both is the SEPA item's, as when they were read one after the other.
  const rows = await findItemsByReferencesOnRails(db, tenant, ["sepa", "ach"], wanted);
  for (const rail of ["sepa", "ach"] as const) {
    const found = new Map(rows.flatMap((row) => (row.rail === rail ? [[row.reference ?? "", row] as const] : [])));
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

/**
 * The items of payment blocks of ours by their reference, kept on each item when its file was written (a SEPA
 * PmtInfId; an ACH batch reference where one is kept), whatever file they went in; blocks not found are absent.
 */
export async function paymentBlocks(db: Db, tenant: Tenant, references: readonly string[]): Promise<Map<string, SentItem[]>> {
  const out = new Map<string, SentItem[]>();
  const rows = await findItemsByPaymentInfoIds(db, tenant, references);
  for (const item of rows) {
    if (item.paymentInfoId === null || item.fileId === null) continue;
    const list = out.get(item.paymentInfoId) ?? [];
    list.push({
      payoutId: item.payoutId,
      amountMinor: item.amountMinor,
      rail: item.rail === "ach" ? "ach" : "sepa",
      reference: item.reference ?? "",
      rejected: classOf(item.bankStatus) === "rejected",
    });
    out.set(item.paymentInfoId, list);
  }
  return out;
}
