// The approval policy: ordered rules a Business configures per environment. At creation the first rule
// whose every condition holds decides the payout (an automated Decision naming the rule); a payout no rule
// matches waits for a person. Pure, so it is unit-tested without a database.
import type { PolicyRule } from "./payouts.schemas.js";

export interface PolicyInput {
  readonly amountMinor: number;
  readonly currency: string;
  readonly channel: "api" | "csv";
  readonly beneficiaryCreatedAt: Date;
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
  return true;
}

/** The rule that decides, or null (a person decides). */
export function evaluatePolicy(rules: readonly PolicyRule[], input: PolicyInput): PolicyRule | null {
  for (const rule of rules) if (ruleMatches(rule, input)) return rule;
  return null;
}
