// The unit tests alone (pure code, no database): what mutation testing runs (stryker.config.json).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The time-zone package by its path beside this file, not through node_modules: Stryker runs the tests in a
  // copy of the checkout whose node_modules links back to the original, so the package's mutated copy would
  // otherwise never be the one tested.
  resolve: {
    alias: {
      "@payout-orchestration/time-zone": fileURLToPath(new URL("./packages/time-zone/src/time-zone.js", import.meta.url)),
    },
  },
  test: {
    include: ["test/unit/**/*.test.ts"],
    reporters: ["default"],
  },
});
