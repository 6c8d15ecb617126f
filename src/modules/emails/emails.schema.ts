// The emails module's table: every e-mail the service issued.
import { sql } from "drizzle-orm";
import { check, index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { businesses, createdAt, environmentEnum } from "../../platform/db/shared.schema.js";

export const emailKindEnum = pgEnum("email_kind", [
  "registration_verification",
  "registration_existing_account",
  "collection_invitation",
  "declared_destination_changed",
  "declared_destination_removed",
  "team_invitation",
  "password_reset",
  "control_weakened",
  "control_change_proposed",
]);
/** `captured`: kept here, never delivered (sandbox mail to anyone but the Business's verified people). `sent`: handed to a `mail.send` job. */
export const emailDispositionEnum = pgEnum("email_disposition", ["captured", "sent"]);

/**
 * Every e-mail the service issued, tied to the Business and environment it was sent for (both null for
 * platform mail such as registration). Sent mail is counted here against the per-Business daily limit;
 * captured sandbox mail keeps its content here, sealed with the field cipher (bodies carry link tokens), for
 * `GET /v1/sandbox/emails`, until the retention sweep deletes it (SANDBOX_EMAIL_RETENTION_DAYS after capture).
 * The recipient is stored only as a keyed fingerprint, for the list's filter.
 */
export const emails = pgTable(
  "emails",
  {
    id: uuid("id").primaryKey(),
    businessId: uuid("business_id").references(() => businesses.id),
    environment: environmentEnum("environment"),
    kind: emailKindEnum("kind").notNull(),
    disposition: emailDispositionEnum("disposition").notNull(),
    /** HMAC of the lower-cased recipient address (FieldCipher.fingerprint). */
    recipientFingerprint: text("recipient_fingerprint").notNull(),
    /** Names the message for good (`collection-invitation:<request id>`, …): issuing it again changes nothing. */
    idempotencyKey: text("idempotency_key").notNull(),
    /** Captured mail only: `{to, subject, text, html}` as JSON, encrypted with the field cipher. */
    contentEncrypted: text("content_encrypted"),
    /** Sent mail: when its job is due (later than created_at when the daily limit deferred it); captured: created_at. */
    sendAt: timestamp("send_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("emails_idempotency_key").on(t.idempotencyKey),
    index("emails_captured_idx").on(t.businessId, t.environment, t.id).where(sql`disposition = 'captured'`),
    index("emails_captured_recipient_idx")
      .on(t.businessId, t.environment, t.recipientFingerprint, t.id)
      .where(sql`disposition = 'captured'`),
    // The retention sweep deletes captured mail by age.
    index("emails_captured_created_idx").on(t.createdAt).where(sql`disposition = 'captured'`),
    index("emails_sent_window_idx").on(t.businessId, t.sendAt).where(sql`disposition = 'sent'`),
    check("emails_tenant_consistent", sql`(${t.businessId} is null) = (${t.environment} is null)`),
    check(
      "emails_captured_has_content",
      sql`(${t.disposition} = 'captured') = (${t.contentEncrypted} is not null) and (${t.disposition} <> 'captured' or ${t.businessId} is not null)`,
    ),
  ],
);
