-- Payouts created before the maker's person was recorded: the person behind the creating key.
UPDATE "payouts" AS p
SET "created_by_membership_id" = k."membership_id", "created_by_user_id" = m."user_id"
FROM "api_keys" AS k
JOIN "memberships" AS m ON m."id" = k."membership_id"
WHERE p."created_by_api_key_id" = k."id" AND p."created_by_membership_id" IS NULL;
