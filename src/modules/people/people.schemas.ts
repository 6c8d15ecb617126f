import { type Static, Type } from "@sinclair/typebox";
import { nullable, stringEnum } from "../../platform/http/schema-types.js";
import { PageQuerySchema } from "../../platform/pagination/cursor.js";
import { AUDIT_ACTIONS } from "./people.audit.js";

const Uuid = Type.String({ format: "uuid" });
const DateTime = Type.String({ format: "date-time" });
const ROLE_VALUES = ["business_admin", "business_approver", "business_read_only"] as const;
const Role = stringEnum(ROLE_VALUES, {
  description:
    "`business_admin`: everything. `business_approver`: reads everything and decides payouts; no keys, webhooks, team or settings. `business_read_only`: reads.",
});
const Email = Type.String({ format: "email", maxLength: 254, description: "Case-insensitive." });
const Password = Type.String({ minLength: 1, maxLength: 200 });
const NewPassword = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    "At least 12 characters, no rule about character classes; common, breached-style or guessable passwords are refused (422 `WEAK_PASSWORD`).",
});
const Token = Type.String({ minLength: 1, maxLength: 200 });
const TotpCode = Type.String({
  minLength: 6,
  maxLength: 10,
  pattern: "^[0-9 ]+$",
  description: "The 6-digit code of the authenticator app.",
});
const RecoveryCode = Type.String({ minLength: 10, maxLength: 20, description: "One of the ten recovery codes (`xxxxx-xxxxx`)." });

export const SignInBodySchema = Type.Object(
  {
    email: Email,
    password: Password,
    business_id: Type.Optional(
      Type.String({ format: "uuid", description: "The Business to sign in to; the person's oldest membership when omitted." }),
    ),
  },
  { "x-component": "SignInRequest", additionalProperties: false },
);

const MembershipSummary = Type.Object({ id: Uuid, business_id: Uuid, business_name: Type.String(), role: Role });

export const SessionSchema = Type.Object(
  {
    session: Type.Object({
      id: Uuid,
      created_at: DateTime,
      expires_at: Type.String({ format: "date-time", description: "The absolute end of the session (SESSION_ABSOLUTE_HOURS)." }),
      idle_timeout_seconds: Type.Integer({
        description: "The session ends after this long without a request (SESSION_IDLE_MINUTES).",
      }),
      confirmed_at: Type.String({
        format: "date-time",
        description: "The last password or two-factor confirmation; step-up routes need one within STEP_UP_WINDOW_MINUTES.",
      }),
      next_step: nullable(
        stringEnum(["two_factor", "two_factor_enrolment"] as const, {
          description:
            "`two_factor`: send a code to `POST /v1/session/two-factor`. `two_factor_enrolment`: the Business requires two-factor authentication; enrol first. null: the session is ready.",
        }),
      ),
    }),
    csrf_token: Type.String({ description: "Send it in `X-CSRF-Token` with every POST, PUT, PATCH and DELETE of this session." }),
    user: Type.Object({ id: Uuid, email: Type.String(), two_factor_enabled: Type.Boolean() }),
    membership: MembershipSummary,
    memberships: Type.Array(MembershipSummary, {
      description: "Every Business of the person: switch with `POST /v1/session/business`.",
    }),
  },
  { $id: "Session" },
);

export const SwitchBusinessBodySchema = Type.Object(
  { business_id: Uuid },
  { "x-component": "SwitchBusinessRequest", additionalProperties: false },
);

export const ProofBodySchema = Type.Object(
  {
    password: Type.Optional(Password),
    code: Type.Optional(TotpCode),
    recovery_code: Type.Optional(RecoveryCode),
  },
  { "x-component": "ConfirmationRequest", additionalProperties: false, minProperties: 1, maxProperties: 1 },
);
export type ProofBody = Static<typeof ProofBodySchema>;

export const SecondFactorBodySchema = Type.Object(
  { code: Type.Optional(TotpCode), recovery_code: Type.Optional(RecoveryCode) },
  { "x-component": "SecondFactorRequest", additionalProperties: false, minProperties: 1, maxProperties: 1 },
);

export const ChangePasswordBodySchema = Type.Object(
  { current_password: Password, new_password: NewPassword },
  { "x-component": "ChangePasswordRequest", additionalProperties: false },
);

export const PasswordResetRequestSchema = Type.Object(
  { email: Email },
  { "x-component": "PasswordResetRequest", additionalProperties: false },
);
export const PasswordResetConfirmationSchema = Type.Object(
  { token: Token, password: NewPassword },
  { "x-component": "ConfirmPasswordResetRequest", additionalProperties: false },
);

export const SignedOutEverywhereSchema = Type.Object(
  { sessions_ended: Type.Integer() },
  { "x-component": "SignedOutEverywhere" },
);

export const MySessionSchema = Type.Object({
  id: Type.String({
    format: "uuid",
    description: "The session's public id (never its secret). `DELETE /v1/session/sessions/{id}` ends it.",
  }),
  business_id: Uuid,
  business_name: Type.String({ description: "The Business this session is signed in to." }),
  created_at: Type.String({
    format: "date-time",
    description: "When it was signed in (for a session started by switching Business: when it switched).",
  }),
  last_seen_at: Type.String({ format: "date-time", description: "Its last request, to the minute." }),
  expires_at: Type.String({
    format: "date-time",
    description:
      "When it ends unless used again: its absolute lifetime or its idle timeout from `last_seen_at`, whichever comes first.",
  }),
  device: Type.String({
    description:
      'A coarse label from the User-Agent of the sign-in, without versions: "Chrome on macOS", "Firefox on Windows", "curl", or "Unknown device".',
    examples: ["Chrome on macOS"],
  }),
  client_address: nullable(
    Type.String({
      description: "The client address of the sign-in, in full, as the audit log records it.",
      examples: ["203.0.113.7"],
    }),
  ),
  current: Type.Boolean({ description: "true for the session making this request." }),
});

export const MySessionListSchema = Type.Object(
  {
    sessions: Type.Array(MySessionSchema, {
      description: "The person's live sessions in all their Businesses, newest first (at most 100).",
    }),
  },
  { "x-component": "MySessionList" },
);

export const MySessionParamsSchema = Type.Object({ sessionId: Uuid });

export const TwoFactorEnrolmentSchema = Type.Object(
  {
    secret: Type.String({ description: "The TOTP secret (base32), for typing into an authenticator app by hand." }),
    otpauth_uri: Type.String({ description: "The `otpauth://totp/...` URI the QR code holds." }),
    qr_code_svg: Type.String({ description: "An SVG image of the QR code, to show as is." }),
  },
  { "x-component": "TwoFactorEnrolment" },
);
export const TwoFactorCodeBodySchema = Type.Object(
  { code: TotpCode },
  { "x-component": "ConfirmTwoFactorEnrolmentRequest", additionalProperties: false },
);
export const TwoFactorDisableBodySchema = Type.Object(
  { code: Type.String({ minLength: 6, maxLength: 20, description: "A current code or a recovery code." }) },
  { "x-component": "DisableTwoFactorRequest", additionalProperties: false },
);
export const TwoFactorEnabledSchema = Type.Composite(
  [
    SessionSchema,
    Type.Object({
      recovery_codes: Type.Array(Type.String(), {
        description: "Ten single-use recovery codes, shown only here: each replaces a code from the app once.",
      }),
    }),
  ],
  { "x-component": "TwoFactorEnabled" },
);

export const RecoveryCodesSchema = Type.Object(
  {
    recovery_codes: Type.Array(Type.String(), {
      description:
        "Ten new single-use recovery codes, shown only here. Every earlier recovery code, used or not, stopped working.",
    }),
  },
  { "x-component": "RecoveryCodes" },
);

// Team

export const MemberSchema = Type.Object({
  id: Type.String({ format: "uuid", description: "The membership id." }),
  user_id: Uuid,
  email: Type.String(),
  role: Role,
  two_factor_enabled: Type.Boolean(),
  last_sign_in_at: nullable(DateTime),
  joined_at: DateTime,
});
export const MemberListSchema = Type.Object({ members: Type.Array(MemberSchema) }, { "x-component": "MemberList" });
export const MembershipParamsSchema = Type.Object({ membershipId: Uuid });
export const ChangeRoleBodySchema = Type.Object(
  { role: Role },
  { "x-component": "ChangeMemberRoleRequest", additionalProperties: false },
);
export const ChangedMemberSchema = Type.Object(
  { id: Uuid, user_id: Uuid, email: Type.String(), role: Role },
  { "x-component": "ChangedMember" },
);

export const InvitationSchema = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    role: Role,
    created_at: DateTime,
    expires_at: DateTime,
  },
  { "x-component": "Invitation" },
);
export const InvitationListSchema = Type.Object(
  { invitations: Type.Array(InvitationSchema) },
  { "x-component": "InvitationList" },
);
export const InviteBodySchema = Type.Object(
  { email: Email, role: Role },
  { "x-component": "CreateInvitationRequest", additionalProperties: false },
);
export const InvitationParamsSchema = Type.Object({ invitationId: Uuid });
export const AcceptInvitationBodySchema = Type.Object(
  {
    token: Token,
    password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          "Required when the address has no account yet (at least 12 characters, not a common password); ignored otherwise: an existing password is never replaced.",
      }),
    ),
  },
  { "x-component": "AcceptInvitationRequest", additionalProperties: false },
);
export const AcceptedInvitationSchema = Type.Object(
  {
    membership: Type.Object({ id: Uuid, business_id: Uuid, role: Role }),
    user: Type.Object({ id: Uuid, email: Type.String() }),
  },
  { "x-component": "AcceptedInvitation" },
);

export const SecuritySettingsSchema = Type.Object(
  {
    require_two_factor: Type.Boolean({
      description:
        "Every member must use two-factor authentication: a member without it may sign in, but the session serves only enrolment until a code confirms it. Applies from each member's next sign-in.",
    }),
  },
  { "x-component": "SecuritySettings", additionalProperties: false },
);

export const AuditQuerySchema = Type.Object(
  {
    ...PageQuerySchema,
    action: Type.Optional(stringEnum(AUDIT_ACTIONS)),
    actor_user_id: Type.Optional(Uuid),
    since: Type.Optional(Type.String({ format: "date-time", description: "Records at or after this time." })),
    until: Type.Optional(Type.String({ format: "date-time", description: "Records at or before this time." })),
  },
  { additionalProperties: false },
);

export const AuditRecordSchema = Type.Object({
  id: Uuid,
  action: Type.String({ description: `One of ${AUDIT_ACTIONS.map((a) => `\`${a}\``).join(", ")}.` }),
  occurred_at: DateTime,
  environment: nullable(stringEnum(["sandbox", "production"] as const)),
  actor: Type.Object({
    user_id: nullable(Uuid),
    membership_id: nullable(Uuid),
    role: nullable(stringEnum(ROLE_VALUES)),
    api_key_id: nullable(Uuid),
    session_id: nullable(Uuid),
  }),
  subject: Type.Union([Type.Object({ type: Type.String(), id: Type.String() }), Type.Null()]),
  client_address: nullable(Type.String()),
  user_agent: nullable(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown()),
});
export const AuditListSchema = Type.Object(
  {
    audit_records: Type.Array(AuditRecordSchema),
    next_cursor: nullable(Type.String()),
  },
  { "x-component": "AuditRecordList" },
);
