ALTER TABLE "bank_inbound_files" ALTER COLUMN "content_sha256" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "bank_inbound_files" ALTER COLUMN "content_encrypted" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "bank_inbound_files" ADD COLUMN "size_bytes" bigint;--> statement-breakpoint
ALTER TABLE "bank_inbound_files" ADD COLUMN "modified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bank_inbound_files" ADD COLUMN "size_limit_bytes" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_inbound_files_unread_once_key" ON "bank_inbound_files" USING btree ("business_id","environment","rail","file_name","size_bytes","modified_at") WHERE content_sha256 is null;--> statement-breakpoint
ALTER TABLE "bank_inbound_files" ADD CONSTRAINT "bank_inbound_files_read_or_unread" CHECK (("bank_inbound_files"."content_sha256" is null) = ("bank_inbound_files"."content_encrypted" is null) and ("bank_inbound_files"."content_sha256" is null) = ("bank_inbound_files"."size_limit_bytes" is not null));