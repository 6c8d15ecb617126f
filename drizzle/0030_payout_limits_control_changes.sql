ALTER TYPE "public"."email_kind" ADD VALUE 'control_change_proposed';--> statement-breakpoint
CREATE TABLE "pending_control_changes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"control" text NOT NULL,
	"summary" text NOT NULL,
	"base" jsonb NOT NULL,
	"proposed" jsonb NOT NULL,
	"status" text NOT NULL,
	"proposed_by_api_key_id" uuid,
	"proposed_by_membership_id" uuid,
	"proposed_by_user_id" uuid,
	"decided_by_api_key_id" uuid,
	"decided_by_membership_id" uuid,
	"decided_by_user_id" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "pending_control_changes_status" CHECK ("pending_control_changes"."status" in ('pending', 'approved', 'discarded', 'superseded') and (("pending_control_changes"."status" = 'pending') = ("pending_control_changes"."decided_at" is null)))
);
--> statement-breakpoint
CREATE TABLE "payout_limit_consumptions" (
	"payout_id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"currency" varchar(3) NOT NULL,
	"day" date NOT NULL,
	"amount_minor" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_limit_usage" (
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"currency" varchar(3) NOT NULL,
	"day" date NOT NULL,
	"used_minor" bigint NOT NULL,
	CONSTRAINT "payout_limit_usage_business_id_environment_currency_day_pk" PRIMARY KEY("business_id","environment","currency","day"),
	CONSTRAINT "payout_limit_usage_not_negative" CHECK ("payout_limit_usage"."used_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payout_limits" (
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"currency" varchar(3) NOT NULL,
	"per_payout_max_minor" bigint,
	"daily_max_minor" bigint,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by_membership_id" uuid,
	"updated_by_api_key_id" uuid,
	CONSTRAINT "payout_limits_business_id_environment_currency_pk" PRIMARY KEY("business_id","environment","currency"),
	CONSTRAINT "payout_limits_per_payout_positive" CHECK ("payout_limits"."per_payout_max_minor" is null or "payout_limits"."per_payout_max_minor" > 0),
	CONSTRAINT "payout_limits_daily_positive" CHECK ("payout_limits"."daily_max_minor" is null or "payout_limits"."daily_max_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "pending_control_changes" ADD CONSTRAINT "pending_control_changes_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_limit_consumptions" ADD CONSTRAINT "payout_limit_consumptions_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_limit_usage" ADD CONSTRAINT "payout_limit_usage_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_limits" ADD CONSTRAINT "payout_limits_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pending_control_changes_tenant_idx" ON "pending_control_changes" USING btree ("business_id","environment","id");--> statement-breakpoint
CREATE UNIQUE INDEX "pending_control_changes_one_pending" ON "pending_control_changes" USING btree ("business_id","environment","kind","subject_id") WHERE "pending_control_changes"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payout_limit_consumptions_day_idx" ON "payout_limit_consumptions" USING btree ("business_id","environment","currency","day");