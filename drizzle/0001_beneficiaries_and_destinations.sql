CREATE TYPE "public"."beneficiary_type" AS ENUM('person', 'business');--> statement-breakpoint
CREATE TYPE "public"."collection_status" AS ENUM('not_invited', 'invited', 'details_submitted');--> statement-breakpoint
CREATE TYPE "public"."compliance_status" AS ENUM('pending', 'compliant', 'suspended');--> statement-breakpoint
CREATE TYPE "public"."destination_kind" AS ENUM('bank_account', 'card');--> statement-breakpoint
CREATE TYPE "public"."destination_validation_status" AS ENUM('validated', 'unvalidated');--> statement-breakpoint
CREATE TYPE "public"."destination_verification_status" AS ENUM('unverified', 'verified', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."enrollment_status" AS ENUM('pending', 'verified', 'rejected', 'suspended', 'closed');--> statement-breakpoint
CREATE TABLE "beneficiaries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"beneficiary_type" "beneficiary_type" NOT NULL,
	"name" text NOT NULL,
	"nickname" text,
	"email" text NOT NULL,
	"email_normalized" text NOT NULL,
	"phone" text,
	"first_name" text,
	"last_name" text,
	"country_of_residence" varchar(2),
	"date_of_birth" text,
	"business_name" text,
	"country_of_incorporation" varchar(2),
	"registration_number" text,
	"tax_id_encrypted" text,
	"tax_id_last4" varchar(4),
	"postal_address" jsonb,
	"compliance_status" "compliance_status" DEFAULT 'pending' NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"reacknowledgment_required" boolean DEFAULT false NOT NULL,
	"collection_status" "collection_status" DEFAULT 'not_invited' NOT NULL,
	"details_submitted_at" timestamp with time zone,
	"declared_destination_id" uuid,
	"enrollment_status" "enrollment_status",
	"enrollment_failure_detail" text,
	"enrollment_failure_bank_account_id" uuid,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "destinations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"beneficiary_id" uuid NOT NULL,
	"kind" "destination_kind" NOT NULL,
	"scheme" text NOT NULL,
	"account_holder_name" text NOT NULL,
	"country" varchar(2) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"account_type" text NOT NULL,
	"bank_name" text,
	"routing_code" text,
	"swift_bic" text,
	"sensitive_encrypted" text NOT NULL,
	"fingerprint" text NOT NULL,
	"last4" varchar(64) NOT NULL,
	"pix_key_type" text,
	"card_network" text,
	"card_expiry_month" integer,
	"card_expiry_year" integer,
	"validation_status" "destination_validation_status" NOT NULL,
	"status" "destination_verification_status" DEFAULT 'unverified' NOT NULL,
	"rail_rejection_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "beneficiaries" ADD CONSTRAINT "beneficiaries_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "destinations" ADD CONSTRAINT "destinations_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "destinations" ADD CONSTRAINT "destinations_beneficiary_id_beneficiaries_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."beneficiaries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "beneficiaries_tenant_list_idx" ON "beneficiaries" USING btree ("business_id","environment","id") WHERE archived_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "beneficiaries_tenant_email_key" ON "beneficiaries" USING btree ("business_id","environment","email_normalized") WHERE archived_at is null;--> statement-breakpoint
CREATE INDEX "destinations_beneficiary_idx" ON "destinations" USING btree ("beneficiary_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "destinations_beneficiary_fingerprint_key" ON "destinations" USING btree ("beneficiary_id","fingerprint") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "destinations_tenant_idx" ON "destinations" USING btree ("business_id","environment","id");