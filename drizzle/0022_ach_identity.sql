CREATE TABLE "bank_rail_counters" (
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"name" text NOT NULL,
	"value" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bank_rail_counters_business_id_environment_name_pk" PRIMARY KEY("business_id","environment","name"),
	CONSTRAINT "bank_rail_counters_value" CHECK ("bank_rail_counters"."value" >= 0)
);
--> statement-breakpoint
ALTER TABLE "bank_file_items" ADD COLUMN "account_fingerprint" text;--> statement-breakpoint
ALTER TABLE "bank_file_items" ADD COLUMN "account_last4" text;--> statement-breakpoint
ALTER TABLE "bank_file_items" ADD COLUMN "bank_code" text;--> statement-breakpoint
ALTER TABLE "bank_file_items" ADD COLUMN "transaction_code" text;--> statement-breakpoint
ALTER TABLE "bank_rail_counters" ADD CONSTRAINT "bank_rail_counters_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Files sent before this migration numbered their traces from the cut-off's position (ODFI + modifier
-- position * 100000 + entry position): each originator's trace sequence starts after the highest seven-digit
-- part already sent, so no new entry repeats the trace of an entry a return may still name.
INSERT INTO "bank_rail_counters" ("business_id", "environment", "name", "value", "updated_at")
SELECT "business_id", "environment", 'ach_trace:' || left("reference", 8), max(right("reference", 7)::bigint), now()
FROM "bank_file_items"
WHERE "rail" = 'ach' AND "reference" ~ '^[0-9]{15}$'
GROUP BY "business_id", "environment", left("reference", 8);--> statement-breakpoint
-- And each creation date's File ID Modifiers continue after the highest one already used that date.
INSERT INTO "bank_rail_counters" ("business_id", "environment", "name", "value", "updated_at")
SELECT "business_id", "environment", 'ach_file_id:' || left("message_id", 10),
  max(strpos('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', right("message_id", 1))), now()
FROM "bank_files"
WHERE "rail" = 'ach' AND "message_id" ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}-[A-Z0-9]$'
GROUP BY "business_id", "environment", left("message_id", 10);
