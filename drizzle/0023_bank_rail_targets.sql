ALTER TABLE "bank_rail_configs" ADD COLUMN "debtor_account_key" text;--> statement-breakpoint
-- Hand-written backfill: each existing rail claims its debtor account; where Businesses already shared one, the
-- oldest configuration keeps it and the others stay null until their next save, which the rule then refuses.
UPDATE "bank_rail_configs" AS c SET "debtor_account_key" = k.key
FROM (
  SELECT id, key, row_number() OVER (PARTITION BY environment, key ORDER BY created_at, id) AS n
  FROM (
    SELECT id, environment, created_at,
      CASE rail
        WHEN 'sepa' THEN 'sepa:' || (settings->'originator'->>'iban')
        ELSE 'ach:' || (settings->'originator'->>'odfi_routing_number') || ':' || (settings->'originator'->>'company_identification')
      END AS key
    FROM "bank_rail_configs"
  ) AS keyed
) AS k
WHERE c.id = k.id AND k.n = 1 AND k.key IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_rail_configs_debtor_account_key" ON "bank_rail_configs" USING btree ("environment","debtor_account_key");