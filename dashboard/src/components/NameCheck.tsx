// The payee name check of a destination in words (issue 29): whether the bank holds the account in the payee's
// name, shown wherever a person decides about money going there (the approvals inbox, the payout page, the
// Beneficiary's destinations). Colour repeats the words, never replaces them.
import { Text } from "@mantine/core";

export type NameCheckResult = "match" | "close_match" | "no_match" | "not_possible";

export interface NameCheckFacts {
  readonly name_check_result: NameCheckResult | null;
  readonly name_check_bank_name: string | null;
}

/** "Name matches", "Name close: the bank holds “J. DOE”", ... */
export function nameCheckText(facts: NameCheckFacts): string {
  switch (facts.name_check_result) {
    case "match":
      return "Name matches the bank's records";
    case "close_match":
      return facts.name_check_bank_name === null
        ? "Name close to the bank's records"
        : `Name close: the bank holds “${facts.name_check_bank_name}”`;
    case "no_match":
      return "Name does not match the bank's records";
    case "not_possible":
      return "Name check not possible";
    default:
      return "Name not checked yet";
  }
}

/** Only the warning is coloured (red.9 and dimmed keep the contrast axe asks of 12 px text); the words say the rest. */
const COLOURS: Readonly<Record<NameCheckResult, string | undefined>> = {
  match: undefined,
  close_match: undefined,
  no_match: "red.9",
  not_possible: "dimmed",
};

export function NameCheck({ facts }: { facts: NameCheckFacts }) {
  const result = facts.name_check_result;
  const colour = result === null ? "dimmed" : COLOURS[result];
  return (
    <Text
      size="xs"
      {...(colour === undefined ? {} : { c: colour })}
      fw={result === "no_match" || result === "close_match" ? 700 : 400}
      data-testid="name-check"
    >
      {nameCheckText(facts)}
    </Text>
  );
}
