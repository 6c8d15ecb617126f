// Dashboard sessions in tests: sign in through the API, keep the cookie and the CSRF token, and build the
// headers a browser (the dashboard) would send. Also invitations: invite, read the token from the e-mail,
// accept, so a Business gets members of each role the way an admin would add them.
import type { LightMyRequestResponse } from "fastify";
import * as OTPAuth from "otpauth";
import { PASSWORD_RESET_REQUEST_JOB } from "../../src/modules/people/index.js";
import type { AppInstance } from "../../src/platform/http/types.js";
import { createWorker } from "../../src/platform/jobs/worker.js";
import { bearer } from "./factories.js";
import { queuedMails } from "./queued-mail.js";
import { testAppOf } from "./test-app.js";

/** The password registerBusiness() registers with. */
export const REGISTRATION_PASSWORD = "correct horse battery staple";
/** A password the NIST-style rule accepts, for invitations and resets. */
export const STRONG_PASSWORD = "violet-tugboat-anchors-midnight-7";

export interface SignedIn {
  readonly cookieName: string;
  readonly secret: string;
  readonly csrf: string;
  readonly body: SessionResponse;
}

export interface SessionResponse {
  session: {
    id: string;
    next_step: null | "two_factor" | "two_factor_enrolment";
    created_at: string;
    expires_at: string;
    confirmed_at: string;
  };
  csrf_token: string;
  user: { id: string; email: string; two_factor_enabled: boolean };
  membership: { id: string; business_id: string; role: string };
  memberships: { id: string; business_id: string; role: string }[];
  recovery_codes?: string[];
}

/** The session cookie a response set (name and value), or null. */
export function sessionCookieOf(response: LightMyRequestResponse): { name: string; value: string; raw: string } | null {
  const header = response.headers["set-cookie"];
  const all = header === undefined ? [] : Array.isArray(header) ? header : [header];
  for (const raw of all) {
    const match = /^((?:__Host-)?session)=([^;]*)/.exec(raw);
    if (match?.[1] !== undefined && match[2] !== undefined) return { name: match[1], value: match[2], raw };
  }
  return null;
}

export function signedInFrom(response: LightMyRequestResponse): SignedIn {
  const cookie = sessionCookieOf(response);
  if (cookie === null) throw new Error(`no session cookie: ${response.statusCode} ${response.body}`);
  const body = response.json() as SessionResponse;
  return { cookieName: cookie.name, secret: cookie.value, csrf: body.csrf_token, body };
}

export async function signIn(
  app: AppInstance,
  email: string,
  password = REGISTRATION_PASSWORD,
  extra: Record<string, unknown> = {},
): Promise<SignedIn> {
  const response = await app.inject({ method: "POST", url: "/v1/session", payload: { email, password, ...extra } });
  if (response.statusCode !== 201) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return signedInFrom(response);
}

/** What the dashboard sends: the cookie, the environment and the CSRF token. */
export function sessionHeaders(
  s: Pick<SignedIn, "cookieName" | "secret" | "csrf">,
  environment: "sandbox" | "production" | null = "sandbox",
): Record<string, string> {
  return {
    cookie: `${s.cookieName}=${s.secret}`,
    "x-csrf-token": s.csrf,
    "sec-fetch-site": "same-origin",
    ...(environment === null ? {} : { "x-environment": environment }),
  };
}

/**
 * The headers of a fresh dashboard session of `email` (just signed in, so within the step-up window): for acts
 * only a person may do, such as weakening a control (an API key gets 403 CONTROL_WEAKENING_NEEDS_PERSON).
 */
export async function asPerson(
  app: AppInstance,
  email: string,
  environment: "sandbox" | "production" = "sandbox",
  password = REGISTRATION_PASSWORD,
): Promise<Record<string, string>> {
  return sessionHeaders(await signIn(app, email, password), environment);
}

/** The invitation token of the newest invitation e-mail to `email`. */
export async function invitationTokenFor(app: AppInstance, email: string): Promise<string> {
  const mails = (await queuedMails(testAppOf(app), email)).filter((mail) => mail.idempotency_key.startsWith("invitation:"));
  const text = mails[mails.length - 1]?.text ?? "";
  const match = /\n\s+([A-Za-z0-9_-]{43})\n/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no invitation e-mail for ${email}`);
  return match[1];
}

/**
 * Answers the password-reset requests waiting (the worker's part: look the address up, create the token,
 * queue its e-mail), running only that job type so the test's other queued jobs and mail stay as they are.
 */
export async function answerPasswordResetRequests(app: AppInstance): Promise<number> {
  const t = testAppOf(app);
  const handler = t.runtime.handlers[PASSWORD_RESET_REQUEST_JOB.type];
  if (handler === undefined) throw new Error("no password-reset request handler");
  return createWorker({
    store: t.runtime.deps.jobStore,
    handlers: { [PASSWORD_RESET_REQUEST_JOB.type]: handler },
    clock: t.clock,
    logger: t.app.log,
    workerId: `password-resets-${Math.random().toString(36).slice(2, 8)}`,
    concurrency: 1,
    pollIntervalMs: 1000,
    leaseMs: 30_000,
  }).drain();
}

/** The reset token of the newest reset e-mail to `email`, once the waiting reset requests are answered. */
export async function resetTokenFor(app: AppInstance, email: string): Promise<string | null> {
  await answerPasswordResetRequests(app);
  const mails = (await queuedMails(testAppOf(app), email)).filter((mail) => mail.idempotency_key.startsWith("password-reset:"));
  const text = mails[mails.length - 1]?.text ?? "";
  return /\n\s+([A-Za-z0-9_-]{43})\n/.exec(text)?.[1] ?? null;
}

let invited = 0;

/** Invites a new person with `role` using an admin key, accepts, and answers the new member's address and ids. */
export async function addMember(
  app: AppInstance,
  adminKey: string,
  role: "business_admin" | "business_approver" | "business_read_only",
  email = `member-${process.pid}-${++invited}-${Math.random().toString(36).slice(2, 8)}@example.com`,
): Promise<{ email: string; membershipId: string; userId: string }> {
  const invite = await app.inject({
    method: "POST",
    url: "/v1/invitations",
    headers: bearer(adminKey),
    payload: { email, role },
  });
  if (invite.statusCode !== 201) throw new Error(`invitation failed: ${invite.statusCode} ${invite.body}`);
  const token = await invitationTokenFor(app, email);
  const accepted = await app.inject({
    method: "POST",
    url: "/v1/invitations/acceptance",
    payload: { token, password: STRONG_PASSWORD },
  });
  if (accepted.statusCode !== 201) throw new Error(`acceptance failed: ${accepted.statusCode} ${accepted.body}`);
  const body = accepted.json() as { membership: { id: string }; user: { id: string } };
  return { email, membershipId: body.membership.id, userId: body.user.id };
}

/** The TOTP code an authenticator app shows at `at` for a base32 secret. */
export function totpCode(secret: string, at: Date): string {
  return OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at.getTime() });
}
