// How a module records a security-relevant act of its request's actor in the audit log (owned by the
// people module, which provides the function through src/composition.ts). Called inside the act's own transaction.
import type { Tx } from "../db/client.js";
import type { Actor, Tenant } from "./actor.js";

export interface AuditedAct {
  /** One of the people module's audit actions, e.g. `api_key_created`. */
  readonly action: string;
  readonly subjectType: string;
  readonly subjectId: string;
  readonly details?: Record<string, unknown>;
  /** The act concerns the whole Business, not the request's environment: recorded with environment null. */
  readonly businessWide?: true;
}

/**
 * An act no person or key did: a Beneficiary's submission through a hosted collection link (the link is the
 * only credential). Recorded with every actor field null; the act's details say which link.
 */
export interface NoActor extends Tenant {
  readonly userId: null;
  readonly membershipId: null;
  readonly role: null;
  readonly apiKeyId: null;
  readonly sessionId: null;
}

export function noActor(tenant: Tenant): NoActor {
  return { ...tenant, userId: null, membershipId: null, role: null, apiKeyId: null, sessionId: null };
}

export type RecordActorAudit = (tx: Tx, actor: Actor | NoActor, act: AuditedAct) => Promise<void>;

/** For a module built without an audit log (tests of the module alone). */
export const noAudit: RecordActorAudit = async () => {};

/** The controls whose weakening is refused to API keys, recorded and e-mailed to every admin (issue 24). */
export type WeakenedControl =
  | "maker_checker"
  | "approval_rules"
  | "two_factor_requirement"
  | "bank_rail_delivery_target"
  | "funding_enforcement"
  | "payout_limits"
  | "destination_policy";

export interface ControlWeakening {
  readonly control: WeakenedControl;
  readonly subjectType: string;
  readonly subjectId: string;
  /** One sentence for the admins' e-mail, saying what changed (never a secret). */
  readonly summary: string;
  readonly details?: Record<string, unknown>;
  /** The control is the Business's, not the request environment's (the two-factor requirement). */
  readonly businessWide?: true;
}

/**
 * Called by a use case, inside its transaction, when the act weakens a control: refuses an API key (403
 * CONTROL_WEAKENING_NEEDS_PERSON: only a person, through a session confirmed within the step-up window, may
 * weaken a control), records `control_weakened` and e-mails every admin of the Business. Required wherever a
 * control can be weakened: a missing one must not silently let the act through unheard.
 */
export type ReportWeakenedControl = (tx: Tx, actor: Actor, weakening: ControlWeakening) => Promise<void>;

/**
 * A weakening handed to the control-changes module by the control's owner (issue 29): `kind` names the owner's
 * applier, `base` is the control's value now (the change applies only while it is still so), `proposed` the value
 * the change sets, in the owner's request shape. Both are JSON.
 */
export interface ControlChangeProposal extends ControlWeakening {
  readonly kind: string;
  readonly base: unknown;
  readonly proposed: unknown;
}

/** A pending control change as the API answers it (the control-changes module's `ControlChange`). */
export interface PendingControlChange {
  readonly id: string;
  readonly status: string;
  readonly [field: string]: unknown;
}

/**
 * Called by the owner of a control, inside its transaction, when a change weakens it. With maker-checker on (the
 * environment's approval policy) the change is stored as pending and returned: the owner answers 202 with it and
 * applies nothing. Otherwise it is reported as weakened at once (ReportWeakenedControl: refused to keys, recorded,
 * e-mailed) and null is returned: the owner applies it. Either way an API key is refused.
 */
export type GuardWeakening = (tx: Tx, actor: Actor, proposal: ControlChangeProposal) => Promise<PendingControlChange | null>;

/**
 * The owner's side of an approved change: applies `proposed` in the approval's transaction, as the approving
 * actor, with the owner's own audit entry; answers "stale" (and changes nothing) when the control is no longer
 * `base`.
 */
export type ControlChangeApplier = (
  tx: Tx,
  actor: Actor,
  change: { readonly subjectId: string; readonly base: unknown; readonly proposed: unknown },
) => Promise<"applied" | "stale">;
