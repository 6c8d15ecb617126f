ALTER TABLE "beneficiaries" ADD COLUMN "mask_version" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "destinations" ADD COLUMN "mask_version" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "beneficiaries_mask_pending_idx" ON "beneficiaries" USING btree ("id") WHERE mask_version < 1 and (tax_id_encrypted is not null or tax_document is not null);--> statement-breakpoint
CREATE INDEX "destinations_mask_pending_idx" ON "destinations" USING btree ("id") WHERE mask_version < 1;