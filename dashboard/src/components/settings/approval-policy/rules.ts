// The approval policy's rules as the editor holds them (drafts: text as typed) and back to the request body.
// Draft fields are named as the API names them, so its refusals (`rules[0].min_amount_minor`) land on them.
import type { Schemas } from "../../../api/client";
import { minorToDecimal, parseMoneyInput } from "../../../lib/money";

export type Rule = Schemas["ApprovalPolicy"]["rules"][number];
export interface RuleDraft {
  /** React's key for the rule's card: stays with the rule when it moves. */
  key: number;
  name: string;
  outcome: Rule["outcome"];
  currency: string;
  min_amount_minor: string;
  max_amount_minor: string;
  channels: { api: boolean; csv: boolean };
  min_beneficiary_age_hours: string;
  max_beneficiary_age_hours: string;
}
export interface PolicyValues {
  makerChecker: boolean;
  rules: RuleDraft[];
}

let nextKey = 1;
export function draftOf(rule: Rule): RuleDraft {
  const money = (value: number | undefined) =>
    value === undefined ? "" : rule.currency !== undefined ? minorToDecimal(value, rule.currency) : String(value);
  return {
    key: nextKey++,
    name: rule.name,
    outcome: rule.outcome,
    currency: rule.currency ?? "",
    min_amount_minor: money(rule.min_amount_minor),
    max_amount_minor: money(rule.max_amount_minor),
    channels: {
      api: rule.channels === undefined || rule.channels.includes("api"),
      csv: rule.channels === undefined || rule.channels.includes("csv"),
    },
    min_beneficiary_age_hours: rule.min_beneficiary_age_hours === undefined ? "" : String(rule.min_beneficiary_age_hours),
    max_beneficiary_age_hours: rule.max_beneficiary_age_hours === undefined ? "" : String(rule.max_beneficiary_age_hours),
  };
}
export const emptyDraft = (): RuleDraft => ({
  key: nextKey++,
  name: "",
  outcome: "approve",
  currency: "",
  min_amount_minor: "",
  max_amount_minor: "",
  channels: { api: true, csv: true },
  min_beneficiary_age_hours: "",
  max_beneficiary_age_hours: "",
});

/** Form path -> message, as @mantine/form keeps errors (`rules.0.min_amount_minor`). */
export type FieldErrors = Record<string, string>;

/** Drafts -> the request body, or the fields the browser can already tell are wrong. */
export function toRules(drafts: readonly RuleDraft[]): { rules: Rule[]; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const rules = drafts.map((d, i) => {
    const currency = d.currency.trim().toUpperCase();
    const rule: Rule = { name: d.name.trim(), outcome: d.outcome };
    if (currency !== "") rule.currency = currency;
    const amount = (field: "min_amount_minor" | "max_amount_minor") => {
      const text = d[field];
      if (text.trim() === "") return;
      if (currency === "") {
        if (!/^\d+$/.test(text.trim())) errors[`rules.${i}.${field}`] = "Without a currency, enter whole minor units";
        else rule[field] = Number(text.trim());
        return;
      }
      const parsed = parseMoneyInput(text, currency);
      if (parsed.ok) rule[field] = parsed.amountMinor;
      else errors[`rules.${i}.${field}`] = parsed.message;
    };
    amount("min_amount_minor");
    amount("max_amount_minor");
    if (!d.channels.api || !d.channels.csv) {
      const channels: ("api" | "csv")[] = [];
      if (d.channels.api) channels.push("api");
      if (d.channels.csv) channels.push("csv");
      if (channels.length === 0) errors[`rules.${i}.channels`] = "Choose at least one channel";
      else rule.channels = channels;
    }
    const hours = (field: "min_beneficiary_age_hours" | "max_beneficiary_age_hours") => {
      const text = d[field];
      if (text.trim() === "") return;
      if (!/^\d+$/.test(text.trim())) errors[`rules.${i}.${field}`] = "Enter whole hours";
      else rule[field] = Number(text.trim());
    };
    hours("min_beneficiary_age_hours");
    hours("max_beneficiary_age_hours");
    return rule;
  });
  return { rules, errors };
}
