import type { SessionAuthenticator } from "../../platform/auth/session.js";
import { jobHandler } from "../../platform/jobs/job-definition.js";
import { defineModule, type PlatformServices } from "../../platform/modules/module-definition.js";
import { createPasswordHasher } from "../../platform/password-hasher.js";
import { createPasswordPolicy } from "../registration/index.js";
import { peopleRouteRoles } from "./people.access.js";
import { createControlAlerts, createControlChangeNotice } from "./people.alerts.js";
import { createAuditRecorder } from "./people.audit.js";
import { PEOPLE_ERRORS } from "./people.errors.js";
import { createSessionExpiry } from "./people.expiry.js";
import { PASSWORD_RESET_REQUEST_JOB, SESSION_SWEEP_JOB } from "./people.jobs.js";
import type { PeoplePorts } from "./people.ports.js";
import { createPasswordResetRequestHandler } from "./people.reset.js";
import { registerPeopleRoutes } from "./people.routes.js";
import { SessionSchema } from "./people.schemas.js";
import { createPeopleService, type SessionSettings } from "./people.service.js";
import { createTeamService } from "./people.team.js";

export type { AuditAction, AuditRecorder, RecordActorAudit } from "./people.audit.js";
export { PASSWORD_RESET_REQUEST_JOB, SESSION_SWEEP_JOB } from "./people.jobs.js";
export type { PeoplePorts } from "./people.ports.js";
/** For the retention sweep (src/worker/retention.ts). */
export {
  pruneEndedSessions,
  pruneExpiredInvitations,
  pruneExpiredPasswordResets,
  pruneSignInFailures,
} from "./people.retention.js";
export type { SessionSettings } from "./people.service.js";
/**
 * The audit log every module records through (inside its own transactions). Built by the composition root before
 * the modules: api-keys records through it and the people module revokes keys through api-keys, so it cannot
 * come out of definePeople. It holds no state (a clock and ids).
 */
export { createAuditRecorder };

export interface PeopleSettings {
  /** The audit recorder (createAuditRecorder, built by the composition root: see its export above). */
  readonly audit: ReturnType<typeof createAuditRecorder>;
  /** PUBLIC_BASE_URL: the links of invitations, resets and alerts. */
  readonly publicBaseUrl: string;
  readonly sessions: SessionSettings;
}

/**
 * People: sign-in and sessions, step-up, passwords and resets, two-factor, the team and its security settings,
 * the audit log's API, and their jobs (the session sweep, password-reset requests answered off the request path).
 */
export function definePeople(platform: PlatformServices, settings: PeopleSettings, ports: PeoplePorts) {
  const { db, clock, ids, cipher, jobStore } = platform;
  const { audit } = settings;
  // One password rule for registration, invitations, resets and changes (offered to registration).
  const passwordPolicy = createPasswordPolicy();
  // Passwords are hashed on a few low-priority threads (half the cores, started on first use), so sign-ins
  // cannot slow the API down; they end with the process.
  const passwordHasher = createPasswordHasher();
  // Weakened controls: refused to API keys, recorded, and e-mailed to every admin (people.alerts.ts). Offered to
  // the payouts and bank-rails modules, and used by the team's security settings.
  const reportWeakenedControl = createControlAlerts({
    ids,
    audit: audit.record,
    mail: ports.mail,
    publicBaseUrl: settings.publicBaseUrl,
  });
  const people = createPeopleService({
    db,
    clock,
    ids,
    cipher,
    settings: settings.sessions,
    passwordPolicy,
    audit: audit.record,
    deriveKey: passwordHasher.deriveKey,
    jobStore,
  });
  const team = createTeamService({
    db,
    clock,
    ids,
    mail: ports.mail,
    publicBaseUrl: settings.publicBaseUrl,
    passwordPolicy,
    audit: audit.record,
    hashPassword: people.hashPassword,
    revokeKeysOfRemovedMember: ports.revokeKeysOfRemovedMember,
    reportWeakenedControl,
  });
  const cookie = {
    // `__Host-` binds the cookie to this exact origin (Secure, Path=/, no Domain), which only HTTPS allows.
    name: settings.sessions.secureCookie ? "__Host-session" : "session",
    secure: settings.sessions.secureCookie,
    maxAgeSeconds: Math.round(settings.sessions.absoluteMs / 1000),
  };
  const sessions: SessionAuthenticator = {
    cookieName: cookie.name,
    authenticate: people.authenticateSession,
    csrfTokenMatches: people.csrfTokenMatches,
  };
  const expiry = createSessionExpiry({ db, clock, audit: audit.record, jobStore, idleMs: settings.sessions.idleMs });
  return defineModule({
    name: "people",
    routeRoles: peopleRouteRoles,
    errorCodes: PEOPLE_ERRORS,
    registerRoutes: (app) => registerPeopleRoutes(app, { people, team, cookie }),
    sharedSchemas: [SessionSchema],
    jobs: {
      definitions: [SESSION_SWEEP_JOB, PASSWORD_RESET_REQUEST_JOB],
      handlers: {
        ...jobHandler(SESSION_SWEEP_JOB, async (_payload, context) => {
          await expiry.sweepExpiredSessions((tx) => context.completeWithin(tx));
        }),
        // Password-reset requests are answered here (off the request path) and queue their e-mail.
        ...createPasswordResetRequestHandler({
          db,
          clock,
          ids,
          cipher,
          mail: ports.mail,
          publicBaseUrl: settings.publicBaseUrl,
          audit: audit.record,
        }),
      },
    },
    onClose: () => passwordHasher.close(),
    offers: {
      /** For every module: security-relevant acts recorded inside the caller's transaction. */
      recordAudit: audit.recordForActor,
      passwordPolicy,
      /** For payouts and bank-rails: a weakened control is refused to keys, recorded and e-mailed to admins. */
      reportWeakenedControl,
      /** For control-changes: a weakening waiting for a second admin is refused to keys, recorded and e-mailed to admins. */
      notifyControlChangeProposed: createControlChangeNotice({
        audit: audit.record,
        mail: ports.mail,
        publicBaseUrl: settings.publicBaseUrl,
      }),
      /** For the access hook (app.ts): the session behind a request's cookie. */
      sessions,
    },
  });
}

export { PEOPLE_ERRORS, peopleRouteRoles };
