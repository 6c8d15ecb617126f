import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates SQL from the schema; migrations are applied by src/platform/db/migrate.ts.
// Each module's tables are in its own src/modules/<m>/<m>.schema.ts; the platform's (jobs, events, rate limits,
// shared enums) in src/platform/**/*.schema.ts.
export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/modules/*/*.schema.ts", "./src/platform/**/*.schema.ts"],
  out: "./drizzle",
});
