CREATE TYPE "public"."top_up_status" AS ENUM('pending_approval', 'approved', 'rejected');--> statement-breakpoint
CREATE TABLE "top_ups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"funding_account_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" varchar(3) NOT NULL,
	"reference" text NOT NULL,
	"status" "top_up_status" NOT NULL,
	"created_by_api_key_id" uuid,
	"created_by_membership_id" uuid,
	"created_by_user_id" uuid,
	"decided_by_api_key_id" uuid,
	"decided_by_membership_id" uuid,
	"decided_by_user_id" uuid,
	"decided_at" timestamp with time zone,
	"reason" text,
	"transfer_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "top_ups_amount_positive" CHECK ("top_ups"."amount_minor" > 0),
	CONSTRAINT "top_ups_decided_consistently" CHECK (("top_ups"."status" = 'pending_approval') = ("top_ups"."decided_at" is null) and ("top_ups"."status" <> 'approved' or "top_ups"."transfer_id" is not null) and ("top_ups"."status" <> 'rejected' or "top_ups"."reason" is not null))
);
--> statement-breakpoint
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "top_ups_tenant_idx" ON "top_ups" USING btree ("business_id","environment","id");--> statement-breakpoint
CREATE INDEX "top_ups_funding_account_idx" ON "top_ups" USING btree ("business_id","environment","funding_account_id","id");