// HTTP of the people module: sign-in and the session, passwords, two-factor, the team, the security
// settings and the audit log. The session cookie is set and cleared here (HTTP only).

import { Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.js";
import { refuseCrossSite } from "../../platform/http/access-hook.js";
import { requireActor } from "../../platform/http/require-actor.js";
import { routeResponses } from "../../platform/http/route-responses.js";
import type { AppInstance } from "../../platform/http/types.js";
import { REGISTRATION_ERRORS } from "../registration/registration.errors.js";
import { PEOPLE_ERRORS } from "./people.errors.js";
import {
  AcceptedInvitationSchema,
  AcceptInvitationBodySchema,
  AuditListSchema,
  AuditQuerySchema,
  ChangedMemberSchema,
  ChangePasswordBodySchema,
  ChangeRoleBodySchema,
  InvitationListSchema,
  InvitationParamsSchema,
  InvitationSchema,
  InviteBodySchema,
  MemberListSchema,
  MembershipParamsSchema,
  MySessionListSchema,
  MySessionParamsSchema,
  PasswordResetConfirmationSchema,
  PasswordResetRequestSchema,
  ProofBodySchema,
  RecoveryCodesSchema,
  SecondFactorBodySchema,
  SecuritySettingsSchema,
  SignedOutEverywhereSchema,
  SignInBodySchema,
  SwitchBusinessBodySchema,
  TwoFactorCodeBodySchema,
  TwoFactorDisableBodySchema,
  TwoFactorEnabledSchema,
  TwoFactorEnrolmentSchema,
} from "./people.schemas.js";
import type { PeopleService, RequestOrigin } from "./people.service.js";
import type { TeamService } from "./people.team.js";

export interface SessionCookie {
  readonly name: string;
  readonly secure: boolean;
  readonly maxAgeSeconds: number;
}

function origin(request: FastifyRequest): RequestOrigin {
  const agent = request.headers["user-agent"];
  return { clientAddress: request.ip, userAgent: typeof agent === "string" ? agent : null };
}

function principalOf(request: FastifyRequest) {
  if (request.session === null) throw new AppError("SESSION_REQUIRED");
  return request.session;
}

export function registerPeopleRoutes(
  app: AppInstance,
  deps: { people: PeopleService; team: TeamService; cookie: SessionCookie },
): void {
  const { people, team, cookie } = deps;
  const attributes = { httpOnly: true, sameSite: "lax", secure: cookie.secure, path: "/" } as const;
  const setCookie = (reply: FastifyReply, secret: string) =>
    reply.setCookie(cookie.name, secret, { ...attributes, maxAge: cookie.maxAgeSeconds });
  const clearCookie = (reply: FastifyReply) => reply.clearCookie(cookie.name, attributes);
  const sessionTags = ["Sign-in and sessions"];
  const sessionRef = Type.Ref("Session");
  const teamTags = ["Team"];
  const pendingOk = { allowTwoFactorPending: true };
  // Every /v1/session answer carries the CSRF token or says who is signed in: never kept by a browser's or a
  // proxy's cache (set as a route hook, so it applies to errors and refusals of these routes too).
  const noStore = {
    onSend: async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      reply.header("cache-control", "no-store");
      return payload;
    },
  };

  app.post(
    "/v1/session",
    {
      ...noStore,
      config: { rateLimit: "none" },
      schema: {
        tags: sessionTags,
        operationId: "signIn",
        summary: "Sign in",
        description:
          "Signs a person in with the e-mail and password of their account and sets the session cookie (`__Host-session` when PUBLIC_BASE_URL is HTTPS, Secure; `session` otherwise; always HttpOnly, SameSite=Lax, Path=/). A new session id every time. The body holds `csrf_token` for `X-CSRF-Token`; every `/v1/session` answer is `Cache-Control: no-store`. A wrong password and an unknown address get the same 401 `INVALID_CREDENTIALS`, in about the same time. Failed sign-ins are throttled per address and per client address (429 `SIGN_IN_THROTTLED` with Retry-After): each attempt takes its place in the count atomically before the password is checked, so concurrent attempts cannot exceed the limit, and a right password gives it back. A person with two-factor authentication gets a session whose `next_step` is `two_factor`: it serves nothing but `POST /v1/session/two-factor` until then. Cross-site requests are refused (`Sec-Fetch-Site`).",
        body: SignInBodySchema,
        response: routeResponses(
          { 201: sessionRef },
          {
            access: "public",
            hasBody: true,
            codes: [
              PEOPLE_ERRORS.INVALID_CREDENTIALS,
              PEOPLE_ERRORS.SIGN_IN_THROTTLED,
              PEOPLE_ERRORS.NOT_A_MEMBER,
              "CROSS_SITE_REQUEST",
            ],
          },
        ),
      },
    },
    async (request, reply) => {
      refuseCrossSite(request);
      const issued = await people.signIn(request.body, origin(request));
      setCookie(reply, issued.secret);
      return reply.code(201).send(issued.body);
    },
  );

  app.get(
    "/v1/session",
    {
      ...noStore,
      config: pendingOk,
      schema: {
        tags: sessionTags,
        operationId: "getSession",
        summary: "The current session",
        description: "The signed-in person, their current Business and role, every Business they belong to, and the CSRF token.",
        response: routeResponses({ 200: sessionRef }, { access: "session" }),
      },
    },
    async (request) => people.getSession(principalOf(request)),
  );

  app.delete(
    "/v1/session",
    {
      ...noStore,
      config: pendingOk,
      schema: {
        tags: sessionTags,
        operationId: "signOut",
        summary: "Sign out",
        description: "Ends this session and clears the cookie.",
        response: routeResponses({ 204: Type.Null() }, { access: "session" }),
      },
    },
    async (request, reply) => {
      await people.signOut(principalOf(request), origin(request));
      clearCookie(reply);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/v1/session/sign-out-everywhere",
    {
      ...noStore,
      schema: {
        tags: sessionTags,
        operationId: "signOutEverywhere",
        summary: "Sign out everywhere",
        description: "Ends every session of the signed-in person, in every Business and browser, this one included.",
        response: routeResponses({ 200: SignedOutEverywhereSchema }, { access: "session" }),
      },
    },
    async (request, reply) => {
      const { ended } = await people.signOutEverywhere(principalOf(request), origin(request));
      clearCookie(reply);
      return { sessions_ended: ended };
    },
  );

  app.get(
    "/v1/session/sessions",
    {
      ...noStore,
      schema: {
        tags: sessionTags,
        operationId: "listMySessions",
        summary: "My sessions",
        description:
          "The signed-in person's live sessions (neither ended nor expired) in every Business they belong to, newest first: where each was signed in (a device label and the client address), when, its last activity and when it ends unless used. `current` marks this one. An API key has no person: 401 `SESSION_REQUIRED`.",
        response: routeResponses({ 200: MySessionListSchema }, { access: "session" }),
      },
    },
    async (request) => people.listMySessions(principalOf(request)),
  );

  app.delete(
    "/v1/session/sessions/:sessionId",
    {
      ...noStore,
      schema: {
        tags: sessionTags,
        operationId: "endMySession",
        summary: "End one of my sessions",
        description:
          "Ends one of the signed-in person's sessions, in any of their Businesses (a laptop left signed in): its cookie stops working at once. Ending the current session is signing out (the cookie is cleared). Another person's session, an unknown id, and an ended or expired session all answer 404 `not_found`. No step-up: it only takes access away. Recorded in the audit log of the ended session's Business (`session_ended`, or `signed_out` for the current one).",
        params: MySessionParamsSchema,
        response: routeResponses({ 204: Type.Null() }, { access: "session", hasInput: true, codes: ["not_found"] }),
      },
    },
    async (request, reply) => {
      const { current } = await people.endMySession(principalOf(request), request.params.sessionId, origin(request));
      if (current) clearCookie(reply);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/v1/session/business",
    {
      ...noStore,
      schema: {
        tags: sessionTags,
        operationId: "switchBusiness",
        summary: "Switch Business",
        description:
          "For a person in several Businesses: ends this session and starts one (new cookie, new CSRF token) in the Business named, with the role held there. 403 `NOT_A_MEMBER` for a Business the person is not in.",
        body: SwitchBusinessBodySchema,
        response: routeResponses({ 200: sessionRef }, { access: "session", hasBody: true, codes: [PEOPLE_ERRORS.NOT_A_MEMBER] }),
      },
    },
    async (request, reply) => {
      const issued = await people.switchBusiness(principalOf(request), request.body.business_id, origin(request));
      setCookie(reply, issued.secret);
      return issued.body;
    },
  );

  app.post(
    "/v1/session/confirmation",
    {
      ...noStore,
      config: pendingOk,
      schema: {
        tags: sessionTags,
        operationId: "confirmSession",
        summary: "Confirm (step-up)",
        description:
          "Confirms the person with exactly one of `password`, `code` (authenticator app) or `recovery_code`: a factor the person already had. A person who uses two-factor authentication confirms with a `code` or a `recovery_code`; their password alone is refused with 422 `TWO_FACTOR_PROOF_REQUIRED` before it is checked. A person without it confirms with the password. Routes marked `x-step-up` (enrolling a second factor among them) need a confirmation within the last STEP_UP_WINDOW_MINUTES (5 by default); this route, a sign-in and its second factor are the only ones that set `confirmed_at`. A session that owes only an enrolment (its Business requires two-factor) may confirm, and still owes it after; one that owes a code answers 401 `TWO_FACTOR_REQUIRED`. Issues a new session id (new cookie and CSRF token). Wrong proofs count towards the sign-in throttle of the person (`SIGN_IN_THROTTLED`).",
        body: ProofBodySchema,
        response: routeResponses(
          { 200: sessionRef },
          {
            access: "session",
            hasBody: true,
            codes: [
              PEOPLE_ERRORS.INVALID_PASSWORD,
              PEOPLE_ERRORS.INVALID_TWO_FACTOR_CODE,
              PEOPLE_ERRORS.SIGN_IN_THROTTLED,
              PEOPLE_ERRORS.TWO_FACTOR_PROOF_REQUIRED,
            ],
          },
        ),
      },
    },
    async (request, reply) => {
      const issued = await people.confirm(principalOf(request), request.body, origin(request));
      setCookie(reply, issued.secret);
      return issued.body;
    },
  );

  app.post(
    "/v1/session/two-factor",
    {
      ...noStore,
      config: pendingOk,
      schema: {
        tags: sessionTags,
        operationId: "completeTwoFactor",
        summary: "Finish signing in with a second factor",
        description:
          "After a sign-in whose `next_step` is `two_factor`: a `code` from the authenticator app (once only: a code already accepted is refused within its window) or a `recovery_code` (single use). Issues a new session id.",
        body: SecondFactorBodySchema,
        response: routeResponses(
          { 200: sessionRef },
          {
            access: "session",
            hasBody: true,
            codes: [
              PEOPLE_ERRORS.INVALID_TWO_FACTOR_CODE,
              PEOPLE_ERRORS.TWO_FACTOR_NOT_ENROLLED,
              PEOPLE_ERRORS.SIGN_IN_THROTTLED,
            ],
          },
        ),
      },
    },
    async (request, reply) => {
      const issued = await people.completeTwoFactor(principalOf(request), request.body, origin(request));
      setCookie(reply, issued.secret);
      return issued.body;
    },
  );

  app.post(
    "/v1/session/two-factor/enrolment",
    {
      ...noStore,
      config: pendingOk,
      schema: {
        tags: sessionTags,
        operationId: "startTwoFactorEnrolment",
        summary: "Start two-factor enrolment",
        description:
          "Creates a TOTP secret (RFC 6238, SHA-1, 6 digits, 30 seconds) and answers it with its `otpauth://` URI and a QR code (SVG). Nothing changes until `POST /v1/session/two-factor/enrolment/confirmation` with a first code. Starting again replaces an unconfirmed secret. Adding a factor is a sensitive act: it needs a confirmation within the last STEP_UP_WINDOW_MINUTES (401 `STEP_UP_REQUIRED`: confirm with the password at `POST /v1/session/confirmation`; a sign-in just made counts, so the enrolment a Business requires right after sign-in needs nothing more).",
        response: routeResponses(
          { 200: TwoFactorEnrolmentSchema },
          { access: "session", codes: [PEOPLE_ERRORS.TWO_FACTOR_ALREADY_ENABLED, "STEP_UP_REQUIRED"] },
        ),
      },
    },
    async (request) => people.startTwoFactorEnrolment(principalOf(request)),
  );

  app.post(
    "/v1/session/two-factor/enrolment/confirmation",
    {
      ...noStore,
      config: pendingOk,
      schema: {
        tags: sessionTags,
        operationId: "confirmTwoFactorEnrolment",
        summary: "Confirm two-factor enrolment",
        description:
          "A first code from the app turns two-factor authentication on and answers ten single-use recovery codes, shown only here. Needs a confirmation within the last STEP_UP_WINDOW_MINUTES, like starting the enrolment (401 `STEP_UP_REQUIRED`). The code proves only that the caller holds the new secret, so it does not renew the session's confirmation (`confirmed_at` is unchanged); it issues a new session id. Wrong codes count towards the person's sign-in throttle.",
        body: TwoFactorCodeBodySchema,
        response: routeResponses(
          { 200: TwoFactorEnabledSchema },
          {
            access: "session",
            hasBody: true,
            codes: [
              PEOPLE_ERRORS.INVALID_TWO_FACTOR_CODE,
              PEOPLE_ERRORS.TWO_FACTOR_NOT_ENROLLED,
              "STEP_UP_REQUIRED",
              PEOPLE_ERRORS.SIGN_IN_THROTTLED,
            ],
          },
        ),
      },
    },
    async (request, reply) => {
      const issued = await people.confirmTwoFactorEnrolment(principalOf(request), request.body.code, origin(request));
      setCookie(reply, issued.secret);
      return issued.body;
    },
  );

  app.post(
    "/v1/session/two-factor/disable",
    {
      ...noStore,
      schema: {
        tags: sessionTags,
        operationId: "disableTwoFactor",
        summary: "Turn two-factor authentication off",
        description:
          "Needs a current code or a recovery code; wrong ones count towards the person's sign-in throttle (429 `SIGN_IN_THROTTLED`). Removes the secret and every recovery code. Refused with 409 `TWO_FACTOR_REQUIRED_BY_BUSINESS` while a Business the person belongs to requires two-factor authentication (`details` name it): an admin there must lift the requirement, or the person leave it, first.",
        body: TwoFactorDisableBodySchema,
        response: routeResponses(
          { 204: Type.Null() },
          {
            access: "session",
            hasBody: true,
            codes: [
              PEOPLE_ERRORS.INVALID_TWO_FACTOR_CODE,
              PEOPLE_ERRORS.TWO_FACTOR_NOT_ENROLLED,
              PEOPLE_ERRORS.TWO_FACTOR_REQUIRED_BY_BUSINESS,
              PEOPLE_ERRORS.SIGN_IN_THROTTLED,
            ],
          },
        ),
      },
    },
    async (request, reply) => {
      await people.disableTwoFactor(principalOf(request), request.body.code, origin(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/v1/session/two-factor/recovery-codes",
    {
      ...noStore,
      schema: {
        tags: sessionTags,
        operationId: "regenerateRecoveryCodes",
        summary: "Regenerate recovery codes",
        description:
          "Replaces every recovery code of the person (used or not) with ten new single-use ones, shown only in this answer: the old ones stop working at once. Needs a confirmation within the last STEP_UP_WINDOW_MINUTES (401 `STEP_UP_REQUIRED`: confirm with `POST /v1/session/confirmation`). 409 `TWO_FACTOR_NOT_ENROLLED` when two-factor authentication is off. Recorded in the audit log of each of the person's Businesses.",
        response: routeResponses(
          { 200: RecoveryCodesSchema },
          { access: "session", codes: ["STEP_UP_REQUIRED", PEOPLE_ERRORS.TWO_FACTOR_NOT_ENROLLED] },
        ),
      },
    },
    async (request) => people.regenerateRecoveryCodes(principalOf(request), origin(request)),
  );

  app.put(
    "/v1/session/password",
    {
      ...noStore,
      schema: {
        tags: sessionTags,
        operationId: "changePassword",
        summary: "Change password",
        description:
          "Needs the current password; wrong ones count towards the person's sign-in throttle (429 `SIGN_IN_THROTTLED`). Every other session of the person ends; this one continues under a new session id, its confirmation (`confirmed_at`) unchanged.",
        body: ChangePasswordBodySchema,
        response: routeResponses(
          { 200: sessionRef },
          {
            access: "session",
            hasBody: true,
            codes: [PEOPLE_ERRORS.INVALID_PASSWORD, REGISTRATION_ERRORS.WEAK_PASSWORD, PEOPLE_ERRORS.SIGN_IN_THROTTLED],
          },
        ),
      },
    },
    async (request, reply) => {
      const issued = await people.changePassword(principalOf(request), request.body, origin(request));
      setCookie(reply, issued.secret);
      return issued.body;
    },
  );

  app.post(
    "/v1/password-resets",
    {
      config: { rateLimit: "client_address" },
      schema: {
        tags: sessionTags,
        operationId: "requestPasswordReset",
        summary: "Ask for a password reset",
        description:
          "Answers 202 whatever the address: a known one receives a single-use token valid 1 hour (at most 3 an hour). Rate-limited per client address.",
        body: PasswordResetRequestSchema,
        response: routeResponses({ 202: Type.Null() }, { access: "public", hasBody: true }),
      },
    },
    async (request, reply) => {
      await people.requestPasswordReset(request.body, origin(request));
      return reply.code(202).send(null);
    },
  );

  app.post(
    "/v1/password-resets/confirmation",
    {
      config: { rateLimit: "client_address" },
      schema: {
        tags: sessionTags,
        operationId: "confirmPasswordReset",
        summary: "Set a new password with a reset token",
        description:
          "Consumes the token and sets the password; every session of the person ends. An unknown, expired or used token is 410 `PASSWORD_RESET_INVALID`, and counts as a failed attempt of the client address (the sign-in throttle: 429 `SIGN_IN_THROTTLED` past the limit, whatever the token).",
        body: PasswordResetConfirmationSchema,
        response: routeResponses(
          { 204: Type.Null() },
          {
            access: "public",
            hasBody: true,
            codes: [PEOPLE_ERRORS.PASSWORD_RESET_INVALID, REGISTRATION_ERRORS.WEAK_PASSWORD, PEOPLE_ERRORS.SIGN_IN_THROTTLED],
          },
        ),
      },
    },
    async (request, reply) => {
      await people.resetPassword(request.body, origin(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/v1/invitations/acceptance",
    {
      config: { rateLimit: "client_address" },
      schema: {
        tags: teamTags,
        operationId: "acceptInvitation",
        summary: "Accept an invitation",
        description:
          "Consumes the e-mailed token (single use, 7 days) and makes its address a member with the invited role. An address without an account sends `password`, which creates the account. Then sign in. An unknown, expired, revoked or used token is 410 `INVITATION_INVALID`.",
        body: AcceptInvitationBodySchema,
        response: routeResponses(
          { 201: AcceptedInvitationSchema },
          {
            access: "public",
            hasBody: true,
            codes: [PEOPLE_ERRORS.INVITATION_INVALID, REGISTRATION_ERRORS.WEAK_PASSWORD, PEOPLE_ERRORS.ALREADY_A_MEMBER],
          },
        ),
      },
    },
    async (request, reply) => reply.code(201).send(await team.acceptInvitation(request.body, origin(request))),
  );

  app.get(
    "/v1/members",
    {
      schema: {
        tags: teamTags,
        operationId: "listMembers",
        summary: "List members",
        description:
          "The Business's members with their role, whether they use two-factor authentication, and their last sign-in.",
        response: routeResponses({ 200: MemberListSchema }, { access: "read" }),
      },
    },
    async (request) => team.listMembers(requireActor(request)),
  );

  app.patch(
    "/v1/members/:membershipId",
    {
      schema: {
        tags: teamTags,
        operationId: "changeMemberRole",
        summary: "Change a member's role",
        description:
          "The member's sessions end (they sign in again with the new role) and their API keys act at most with the new role. The last `business_admin` cannot be demoted (409 `LAST_ADMIN`).",
        params: MembershipParamsSchema,
        body: ChangeRoleBodySchema,
        response: routeResponses(
          { 200: ChangedMemberSchema },
          { access: "write", hasBody: true, hasInput: true, codes: ["not_found", PEOPLE_ERRORS.LAST_ADMIN, "STEP_UP_REQUIRED"] },
        ),
      },
    },
    async (request) => team.changeRole(requireActor(request), request.params.membershipId, request.body.role),
  );

  app.delete(
    "/v1/members/:membershipId",
    {
      schema: {
        tags: teamTags,
        operationId: "removeMember",
        summary: "Remove a member",
        description:
          "For good: their sessions end at once and every API key of the membership, in both environments, is revoked (`revoked_at` set, each recorded as `api_key_revoked` with `reason` `member_removed`), in the removal's transaction. Inviting the same person again restores the membership (its history stays one person's) but no old key or session: they sign in afresh and make new keys. The last `business_admin` cannot be removed (409 `LAST_ADMIN`).",
        params: MembershipParamsSchema,
        response: routeResponses(
          { 204: Type.Null() },
          { access: "write", hasInput: true, codes: ["not_found", PEOPLE_ERRORS.LAST_ADMIN, "STEP_UP_REQUIRED"] },
        ),
      },
    },
    async (request, reply) => {
      await team.removeMember(requireActor(request), request.params.membershipId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/v1/invitations",
    {
      schema: {
        tags: teamTags,
        operationId: "listInvitations",
        summary: "List open invitations",
        description: "Invitations neither accepted, revoked nor expired.",
        response: routeResponses({ 200: InvitationListSchema }, { access: "read" }),
      },
    },
    async (request) => team.listInvitations(requireActor(request)),
  );

  app.post(
    "/v1/invitations",
    {
      schema: {
        tags: teamTags,
        operationId: "createInvitation",
        summary: "Invite a person",
        description:
          "E-mails a single-use invitation token (7 days) to the address, for the role given. 409 `ALREADY_A_MEMBER` when the address is a member already.",
        body: InviteBodySchema,
        response: routeResponses(
          { 201: InvitationSchema },
          { access: "write", hasBody: true, codes: [PEOPLE_ERRORS.ALREADY_A_MEMBER, "STEP_UP_REQUIRED"] },
        ),
      },
    },
    async (request, reply) => reply.code(201).send(await team.invite(requireActor(request), request.body)),
  );

  app.delete(
    "/v1/invitations/:invitationId",
    {
      schema: {
        tags: teamTags,
        operationId: "revokeInvitation",
        summary: "Revoke an invitation",
        params: InvitationParamsSchema,
        response: routeResponses(
          { 204: Type.Null() },
          { access: "write", hasInput: true, codes: ["not_found", "STEP_UP_REQUIRED"] },
        ),
      },
    },
    async (request, reply) => {
      await team.cancelInvitation(requireActor(request), request.params.invitationId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/v1/security-settings",
    {
      schema: {
        tags: teamTags,
        operationId: "getSecuritySettings",
        summary: "Security settings",
        response: routeResponses({ 200: SecuritySettingsSchema }, { access: "read" }),
      },
    },
    async (request) => team.getSecuritySettings(requireActor(request)),
  );

  app.put(
    "/v1/security-settings",
    {
      schema: {
        tags: teamTags,
        operationId: "updateSecuritySettings",
        summary: "Change the security settings",
        description:
          "`require_two_factor`: every member must use two-factor authentication. It applies at once: the live sessions of members without it (the caller's own included) serve only enrolment and sign-out until they enrol, their next sign-ins too, and no member can turn two-factor off while it holds. Lifting the requirement frees sessions that owed only an enrolment, and weakens a control: only a person may lift it (an API key gets 403 `CONTROL_WEAKENING_NEEDS_PERSON`; a session needs a recent confirmation), every admin is e-mailed and the audit log records `control_weakened`. Requiring it may be done with a key. API keys are not otherwise affected.",
        body: SecuritySettingsSchema,
        response: routeResponses(
          { 200: SecuritySettingsSchema },
          { access: "write", hasBody: true, codes: ["STEP_UP_REQUIRED", PEOPLE_ERRORS.CONTROL_WEAKENING_NEEDS_PERSON] },
        ),
      },
    },
    async (request) => team.putSecuritySettings(requireActor(request), request.body),
  );

  app.get(
    "/v1/audit-records",
    {
      schema: {
        tags: teamTags,
        operationId: "listAuditRecords",
        summary: "The audit log",
        description:
          "Security-relevant acts of the Business, newest first, with the actor, time, client address and user agent: sign-ins and their failures, sessions ended, passwords, two-factor changes, the team, API keys, the webhook secret, the approval policy and payout Decisions. Filters: `action`, `actor_user_id`, `since`, `until`; cursor-paged.",
        querystring: AuditQuerySchema,
        response: routeResponses({ 200: AuditListSchema }, { access: "read", hasInput: true }),
      },
    },
    async (request) => team.listAudit(requireActor(request), request.query),
  );
}
