import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates SQL from the schema; migrations are applied by src/platform/db/migrate.ts.
export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/platform/db/schema.ts", "./src/modules/bank-rails/bank-rails.schema.ts"],
  out: "./drizzle",
});
