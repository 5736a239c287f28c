/**
 * Work a request starts and does not wait for, so that its answer takes as long whatever the work finds (a
 * failed sign-in's record, a mailed link: Part A 7, enumeration-safe timing). The node still owns that work:
 * closing waits for it (`drain`), so nothing of a stopped node writes to the database afterwards.
 */
export interface AfterAnswer {
  /** Starts `work` now without waiting for it; its failure goes to `onError` (it never rejects anything). */
  run(work: () => Promise<unknown>, onError: (error: Error) => void): void;
  /** Resolves once no work is running, including work started by work that was running when it was called. */
  drain(): Promise<void>;
  /** How many runs are in progress. */
  size(): number;
}

export function createAfterAnswer(): AfterAnswer {
  const running = new Set<Promise<void>>();
  return {
    run(work, onError) {
      const settled = (async () => {
        try {
          await work();
        } catch (error) {
          onError(error instanceof Error ? error : new Error(String(error)));
        }
      })();
      running.add(settled);
      const forget = () => running.delete(settled);
      settled.then(forget, forget);
    },
    async drain() {
      while (running.size > 0) await Promise.all(running);
    },
    size: () => running.size,
  };
}
