import type { SessionAuthenticator } from "../../platform/auth/session.js";
import type { Clock } from "../../platform/clock.js";
import type { DeriveKey, FieldCipher } from "../../platform/crypto.js";
import type { Db } from "../../platform/db/client.js";
import type { AppInstance } from "../../platform/http/types.js";
import type { IdGenerator } from "../../platform/ids.js";
import { jobHandler } from "../../platform/jobs/job-definition.js";
import type { JobStore } from "../../platform/jobs/job-store.js";
import type { JobHandlers } from "../../platform/jobs/worker.js";
import type { MailOutbox } from "../emails/index.js";
import { createControlAlerts } from "./people.alerts.js";
import { createAuditRecorder } from "./people.audit.js";
import { createSessionExpiry } from "./people.expiry.js";
import { SESSION_SWEEP_JOB } from "./people.jobs.js";
import { createPasswordPolicy, type PasswordPolicy } from "./people.password.js";
import { createPasswordResetRequestHandler } from "./people.reset.js";
import { registerPeopleRoutes } from "./people.routes.js";
import { SessionSchema } from "./people.schemas.js";
import { createPeopleService, type SessionSettings } from "./people.service.js";
import { createTeamService, type TeamServiceDeps } from "./people.team.js";

export { peopleRouteRoles } from "./people.access.js";
export type { AuditAction, AuditRecorder, RecordActorAudit } from "./people.audit.js";
export { PEOPLE_ERRORS } from "./people.errors.js";
export { PASSWORD_RESET_REQUEST_JOB, SESSION_SWEEP_JOB } from "./people.jobs.js";
export { createPasswordPolicy, type PasswordPolicy } from "./people.password.js";
/** For the retention sweep (src/worker/retention.ts). */
export {
  pruneEndedSessions,
  pruneExpiredInvitations,
  pruneExpiredPasswordResets,
  pruneSignInFailures,
} from "./people.retention.js";
export type { SessionSettings } from "./people.service.js";
export { createAuditRecorder };

export type PeopleModule = ReturnType<typeof createPeopleModule>;

/** The people module's job handlers (the worker runs them): the session sweep and password-reset requests. */
export function createPeopleJobHandlers(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  cipher: FieldCipher;
  mail: Pick<MailOutbox, "sendPlatformMail">;
  publicBaseUrl: string;
  jobStore: Pick<JobStore, "enqueue">;
  idleMs: number;
}): JobHandlers {
  const audit = createAuditRecorder({ clock: deps.clock, ids: deps.ids }).record;
  const expiry = createSessionExpiry({
    db: deps.db,
    clock: deps.clock,
    audit,
    jobStore: deps.jobStore,
    idleMs: deps.idleMs,
  });
  return {
    ...jobHandler(SESSION_SWEEP_JOB, async (_payload, context) => {
      await expiry.sweepExpiredSessions((tx) => context.completeWithin(tx));
    }),
    ...createPasswordResetRequestHandler({ ...deps, audit }),
  };
}

export function createPeopleModule(deps: {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  cipher: FieldCipher;
  mail: Pick<MailOutbox, "sendPlatformMail">;
  publicBaseUrl: string;
  settings: SessionSettings;
  audit: ReturnType<typeof createAuditRecorder>;
  passwordPolicy?: PasswordPolicy;
  deriveKey: DeriveKey;
  jobStore: Pick<JobStore, "enqueue">;
  /** The api-keys module's revocation of a removed member's keys (see TeamServiceDeps). */
  revokeKeysOfRemovedMember: TeamServiceDeps["revokeKeysOfRemovedMember"];
}) {
  const passwordPolicy = deps.passwordPolicy ?? createPasswordPolicy();
  // Weakened controls: refused to API keys, recorded, and e-mailed to every admin (people.alerts.ts). Given to
  // the payouts and bank-rails modules in app.ts, and used by the team's security settings.
  const reportWeakenedControl = createControlAlerts({
    ids: deps.ids,
    audit: deps.audit.record,
    mail: deps.mail,
    publicBaseUrl: deps.publicBaseUrl,
  });
  const people = createPeopleService({
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    cipher: deps.cipher,
    settings: deps.settings,
    passwordPolicy,
    audit: deps.audit.record,
    deriveKey: deps.deriveKey,
    jobStore: deps.jobStore,
  });
  const team = createTeamService({
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    mail: deps.mail,
    publicBaseUrl: deps.publicBaseUrl,
    passwordPolicy,
    audit: deps.audit.record,
    hashPassword: people.hashPassword,
    revokeKeysOfRemovedMember: deps.revokeKeysOfRemovedMember,
    reportWeakenedControl,
  });
  const cookie = {
    // `__Host-` binds the cookie to this exact origin (Secure, Path=/, no Domain), which only HTTPS allows.
    name: deps.settings.secureCookie ? "__Host-session" : "session",
    secure: deps.settings.secureCookie,
    maxAgeSeconds: Math.round(deps.settings.absoluteMs / 1000),
  };
  const sessions: SessionAuthenticator = {
    cookieName: cookie.name,
    authenticate: people.authenticateSession,
    csrfTokenMatches: people.csrfTokenMatches,
  };
  return {
    people,
    team,
    sessions,
    passwordPolicy,
    reportWeakenedControl,
    sharedSchemas: [SessionSchema],
    registerRoutes: (app: AppInstance) => registerPeopleRoutes(app, { people, team, cookie }),
  };
}
