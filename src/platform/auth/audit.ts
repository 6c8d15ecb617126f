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
