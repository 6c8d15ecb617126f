// Resources a benchmark must release even when the run is interrupted (Ctrl-C) or fails: child
// processes, scratch databases, temporary directories. Each registers an undo step and removes it when
// released normally; runPendingCleanups() runs whatever is left, newest first.
type Cleanup = () => Promise<void>;

const pending = new Set<Cleanup>();

/** Registers `undo` and returns a function that runs it once and unregisters it. */
export function registerCleanup(undo: Cleanup): () => Promise<void> {
  let done = false;
  const release = async () => {
    if (done) return;
    done = true;
    pending.delete(release);
    await undo();
  };
  pending.add(release);
  return release;
}

export async function runPendingCleanups(): Promise<void> {
  for (const release of [...pending].reverse()) {
    await release().catch((error: unknown) => {
      process.stderr.write(`cleanup failed: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  }
}
