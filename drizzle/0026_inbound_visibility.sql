ALTER TABLE "bank_inbound_files" ADD COLUMN "duplicate_of_id" uuid;--> statement-breakpoint
ALTER TABLE "bank_inbound_files" ADD COLUMN "moved" jsonb DEFAULT '[]'::jsonb NOT NULL;