// The approval policy: ordered rules a Business configures per environment. At creation the first rule
// whose every condition holds decides the payout (an automated Decision naming the rule); a payout no rule
// matches waits for a person. Pure, so it is unit-tested without a database.
import type { PolicyRule } from "./payouts.schemas.js";

export interface PolicyInput {
  readonly amountMinor: number;
  readonly currency: string;
  readonly channel: "api" | "csv";
  readonly beneficiaryCreatedAt: Date;
  /** Since when the destination is what it is (its bank details set or changed; its cooling-off ended). */
  readonly destinationSince: Date;
  readonly now: Date;
}

const HOUR_MS = 3_600_000;

export function ruleMatches(rule: PolicyRule, input: PolicyInput): boolean {
  if (rule.currency !== undefined && rule.currency !== input.currency) return false;
  if (rule.max_amount_minor !== undefined && input.amountMinor > rule.max_amount_minor) return false;
  if (rule.min_amount_minor !== undefined && input.amountMinor < rule.min_amount_minor) return false;
  if (rule.channels !== undefined && !rule.channels.includes(input.channel)) return false;
  const ageMs = input.now.getTime() - input.beneficiaryCreatedAt.getTime();
  if (rule.min_beneficiary_age_hours !== undefined && ageMs < rule.min_beneficiary_age_hours * HOUR_MS) return false;
  if (rule.max_beneficiary_age_hours !== undefined && ageMs > rule.max_beneficiary_age_hours * HOUR_MS) return false;
  const destinationAgeMs = input.now.getTime() - input.destinationSince.getTime();
  if (rule.min_destination_age_hours !== undefined && destinationAgeMs < rule.min_destination_age_hours * HOUR_MS) return false;
  return true;
}

/** The rule that decides, or null (a person decides). */
export function evaluatePolicy(rules: readonly PolicyRule[], input: PolicyInput): PolicyRule | null {
  for (const rule of rules) if (ruleMatches(rule, input)) return rule;
  return null;
}

/**
 * Whether replacing `before` with `after` can let a payout through with less scrutiny than before (the e-mail
 * to admins and the refusal for API keys hang on it). Conservative, rule by rule rather than by evaluating
 * every possible payout: a rule is compared by its outcome and conditions (its name decides nothing).
 * Loosened when any of these holds:
 *   - an `approve` rule is new or changed (it may approve payouts that used to wait or be rejected);
 *   - a `reject` rule is gone or changed (payouts it refused may now wait, or be approved by a later rule);
 *   - an `approve` rule now comes before a `reject` rule it used to follow (it now wins for payouts both match).
 * Removing an `approve` rule, adding a `reject` rule anywhere, and reordering among rules of one outcome never
 * loosen. Renaming a rule changes nothing.
 */
export function approvalRulesLoosened(before: readonly PolicyRule[], after: readonly PolicyRule[]): boolean {
  const conditionsOf = (rule: PolicyRule) => {
    const { name: _name, ...rest } = rule;
    return JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  };
  const keyed = (rules: readonly PolicyRule[]) => rules.map((rule) => ({ outcome: rule.outcome, key: conditionsOf(rule) }));
  const old = keyed(before);
  const now = keyed(after);
  const oldApprove = new Set(old.filter((r) => r.outcome === "approve").map((r) => r.key));
  const newReject = new Set(now.filter((r) => r.outcome === "reject").map((r) => r.key));
  if (now.some((r) => r.outcome === "approve" && !oldApprove.has(r.key))) return true;
  if (old.some((r) => r.outcome === "reject" && !newReject.has(r.key))) return true;
  const firstIndex = (rules: typeof old, outcome: string, key: string) =>
    rules.findIndex((r) => r.outcome === outcome && r.key === key);
  for (const approve of now.filter((r) => r.outcome === "approve")) {
    for (const reject of old.filter((r) => r.outcome === "reject")) {
      const wasAfter = firstIndex(old, "approve", approve.key) > firstIndex(old, "reject", reject.key);
      const isBefore = firstIndex(now, "approve", approve.key) < firstIndex(now, "reject", reject.key);
      if (wasAfter && isBefore) return true;
    }
  }
  return false;
}
