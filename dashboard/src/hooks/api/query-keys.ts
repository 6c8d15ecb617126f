// Every key the dashboard caches a server answer under, in one place. A query hook reads with one of these, a
// mutation invalidates with one: a page never writes a key by hand.
//
// Scoping, as the cache has always been laid out:
// - What belongs to an environment starts with it (`[environment, resource, ...]`): switching the environment
//   reads other keys instead of mixing the two, and both stay cached for switching back.
// - The session and the person's own sessions are the person's, not an environment's; the Business profile is
//   one per Business whichever environment is shown (the display time zone comes from it).
// - Each resource's `all` is the prefix of every key under it: invalidating it refreshes the lists, the details
//   and the counts (a decision invalidates `payouts.all`, which also refreshes the pending badge and Home).
import type { Environment } from "../../api/client";

/** A list's filters as part of its key (TanStack hashes objects by value, whatever the order of their fields). */
export type KeyFilters = object;

export const queryKeys = {
  /** GET /v1/session: who is signed in (null when no one). */
  session: ["session"] as const,
  /** GET /v1/session/sessions: the signed-in person's own sessions, in every browser. */
  mySessions: ["my-sessions"] as const,

  business: {
    /** GET /v1/business: the profile, one per Business whichever environment is shown. */
    profile: (businessId: string) => ["business-profile", businessId] as const,
  },

  members: {
    all: (env: Environment) => [env, "members"] as const,
  },
  invitations: {
    all: (env: Environment) => [env, "invitations"] as const,
  },
  apiKeys: {
    all: (env: Environment) => [env, "api-keys"] as const,
  },

  webhooks: {
    /** GET /v1/webhook-subscriptions: the environment's one endpoint. */
    subscription: (env: Environment) => [env, "webhook-subscription"] as const,
    deliveries: {
      all: (env: Environment) => [env, "webhook-deliveries"] as const,
      list: (env: Environment, filters: { status: string; eventType: string }, cursor: string) =>
        [env, "webhook-deliveries", filters.status, filters.eventType, cursor] as const,
      failing: (env: Environment) => [env, "webhook-deliveries", "failing"] as const,
    },
  },

  productionRail: {
    /**
     * Whether production runs on the simulator (no bank rail configured). Under `[env, "bank-rails"]`, so
     * whatever refreshes the bank rails refreshes it too.
     */
    simulator: (env: Environment) => [env, "bank-rails", "production-simulator"] as const,
  },

  /** GET /v1/payout-limits: the limits and today's usage. */
  payoutLimits: (env: Environment) => [env, "payout-limits"] as const,
  /** GET /v1/control-changes: weakenings waiting for a second admin. */
  controlChanges: {
    all: (env: Environment) => [env, "control-changes"] as const,
  },

  payouts: {
    all: (env: Environment) => [env, "payouts"] as const,
    list: (env: Environment, filters: KeyFilters, cursor: string | null) => [env, "payouts", "list", filters, cursor] as const,
    detail: (env: Environment, payoutId: string) => [env, "payouts", "one", payoutId] as const,
    decisions: (env: Environment, payoutId: string) => [env, "payouts", "decisions", payoutId] as const,
    replacements: (env: Environment, payoutId: string) => [env, "payouts", "replacements", payoutId] as const,
    events: (env: Environment, payoutId: string) => [env, "payouts", "events", payoutId] as const,
    deliveries: (env: Environment, payoutId: string) => [env, "payouts", "deliveries", payoutId] as const,
    /** The Approvals page's queue. */
    pending: (env: Environment) => [env, "payouts", "pending"] as const,
    /** The navigation's badge. */
    pendingCount: (env: Environment) => [env, "payouts", "pending-count"] as const,
    /** Home's problems since `firstDay` (in `zone`). */
    problems: (env: Environment, zone: string, firstDay: string) => [env, "payouts", "problems", zone, firstDay] as const,
    volume: (env: Environment, days: number, zone: string) => [env, "payouts", "volume", days, zone] as const,
    /** Bulk uploads (batches). */
    batches: (env: Environment) => [env, "payouts", "batches"] as const,
    /** The payouts one upload made (their payees, for its results). */
    upload: (env: Environment, uploadId: string) => [env, "payouts", "upload", uploadId] as const,
  },

  beneficiaries: {
    all: (env: Environment) => [env, "beneficiaries"] as const,
    list: (env: Environment, filters: KeyFilters, cursor: string | null) =>
      [env, "beneficiaries", "list", filters, cursor] as const,
    /** The Beneficiaries a new payout can go to. */
    ready: (env: Environment) => [env, "beneficiaries", "ready"] as const,
    /** Everything about one Beneficiary (its detail and destinations): the prefix to invalidate after a change. */
    one: (env: Environment, beneficiaryId: string) => [env, "beneficiaries", beneficiaryId] as const,
    detail: (env: Environment, beneficiaryId: string) => [env, "beneficiaries", beneficiaryId, "detail"] as const,
    destinations: (env: Environment, beneficiaryId: string) => [env, "beneficiaries", beneficiaryId, "destinations"] as const,
  },

  bankRails: {
    /** The prefix of the rails and of both file lists. */
    all: (env: Environment) => [env, "bank-rails"] as const,
    list: (env: Environment) => [env, "bank-rails", "rails"] as const,
    files: (env: Environment, cursor: string | null) => [env, "bank-rails", "files", cursor] as const,
    file: (env: Environment, id: string) => [env, "bank-rails", "file", id] as const,
    inboundFiles: (env: Environment, cursor: string | null) => [env, "bank-rails", "inbound-files", cursor] as const,
  },
  funding: {
    /** Every funding account read (the list, each account's transfers): a posting changes them together. */
    all: (env: Environment) => [env, "funding-accounts"] as const,
    list: (env: Environment) => [env, "funding-accounts", "list"] as const,
    transfers: (env: Environment, accountId: string, cursor: string | null) =>
      [env, "funding-accounts", "transfers", accountId, cursor] as const,
  },
  topUps: {
    all: (env: Environment) => [env, "top-ups"] as const,
    list: (env: Environment, filters: KeyFilters, cursor: string | null) => [env, "top-ups", "list", filters, cursor] as const,
  },

  reconciliation: {
    /** Statements and their lines: a match, an ignore or an upload changes both (a statement counts its lines). */
    all: (env: Environment) => [env, "reconciliation"] as const,
    statements: (env: Environment, pageSize: number, cursor: string | null) =>
      [env, "reconciliation", "statements", pageSize, cursor] as const,
    lines: (env: Environment, filters: KeyFilters, cursor: string | null) =>
      [env, "reconciliation", "lines", filters, cursor] as const,
    /** The statements whose balance check differs (the Mismatches tab and its count). */
    mismatches: (env: Environment) => [env, "reconciliation", "mismatches"] as const,
  },

  /**
   * GET /v1/screening-hits: sanctions screening hits. A decision changes the hits and the Beneficiary (its
   * `screening_status`), so it invalidates this and `beneficiaries.all` together.
   */
  screening: {
    all: (env: Environment) => [env, "screening-hits"] as const,
    list: (env: Environment, filters: KeyFilters, cursor: string | null) =>
      [env, "screening-hits", "list", filters, cursor] as const,
  },

  /** GET /v1/destination-policy: approval of bank details, cooling-off, name check, screening. */
  destinationPolicy: (env: Environment) => [env, "destination-policy"] as const,
  /** GET /v1/bank-account-approvals: bank details waiting for a second person. Under beneficiaries: a decision refreshes both. */
  bankAccountApprovals: (env: Environment) => [env, "beneficiaries", "bank-account-approvals"] as const,
  approvalPolicy: (env: Environment) => [env, "approval-policy"] as const,
  securitySettings: (env: Environment) => [env, "security-settings"] as const,
  branding: (env: Environment) => [env, "branding"] as const,
  auditLog: {
    all: (env: Environment) => [env, "audit-records"] as const,
    list: (env: Environment, filters: KeyFilters, zone: string, cursor: string | null) =>
      [env, "audit-records", filters, zone, cursor] as const,
  },
} as const;
