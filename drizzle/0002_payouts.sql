CREATE TYPE "public"."decision_outcome" AS ENUM('approve', 'reject');--> statement-breakpoint
CREATE TYPE "public"."payout_status" AS ENUM('pending_approval', 'approved', 'rejected', 'disbursed', 'settled', 'returned', 'failed', 'canceled', 'compliance_hold');--> statement-breakpoint
CREATE TYPE "public"."validator_type" AS ENUM('human', 'automated');--> statement-breakpoint
CREATE TABLE "approval_policies" (
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"rules" jsonb NOT NULL,
	"maker_checker" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "approval_policies_business_id_environment_pk" PRIMARY KEY("business_id","environment")
);
--> statement-breakpoint
CREATE TABLE "payout_attempts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"payout_id" uuid NOT NULL,
	"attempt_number" integer NOT NULL,
	"rail" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text NOT NULL,
	"rail_ref" text,
	"failure_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_decisions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"payout_id" uuid NOT NULL,
	"outcome" "decision_outcome" NOT NULL,
	"reason" text,
	"validator_type" "validator_type" NOT NULL,
	"validator_name" text,
	"api_key_id" uuid,
	"user_id" uuid,
	"membership_id" uuid,
	"policy_rule" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_idempotency_keys" (
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"idempotency_key" text NOT NULL,
	"payout_id" uuid NOT NULL,
	"request_fingerprint" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payout_idempotency_keys_business_id_environment_idempotency_key_pk" PRIMARY KEY("business_id","environment","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"beneficiary_id" uuid NOT NULL,
	"destination_id" uuid NOT NULL,
	"destination_last4" varchar(64) NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" varchar(3) NOT NULL,
	"external_ref" text,
	"idempotency_key" text NOT NULL,
	"channel" text NOT NULL,
	"upload_id" text,
	"replaces_payout_id" uuid,
	"status" "payout_status" NOT NULL,
	"held_from_status" "payout_status",
	"created_by_api_key_id" uuid,
	"rail" text,
	"rail_ref" text,
	"disbursement_status" text,
	"failure_reason" text,
	"disbursement_started_at" timestamp with time zone,
	"estimated_arrival_at" timestamp with time zone,
	"disbursed_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"returned_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payouts_amount_positive" CHECK ("payouts"."amount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "approval_policies" ADD CONSTRAINT "approval_policies_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_decisions" ADD CONSTRAINT "payout_decisions_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_beneficiary_id_beneficiaries_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."beneficiaries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_destination_id_destinations_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."destinations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_attempts_payout_number_key" ON "payout_attempts" USING btree ("payout_id","attempt_number");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_decisions_payout_key" ON "payout_decisions" USING btree ("payout_id");--> statement-breakpoint
CREATE INDEX "payouts_tenant_idx" ON "payouts" USING btree ("business_id","environment","id");--> statement-breakpoint
CREATE INDEX "payouts_tenant_updated_idx" ON "payouts" USING btree ("business_id","environment","updated_at","id");--> statement-breakpoint
CREATE INDEX "payouts_tenant_beneficiary_idx" ON "payouts" USING btree ("business_id","environment","beneficiary_id","id");--> statement-breakpoint
CREATE INDEX "payouts_tenant_upload_idx" ON "payouts" USING btree ("business_id","environment","upload_id","id") WHERE upload_id is not null;--> statement-breakpoint
CREATE INDEX "payouts_tenant_external_ref_idx" ON "payouts" USING btree ("business_id","environment","external_ref") WHERE external_ref is not null;--> statement-breakpoint
CREATE INDEX "payouts_pending_destination_idx" ON "payouts" USING btree ("destination_id") WHERE status = 'pending_approval';--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_live_replacement_key" ON "payouts" USING btree ("replaces_payout_id") WHERE replaces_payout_id is not null and status not in ('failed', 'rejected', 'canceled');