CREATE TABLE "bank_file_items" (
	"payout_id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"rail" text NOT NULL,
	"file_id" uuid,
	"amount_minor" bigint NOT NULL,
	"reference" text,
	"bank_status" text,
	"queued_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"rail" text NOT NULL,
	"cutoff_at" timestamp with time zone NOT NULL,
	"file_name" text NOT NULL,
	"message_id" text NOT NULL,
	"format" text NOT NULL,
	"content_encrypted" text NOT NULL,
	"content_sha256" text NOT NULL,
	"entry_count" integer NOT NULL,
	"control_sum_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"uploaded_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"upload_attempts" integer DEFAULT 0 NOT NULL,
	"last_upload_error" text,
	"alerts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_inbound_files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"rail" text NOT NULL,
	"file_name" text NOT NULL,
	"content_sha256" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"refusal_reason" text,
	"content_encrypted" text NOT NULL,
	"unmatched" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_rail_configs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"rail" text NOT NULL,
	"settings" jsonb NOT NULL,
	"secrets_encrypted" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bank_rail_configs_rail" CHECK ("bank_rail_configs"."rail" in ('sepa', 'ach'))
);
--> statement-breakpoint
ALTER TABLE "bank_file_items" ADD CONSTRAINT "bank_file_items_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_file_items" ADD CONSTRAINT "bank_file_items_file_id_bank_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."bank_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_files" ADD CONSTRAINT "bank_files_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_inbound_files" ADD CONSTRAINT "bank_inbound_files_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_rail_configs" ADD CONSTRAINT "bank_rail_configs_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_file_items_waiting_idx" ON "bank_file_items" USING btree ("business_id","environment","rail","queued_at") WHERE file_id is null;--> statement-breakpoint
CREATE INDEX "bank_file_items_file_idx" ON "bank_file_items" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "bank_file_items_reference_idx" ON "bank_file_items" USING btree ("business_id","environment","rail","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_files_tenant_rail_cutoff_key" ON "bank_files" USING btree ("business_id","environment","rail","cutoff_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_files_file_name_key" ON "bank_files" USING btree ("file_name");--> statement-breakpoint
CREATE INDEX "bank_files_tenant_idx" ON "bank_files" USING btree ("business_id","environment","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_inbound_files_once_key" ON "bank_inbound_files" USING btree ("business_id","environment","rail","file_name","content_sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_rail_configs_tenant_rail_key" ON "bank_rail_configs" USING btree ("business_id","environment","rail");