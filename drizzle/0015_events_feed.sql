ALTER TABLE "events" ADD COLUMN "tx_id" bigint DEFAULT (pg_current_xact_id())::text::bigint NOT NULL;--> statement-breakpoint
CREATE INDEX "events_business_env_id_idx" ON "events" USING btree ("business_id","environment","id");--> statement-breakpoint
CREATE INDEX "events_business_env_feed_idx" ON "events" USING btree ("business_id","environment","tx_id","sequence");