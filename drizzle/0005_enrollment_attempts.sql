ALTER TABLE "beneficiaries" ADD COLUMN "enrollment_attempt_id" uuid;--> statement-breakpoint
ALTER TABLE "beneficiaries" ADD COLUMN "enrollment_attempt_started_at" timestamp with time zone;