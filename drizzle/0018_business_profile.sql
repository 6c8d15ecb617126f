ALTER TABLE "businesses" ADD COLUMN "legal_name" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "registration_number" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "tax_id" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "support_email" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "website" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "updated_at" timestamp with time zone;