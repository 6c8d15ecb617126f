CREATE TABLE "funding_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"currency" varchar(3) NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"rail" text,
	"account_key" text NOT NULL,
	"account_identifier_masked" text,
	"posted_minor" bigint DEFAULT 0 NOT NULL,
	"pending_minor" bigint DEFAULT 0 NOT NULL,
	"awaiting_count" integer DEFAULT 0 NOT NULL,
	"awaiting_minor" bigint DEFAULT 0 NOT NULL,
	"enforcement" text DEFAULT 'track_only' NOT NULL,
	"overdraft_limit_minor" bigint DEFAULT 0 NOT NULL,
	"low_balance_threshold_minor" bigint,
	"awaiting_funds_expiry_hours" integer DEFAULT 72 NOT NULL,
	"last_transfer_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "funding_accounts_kind" CHECK ("funding_accounts"."kind" in ('bank_rail', 'simulator', 'sandbox')),
	CONSTRAINT "funding_accounts_enforcement" CHECK ("funding_accounts"."enforcement" in ('track_only', 'enforce')),
	CONSTRAINT "funding_accounts_settings" CHECK ("funding_accounts"."overdraft_limit_minor" >= 0 and "funding_accounts"."awaiting_funds_expiry_hours" >= 1 and "funding_accounts"."pending_minor" >= 0),
	CONSTRAINT "funding_accounts_awaiting" CHECK ("funding_accounts"."awaiting_count" >= 0 and "funding_accounts"."awaiting_minor" >= 0),
	CONSTRAINT "funding_accounts_enforced_available" CHECK ("funding_accounts"."enforcement" <> 'enforce' or "funding_accounts"."posted_minor" - "funding_accounts"."pending_minor" >= -"funding_accounts"."overdraft_limit_minor")
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"currency" varchar(3) NOT NULL,
	"kind" text NOT NULL,
	"funding_account_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_accounts_kind" CHECK ("ledger_accounts"."kind" in ('funding', 'payees_in_transit', 'fees', 'suspense', 'outside_world') and (("ledger_accounts"."kind" = 'funding') = ("ledger_accounts"."funding_account_id" is not null)))
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"transfer_id" uuid NOT NULL,
	"ledger_account_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"pending" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transfers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"seq" bigserial NOT NULL,
	"funding_account_id" uuid NOT NULL,
	"currency" varchar(3) NOT NULL,
	"step" text NOT NULL,
	"cause_type" text NOT NULL,
	"cause_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"posted_after_minor" bigint NOT NULL,
	"pending_after_minor" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_transfers_step" CHECK ("ledger_transfers"."step" in ('hold', 'post', 'void', 'reverse', 'credit', 'fee')),
	CONSTRAINT "ledger_transfers_cause" CHECK ("ledger_transfers"."cause_type" in ('payout', 'top_up', 'sandbox_credit', 'statement_line'))
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "funding_status" text DEFAULT 'not_tracked' NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "funding_account_id" uuid;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "awaiting_funds_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "funding_accounts" ADD CONSTRAINT "funding_accounts_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transfer_id_ledger_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_ledger_account_id_ledger_accounts_id_fk" FOREIGN KEY ("ledger_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "funding_accounts_source_key" ON "funding_accounts" USING btree ("business_id","environment","currency","kind","account_key");--> statement-breakpoint
CREATE INDEX "funding_accounts_tenant_idx" ON "funding_accounts" USING btree ("business_id","environment","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_funding_key" ON "ledger_accounts" USING btree ("funding_account_id") WHERE funding_account_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_internal_key" ON "ledger_accounts" USING btree ("business_id","environment","currency","kind") WHERE funding_account_id is null;--> statement-breakpoint
CREATE INDEX "ledger_entries_transfer_idx" ON "ledger_entries" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("ledger_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transfers_idempotency_key" ON "ledger_transfers" USING btree ("business_id","environment","idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_transfers_account_time_idx" ON "ledger_transfers" USING btree ("funding_account_id","created_at","seq");--> statement-breakpoint
CREATE INDEX "ledger_transfers_cause_idx" ON "ledger_transfers" USING btree ("cause_type","cause_id");--> statement-breakpoint
CREATE INDEX "payouts_awaiting_funds_idx" ON "payouts" USING btree ("funding_account_id","awaiting_funds_since","id") WHERE funding_status = 'awaiting_funds';--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_funding_status" CHECK ("payouts"."funding_status" in ('not_tracked', 'reserved', 'awaiting_funds', 'posted', 'released', 'reversed'));--> statement-breakpoint
-- Hand-written (issue 27): a transfer's entries sum to zero, checked at commit (deferred: the entries of one
-- transfer are inserted by one statement, the check runs once all are in); transfers and entries are immutable.
CREATE FUNCTION ledger_transfer_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT coalesce(sum(amount_minor), 0) FROM ledger_entries WHERE transfer_id = NEW.transfer_id) <> 0 THEN
    RAISE EXCEPTION 'ledger transfer % does not sum to zero', NEW.transfer_id USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_transfer_balanced();--> statement-breakpoint
CREATE FUNCTION ledger_row_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are immutable', TG_TABLE_NAME USING ERRCODE = '42501';
END
$$;--> statement-breakpoint
CREATE TRIGGER ledger_transfers_immutable BEFORE UPDATE OR DELETE ON ledger_transfers FOR EACH ROW EXECUTE FUNCTION ledger_row_immutable();--> statement-breakpoint
CREATE TRIGGER ledger_entries_immutable BEFORE UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_row_immutable();
