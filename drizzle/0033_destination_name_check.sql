CREATE TYPE "public"."name_check_result" AS ENUM('match', 'close_match', 'no_match', 'not_possible');--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "name_check_result" "name_check_result";--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "name_check_bank_name" text;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "name_check_source" text;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "name_check_at" timestamp with time zone;