ALTER TABLE "payouts" ADD COLUMN "created_by_membership_id" uuid;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "created_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "disbursement_deferred_at" timestamp with time zone;