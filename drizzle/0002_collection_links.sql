CREATE TYPE "public"."collection_closed_reason" AS ENUM('consumed', 'cancelled', 'superseded');--> statement-breakpoint
CREATE TYPE "public"."collection_scope" AS ENUM('full_onboarding', 'payout_destination', 'tax_documents');--> statement-breakpoint
CREATE TABLE "beneficiary_tax_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"beneficiary_id" uuid NOT NULL,
	"collection_request_id" uuid,
	"form" text NOT NULL,
	"document_encrypted" text NOT NULL,
	"summary" jsonb NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collection_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"beneficiary_id" uuid NOT NULL,
	"scope" "collection_scope" NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"emailed" boolean DEFAULT false NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_reason" "collection_closed_reason",
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "collection_requests_closed_consistent" CHECK (("collection_requests"."closed_at" is null) = ("collection_requests"."closed_reason" is null))
);
--> statement-breakpoint
ALTER TABLE "beneficiaries" ADD COLUMN "tax_document" jsonb;--> statement-breakpoint
ALTER TABLE "beneficiary_tax_documents" ADD CONSTRAINT "beneficiary_tax_documents_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "beneficiary_tax_documents" ADD CONSTRAINT "beneficiary_tax_documents_beneficiary_id_beneficiaries_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."beneficiaries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "beneficiary_tax_documents" ADD CONSTRAINT "beneficiary_tax_documents_collection_request_id_collection_requests_id_fk" FOREIGN KEY ("collection_request_id") REFERENCES "public"."collection_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_requests" ADD CONSTRAINT "collection_requests_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_requests" ADD CONSTRAINT "collection_requests_beneficiary_id_beneficiaries_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."beneficiaries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "beneficiary_tax_documents_beneficiary_idx" ON "beneficiary_tax_documents" USING btree ("beneficiary_id","submitted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "collection_requests_token_hash_key" ON "collection_requests" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "collection_requests_one_open_key" ON "collection_requests" USING btree ("beneficiary_id") WHERE closed_at is null;--> statement-breakpoint
CREATE INDEX "collection_requests_beneficiary_idx" ON "collection_requests" USING btree ("beneficiary_id","id");