-- The line keys, unique per funding account (an account belongs to one tenant), led by the account: created before
-- the tenant-led index it replaces is dropped, so uniqueness holds throughout.
CREATE UNIQUE INDEX "statement_lines_account_key" ON "statement_lines" USING btree ("funding_account_id","line_key");--> statement-breakpoint
DROP INDEX "statement_lines_key";
