-- Users created before e-mail verification existed registered when registration was the only way in; they
-- keep working as verified people (their Businesses may send production mail, and sandbox mail reaches them).
UPDATE "users" SET "email_verified_at" = "created_at" WHERE "email_verified_at" IS NULL;
