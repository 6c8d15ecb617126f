// Runs with every test file. The files of a worker share its process (isolate: false), so what a file changes
// through vitest in the process (fake timers, stubbed environment variables or globals) is undone when the
// file ends, even when its own cleanup did not run.
import { afterAll, vi } from "vitest";
import { usePasswordHashCostForTests } from "../../src/platform/crypto.js";

// New password hashes cost scrypt N=2^10 instead of 2^15 in the test processes (src/platform/crypto.ts): the
// suite signs in, invites and resets hundreds of times. Hashes stay self-describing, so verification is the
// production code path; test/unit/crypto-and-keys.test.ts covers the production cost itself.
usePasswordHashCostForTests();

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
