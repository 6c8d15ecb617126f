CREATE TYPE "public"."screening_status" AS ENUM('not_screened', 'clear', 'potential_match', 'cleared', 'confirmed_match');--> statement-breakpoint
CREATE TYPE "public"."screening_hit_status" AS ENUM('open', 'cleared', 'confirmed', 'withdrawn');--> statement-breakpoint
CREATE TABLE "sanctions_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"list_id" text NOT NULL,
	"ref" text NOT NULL,
	"kind" text NOT NULL,
	"primary_name" text NOT NULL,
	"names" jsonb NOT NULL,
	"countries" jsonb NOT NULL,
	"programs" jsonb NOT NULL,
	"addresses" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sanctions_lists" (
	"list_id" text PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"entry_count" integer NOT NULL,
	"content_hash" text NOT NULL,
	"source" text NOT NULL,
	"loaded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sanctions_name_keys" (
	"key" text NOT NULL,
	"entry_id" uuid NOT NULL,
	"name_no" smallint NOT NULL,
	CONSTRAINT "sanctions_name_keys_key_entry_id_name_no_pk" PRIMARY KEY("key","entry_id","name_no")
);
--> statement-breakpoint
CREATE TABLE "screening_hits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" uuid NOT NULL,
	"environment" "environment" NOT NULL,
	"beneficiary_id" uuid NOT NULL,
	"list_id" text NOT NULL,
	"entry_ref" text NOT NULL,
	"matched_name" text NOT NULL,
	"entry" jsonb NOT NULL,
	"score" double precision NOT NULL,
	"screened_name" text NOT NULL,
	"screened_country" varchar(2),
	"status" "screening_hit_status" NOT NULL,
	"triggered_by_api_key_id" uuid,
	"triggered_by_membership_id" uuid,
	"triggered_by_user_id" uuid,
	"decided_by_api_key_id" uuid,
	"decided_by_membership_id" uuid,
	"decided_by_user_id" uuid,
	"decided_at" timestamp with time zone,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "screening_hits_decided_consistently" CHECK (("screening_hits"."status" in ('cleared', 'confirmed')) = ("screening_hits"."reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "screening_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"cursor" uuid,
	"screened" integer DEFAULT 0 NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "beneficiaries" ADD COLUMN "screening_status" "screening_status" DEFAULT 'not_screened' NOT NULL;--> statement-breakpoint
ALTER TABLE "beneficiaries" ADD COLUMN "screening_match" jsonb;--> statement-breakpoint
ALTER TABLE "beneficiaries" ADD COLUMN "screened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sanctions_name_keys" ADD CONSTRAINT "sanctions_name_keys_entry_id_sanctions_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."sanctions_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_hits" ADD CONSTRAINT "screening_hits_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sanctions_entries_list_ref_key" ON "sanctions_entries" USING btree ("list_id","ref");--> statement-breakpoint
CREATE INDEX "sanctions_name_keys_entry_idx" ON "sanctions_name_keys" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "screening_hits_tenant_idx" ON "screening_hits" USING btree ("business_id","environment","id");--> statement-breakpoint
CREATE INDEX "screening_hits_beneficiary_idx" ON "screening_hits" USING btree ("beneficiary_id");--> statement-breakpoint
CREATE UNIQUE INDEX "screening_hits_live_key" ON "screening_hits" USING btree ("beneficiary_id","list_id","entry_ref","screened_name") WHERE "screening_hits"."status" <> 'withdrawn';