// How a module records a security-relevant act of its request's actor in the audit log (owned by the
// people module, which provides the function through app.ts). Called inside the act's own transaction.
import type { Db } from "../db/client.js";
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

export type RecordActorAudit = (tx: Db, actor: Actor | NoActor, act: AuditedAct) => Promise<void>;

/** For a module built without an audit log (tests of the module alone). */
export const noAudit: RecordActorAudit = async () => {};
