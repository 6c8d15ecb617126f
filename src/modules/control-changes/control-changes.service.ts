// Four eyes on weakening a control (issue 29). The owner of a control hands a weakening here (guardWeakening) in
// its own transaction: with maker-checker on, the change is stored pending (superseding an older one for the same
// control), admins are told, and the owner answers 202; otherwise it is reported as weakened and the owner applies
// it at once. A second admin's approval locks the change, checks the approver is another person, hands the change
// back to the owner's applier (which applies it only if the control is still what it was) and reports the
// weakening, all in one transaction.
import type { Actor, Tenant } from "../../platform/auth/actor.js";
import { tenantOf } from "../../platform/auth/actor.js";
import type { ControlChangeProposal, GuardWeakening, WeakenedControl } from "../../platform/auth/audit.js";
import { isSameMaker } from "../../platform/auth/maker-checker.js";
import type { Clock } from "../../platform/clock.js";
import { type Db, type Tx, transaction } from "../../platform/db/client.js";
import { AppError } from "../../platform/errors.js";
import type { IdGenerator } from "../../platform/ids.js";
import { decodeCursor, toPage } from "../../platform/pagination/cursor.js";
import { CONTROL_CHANGE_ERRORS } from "./control-changes.errors.js";
import type { ControlChangesPorts } from "./control-changes.ports.js";
import {
  type ControlChangeRow,
  decideControlChange,
  findControlChange,
  insertControlChange,
  listControlChanges,
  lockControlChange,
  supersedePending,
} from "./control-changes.repo.js";
import type { ControlChangeBody, ControlChangeListQuery } from "./control-changes.schemas.js";

export function presentControlChange(row: ControlChangeRow): ControlChangeBody {
  return {
    id: row.id,
    object: "control_change",
    kind: row.kind,
    subject_id: row.subjectId,
    control: row.control,
    summary: row.summary,
    base: row.base,
    proposed: row.proposed,
    status: row.status,
    proposed_by: {
      api_key_id: row.proposedByApiKeyId,
      membership_id: row.proposedByMembershipId,
      user_id: row.proposedByUserId,
    },
    decided_by:
      row.decidedAt === null || row.status === "superseded"
        ? null
        : { api_key_id: row.decidedByApiKeyId, membership_id: row.decidedByMembershipId, user_id: row.decidedByUserId },
    decided_at: row.decidedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

const notFound = () => new AppError("not_found", { message: "No such control change." });

export function createControlChangeService(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly ports: ControlChangesPorts;
}) {
  const { db, clock, ids, ports } = deps;

  const guardWeakening: GuardWeakening = async (tx, actor, proposal: ControlChangeProposal) => {
    const tenant = tenantOf(actor);
    if (!(await ports.makerCheckerOn(tx, tenant))) {
      await ports.reportWeakenedControl(tx, actor, proposal);
      return null;
    }
    if (ports.appliers[proposal.kind] === undefined) throw new Error(`no applier for control changes of kind ${proposal.kind}`);
    const now = clock.now();
    await supersedePending(tx, tenant, proposal.kind, proposal.subjectId, now);
    const row = await insertControlChange(tx, {
      id: ids.newId(),
      businessId: tenant.businessId,
      environment: tenant.environment,
      kind: proposal.kind,
      subjectId: proposal.subjectId,
      control: proposal.control,
      summary: proposal.summary,
      base: proposal.base ?? null,
      proposed: proposal.proposed ?? null,
      status: "pending",
      proposedByApiKeyId: actor.apiKeyId,
      proposedByMembershipId: actor.membershipId,
      proposedByUserId: actor.userId,
      createdAt: now,
    });
    // Refuses an API key (a proposal of a weakening needs a person, like the weakening itself), records it and
    // e-mails every admin.
    await ports.notifyControlChangeProposed(tx, actor, { ...proposal, changeId: row.id });
    return presentControlChange(row);
  };

  async function list(actor: Actor, query: ControlChangeListQuery) {
    const limit = query.limit ?? 50;
    const rows = await listControlChanges(db, tenantOf(actor), query.status, decodeCursor(query.cursor), limit + 1);
    const page = toPage(rows, limit);
    return { control_changes: page.items.map(presentControlChange), next_cursor: page.nextCursor };
  }

  async function get(actor: Actor, id: string): Promise<ControlChangeBody> {
    const row = await findControlChange(db, tenantOf(actor), id);
    if (row === null) throw notFound();
    return presentControlChange(row);
  }

  function notPending(row: ControlChangeRow): AppError {
    return new AppError(CONTROL_CHANGE_ERRORS.CONTROL_CHANGE_NOT_PENDING, {
      message: `The control change is ${row.status}.`,
    });
  }

  async function approve(actor: Actor, id: string): Promise<ControlChangeBody> {
    const tenant = tenantOf(actor);
    const decided = await transaction(db, async (tx) => {
      const row = await lockControlChange(tx, tenant, id);
      if (row === null) throw notFound();
      if (row.status !== "pending") throw notPending(row);
      const proposer = {
        apiKeyId: row.proposedByApiKeyId,
        membershipId: row.proposedByMembershipId,
        userId: row.proposedByUserId,
      };
      if (isSameMaker(proposer, actor)) throw new AppError(CONTROL_CHANGE_ERRORS.CONTROL_CHANGE_SAME_PERSON);
      const applier = ports.appliers[row.kind];
      if (applier === undefined) throw new Error(`no applier for control changes of kind ${row.kind}`);
      // Refuses an API key, records `control_weakened` (by the approver) and e-mails every admin.
      await ports.reportWeakenedControl(tx, actor, {
        control: row.control as WeakenedControl,
        subjectType: row.kind,
        subjectId: row.subjectId,
        summary: `${row.summary} Approved by a second admin (control change ${row.id}).`,
        details: { control_change_id: row.id },
      });
      const applied = await applier(tx, actor, { subjectId: row.subjectId, base: row.base, proposed: row.proposed });
      if (applied === "stale") throw new AppError(CONTROL_CHANGE_ERRORS.CONTROL_CHANGE_STALE);
      return close(tx, tenant, actor, row, "approved");
    });
    return presentControlChange(decided);
  }

  /** Records the decision on the locked pending change, and its audit entry, in the deciding transaction. */
  async function close(tx: Tx, tenant: Tenant, actor: Actor, row: ControlChangeRow, status: "approved" | "discarded") {
    const after = await decideControlChange(tx, tenant, row.id, {
      status,
      decidedAt: clock.now(),
      decidedByApiKeyId: actor.apiKeyId,
      decidedByMembershipId: actor.membershipId,
      decidedByUserId: actor.userId,
    });
    if (after === null) throw new Error("a locked control change changed under its lock");
    await ports.recordAudit(tx, actor, {
      action: status === "approved" ? "control_change_approved" : "control_change_discarded",
      subjectType: "control_change",
      subjectId: row.id,
      details: { kind: row.kind, subject_id: row.subjectId, control: row.control },
    });
    return after;
  }

  /** Any admin may discard a pending change, its proposer included (a withdrawal). Nothing is applied. */
  async function discard(actor: Actor, id: string): Promise<ControlChangeBody> {
    const tenant = tenantOf(actor);
    const decided = await transaction(db, async (tx) => {
      const row = await lockControlChange(tx, tenant, id);
      if (row === null) throw notFound();
      if (row.status !== "pending") throw notPending(row);
      return close(tx, tenant, actor, row, "discarded");
    });
    return presentControlChange(decided);
  }

  return { guardWeakening, list, get, approve, discard };
}

export type ControlChangeService = ReturnType<typeof createControlChangeService>;
