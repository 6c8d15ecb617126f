CREATE TYPE "public"."declared_destination_actor" AS ENUM('business', 'beneficiary_link');--> statement-breakpoint
CREATE TYPE "public"."declared_destination_reason" AS ENUM('declared', 'destination_deleted', 'link_submitted');--> statement-breakpoint
ALTER TYPE "public"."collection_closed_reason" ADD VALUE 'archived';--> statement-breakpoint
CREATE TABLE "beneficiary_declared_destination_changes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"beneficiary_id" uuid NOT NULL,
	"previous_destination_id" uuid,
	"destination_id" uuid,
	"changed_by" "declared_destination_actor" NOT NULL,
	"reason" "declared_destination_reason" NOT NULL,
	"api_key_id" uuid,
	"membership_id" uuid,
	"user_id" uuid,
	"collection_request_id" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "beneficiaries" ADD COLUMN "declared_destination_change" jsonb;--> statement-breakpoint
ALTER TABLE "beneficiaries" ADD COLUMN "mask_version" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "mask_version" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "beneficiary_declared_destination_changes" ADD CONSTRAINT "beneficiary_declared_destination_changes_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "beneficiary_declared_destination_changes" ADD CONSTRAINT "beneficiary_declared_destination_changes_beneficiary_id_beneficiaries_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."beneficiaries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "beneficiary_declared_destination_changes_beneficiary_idx" ON "beneficiary_declared_destination_changes" USING btree ("beneficiary_id","created_at");--> statement-breakpoint
CREATE INDEX "beneficiaries_mask_pending_idx" ON "beneficiaries" USING btree ("id") WHERE mask_version < 1 and (tax_id_encrypted is not null or tax_document is not null);--> statement-breakpoint
CREATE INDEX "destinations_mask_pending_idx" ON "destinations" USING btree ("id") WHERE mask_version < 1;