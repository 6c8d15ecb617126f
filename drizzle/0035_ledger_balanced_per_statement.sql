-- Issue 27: a transfer's entries sum to zero, checked once per inserting statement over the rows it inserted (a
-- transition table) instead of once per entry row at commit (the deferred constraint trigger of 0028). Every
-- transfer's entries are inserted by one statement (ledger.shared.ts postTransfer and recordTransfer), so the check
-- is the same; it no longer runs at COMMIT, when the posting's transaction still holds the funding account's row
-- lock that every payout of the account queues behind (measured: ledger_hot_account, bench/README.md).
DROP TRIGGER ledger_entries_balanced ON ledger_entries;--> statement-breakpoint
DROP FUNCTION ledger_transfer_balanced();--> statement-breakpoint
CREATE FUNCTION ledger_transfers_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unbalanced uuid;
BEGIN
  SELECT transfer_id INTO unbalanced FROM inserted_entries GROUP BY transfer_id HAVING sum(amount_minor) <> 0 LIMIT 1;
  IF unbalanced IS NOT NULL THEN
    RAISE EXCEPTION 'ledger transfer % does not sum to zero', unbalanced USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries REFERENCING NEW TABLE AS inserted_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_transfers_balanced();
