// The unit tests alone (pure code, no database): what mutation testing runs (stryker.config.json).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    reporters: ["default"],
  },
});
