// Runs with every test file. The files of a worker share its process (isolate: false), so what a file changes
// through vitest in the process (fake timers, stubbed environment variables or globals) is undone when the
// file ends, even when its own cleanup did not run.
import { afterAll, vi } from "vitest";

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
