ALTER TABLE "bank_file_items" ADD COLUMN "destination_id" uuid;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "notification_of_change" jsonb;