// Retention of the people module's spent rows, for the retention sweep (src/worker/retention.ts). Each function
// deletes up to `limit` rows in one transaction and answers how many.
//  - Invitations and password resets: once expired, a token is refused like an unknown one (one answer for
//    unknown, expired and used), the listing shows open invitations only, and the audit log copies what it
//    records (address, role), so an expired row holds only an address and a hash nobody reads.
//  - Sessions that ended: the person's session list shows live ones only and audit records copy the actor;
//    the member list's "last sign-in" reads the person's newest completed sign-in, which is always kept.
//  - Failed sign-ins: read only within the throttling window; each attempt already forgets the old failures of
//    its own address and e-mail, and the sweep forgets those of addresses and e-mails never seen again.
import { type Db, transaction } from "../../platform/db/client.js";
import {
  deleteEndedSessionsBefore,
  deleteInvitationsExpiredBefore,
  deletePasswordResetsExpiredBefore,
  deleteSignInFailuresBefore,
} from "./people.repo.js";

export function pruneEndedSessions(db: Db, before: Date, limit: number): Promise<number> {
  return transaction(db, (tx) => deleteEndedSessionsBefore(tx, before, limit));
}

export function pruneExpiredInvitations(db: Db, before: Date, limit: number): Promise<number> {
  return transaction(db, (tx) => deleteInvitationsExpiredBefore(tx, before, limit));
}

export function pruneExpiredPasswordResets(db: Db, before: Date, limit: number): Promise<number> {
  return transaction(db, (tx) => deletePasswordResetsExpiredBefore(tx, before, limit));
}

export function pruneSignInFailures(db: Db, before: Date, limit: number): Promise<number> {
  return transaction(db, (tx) => deleteSignInFailuresBefore(tx, before, limit));
}
