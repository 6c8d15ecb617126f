CREATE TYPE "public"."email_disposition" AS ENUM('captured', 'sent');--> statement-breakpoint
CREATE TYPE "public"."email_kind" AS ENUM('registration_verification', 'registration_existing_account', 'collection_invitation', 'declared_destination_changed', 'declared_destination_removed');--> statement-breakpoint
CREATE TABLE "emails" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid,
	"environment" "environment",
	"kind" "email_kind" NOT NULL,
	"disposition" "email_disposition" NOT NULL,
	"recipient_fingerprint" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"content_encrypted" text,
	"send_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "emails_tenant_consistent" CHECK (("emails"."business_id" is null) = ("emails"."environment" is null)),
	CONSTRAINT "emails_captured_has_content" CHECK (("emails"."disposition" = 'captured') = ("emails"."content_encrypted" is not null) and ("emails"."disposition" <> 'captured' or "emails"."business_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "pending_registrations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"business_name" text NOT NULL,
	"password_hash" text,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "emails_idempotency_key" ON "emails" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "emails_captured_idx" ON "emails" USING btree ("business_id","environment","id") WHERE disposition = 'captured';--> statement-breakpoint
CREATE INDEX "emails_captured_recipient_idx" ON "emails" USING btree ("business_id","environment","recipient_fingerprint","id") WHERE disposition = 'captured';--> statement-breakpoint
CREATE INDEX "emails_sent_window_idx" ON "emails" USING btree ("business_id","send_at") WHERE disposition = 'sent';--> statement-breakpoint
CREATE UNIQUE INDEX "pending_registrations_token_hash_key" ON "pending_registrations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "pending_registrations_email_created_idx" ON "pending_registrations" USING btree ("email","created_at");