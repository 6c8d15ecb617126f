CREATE INDEX "payouts_tenant_status_idx" ON "payouts" USING btree ("business_id","environment","status","id");--> statement-breakpoint
CREATE INDEX "payouts_tenant_currency_idx" ON "payouts" USING btree ("business_id","environment","currency","id");--> statement-breakpoint
CREATE INDEX "payouts_tenant_created_idx" ON "payouts" USING btree ("business_id","environment","created_at");--> statement-breakpoint
CREATE INDEX "payouts_tenant_amount_idx" ON "payouts" USING btree ("business_id","environment","amount_minor");