CREATE TABLE "bank_statements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"funding_account_id" uuid NOT NULL,
	"format" text NOT NULL,
	"message_version" text NOT NULL,
	"message_id" text NOT NULL,
	"statement_id" text NOT NULL,
	"sequence_number" integer,
	"period_from" date,
	"period_to" date,
	"opening_booked_minor" bigint,
	"closing_booked_minor" bigint,
	"closing_date" date,
	"currency" varchar(3) NOT NULL,
	"content_sha256" text NOT NULL,
	"source" text NOT NULL,
	"lines_received" integer NOT NULL,
	"balance_status" text DEFAULT 'not_checked' NOT NULL,
	"ledger_minor" bigint,
	"bank_minor" bigint,
	"difference_minor" bigint,
	"sequence_expected" integer,
	"sequence_received" integer,
	"resolved_reason" text,
	"resolved_by" jsonb,
	"resolved_at" timestamp with time zone,
	"opening_transfer_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bank_statements_balance_status" CHECK ("bank_statements"."balance_status" in ('agrees', 'mismatch', 'not_checked', 'resolved')),
	CONSTRAINT "bank_statements_source" CHECK ("bank_statements"."source" in ('upload', 'inbound_folder'))
);
--> statement-breakpoint
CREATE TABLE "statement_lines" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"funding_account_id" uuid NOT NULL,
	"statement_id" uuid NOT NULL,
	"line_key" text NOT NULL,
	"status" text NOT NULL,
	"entry_status" text NOT NULL,
	"booking_date" date,
	"value_date" date,
	"direction" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" varchar(3) NOT NULL,
	"reversal" boolean DEFAULT false NOT NULL,
	"bank_reference" text,
	"bank_transaction_code" text,
	"references" jsonb NOT NULL,
	"batch_count" integer,
	"batch_total_minor" bigint,
	"remittance" text,
	"details" jsonb NOT NULL,
	"match_rule" text,
	"match_top_up_id" uuid,
	"match_difference_minor" bigint,
	"matched_by" jsonb,
	"matched_at" timestamp with time zone,
	"candidates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"review_reason" text,
	"ignored_reason" text,
	"transfer_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "statement_lines_status" CHECK ("statement_lines"."status" in ('matched', 'needs_review', 'unmatched', 'ignored', 'pending')),
	CONSTRAINT "statement_lines_amount" CHECK ("statement_lines"."amount_minor" >= 0),
	CONSTRAINT "statement_lines_direction" CHECK ("statement_lines"."direction" in ('debit', 'credit'))
);
--> statement-breakpoint
CREATE TABLE "statement_matches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"line_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"rule" text NOT NULL,
	"payout_id" uuid,
	"top_up_id" uuid,
	"amount_minor" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "statement_matches_kind" CHECK ("statement_matches"."kind" in ('debit', 'return', 'top_up')),
	CONSTRAINT "statement_matches_target" CHECK (("statement_matches"."payout_id" is null) <> ("statement_matches"."top_up_id" is null))
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "reconciliation_status" text DEFAULT 'unreconciled' NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "reconciled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bank_statements" ADD CONSTRAINT "bank_statements_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_lines" ADD CONSTRAINT "statement_lines_statement_id_bank_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."bank_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_matches" ADD CONSTRAINT "statement_matches_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_matches" ADD CONSTRAINT "statement_matches_line_id_statement_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."statement_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_statements_identity_key" ON "bank_statements" USING btree ("business_id","environment","funding_account_id","format","message_id","statement_id");--> statement-breakpoint
CREATE INDEX "bank_statements_tenant_idx" ON "bank_statements" USING btree ("business_id","environment","id");--> statement-breakpoint
CREATE INDEX "bank_statements_account_idx" ON "bank_statements" USING btree ("funding_account_id","format","sequence_number");--> statement-breakpoint
CREATE UNIQUE INDEX "statement_lines_key" ON "statement_lines" USING btree ("business_id","environment","funding_account_id","line_key");--> statement-breakpoint
CREATE INDEX "statement_lines_tenant_status_idx" ON "statement_lines" USING btree ("business_id","environment","status","id");--> statement-breakpoint
CREATE INDEX "statement_lines_statement_idx" ON "statement_lines" USING btree ("statement_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "statement_matches_payout_key" ON "statement_matches" USING btree ("payout_id","kind") WHERE payout_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "statement_matches_top_up_key" ON "statement_matches" USING btree ("top_up_id") WHERE top_up_id is not null;--> statement-breakpoint
CREATE INDEX "statement_matches_line_idx" ON "statement_matches" USING btree ("line_id");--> statement-breakpoint
CREATE INDEX "bank_file_items_payment_info_idx" ON "bank_file_items" USING btree ("business_id","environment","payment_info_id") WHERE payment_info_id is not null;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_reconciliation_status" CHECK ("payouts"."reconciliation_status" in ('unreconciled', 'reconciled'));