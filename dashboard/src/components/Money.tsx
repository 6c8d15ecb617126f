import { formatMoney } from "../lib/money";

export function Money({ minor, currency }: { minor: number; currency: string }) {
  return <span style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>{formatMoney(minor, currency)}</span>;
}
