// Jaro-Winkler similarity of two tokens (0..1), from cmpstr (docs/decisions.md, "Payee name check": why this
// library). One comparer for the process: it holds no state between calls.
import { CmpStr } from "cmpstr";

const comparer = CmpStr.create().setMetric("jaroWinkler");

export function jaroWinkler(a: string, b: string): number {
  return comparer.compare(a, b);
}
