ALTER TYPE "public"."email_kind" ADD VALUE 'control_weakened';--> statement-breakpoint
-- Issue 24: a removed member's API keys are revoked for good (the removal now revokes them). Keys of members
-- removed before this migration were only refused while the membership stayed removed, and an invitation that
-- restored it would have revived them: revoke them now, as of the removal.
UPDATE "api_keys" SET "revoked_at" = "memberships"."removed_at"
FROM "memberships"
WHERE "api_keys"."membership_id" = "memberships"."id"
  AND "memberships"."removed_at" IS NOT NULL
  AND "api_keys"."revoked_at" IS NULL;
