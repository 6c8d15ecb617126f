CREATE TYPE "public"."destination_added_by_kind" AS ENUM('api_key', 'session', 'collection_link');--> statement-breakpoint
CREATE TYPE "public"."destination_approval_status" AS ENUM('approved', 'pending_approval', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."destination_name_check_mode" AS ENUM('off', 'warn', 'block');--> statement-breakpoint
CREATE TYPE "public"."destination_screening_mode" AS ENUM('off', 'on');--> statement-breakpoint
CREATE TABLE "destination_policies" (
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"require_approval" boolean DEFAULT false NOT NULL,
	"cooling_off_hours" integer DEFAULT 0 NOT NULL,
	"name_check" "destination_name_check_mode" DEFAULT 'off' NOT NULL,
	"screening" "destination_screening_mode" DEFAULT 'off' NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "destination_policies_business_id_environment_pk" PRIMARY KEY("business_id","environment"),
	CONSTRAINT "destination_policies_cooling_off_range" CHECK (cooling_off_hours between 0 and 720)
);
--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "approval_status" "destination_approval_status" DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "added_by_kind" "destination_added_by_kind";--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "added_by_id" uuid;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "added_by_api_key_id" uuid;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "added_by_membership_id" uuid;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "added_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "details_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "approved_by" uuid;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "approval_rejection_reason" text;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "usable_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "destination_policies" ADD CONSTRAINT "destination_policies_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "destinations_pending_approval_idx" ON "destinations" USING btree ("business_id","environment","id") WHERE approval_status = 'pending_approval' and deleted_at is null;