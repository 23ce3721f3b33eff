// Objects Kubernetes' API server keeps in place with loops of its own, not only at its start: the
// `kubernetes` Service and Endpoints (every 10 s), the system namespaces and the API Priority and Fairness configuration
// (every minute). One deleted comes back at the next pass; a pass with everything in order writes nothing.

export interface SystemObjectsLoop {
  /** What the loop keeps, for the log. */
  what: string;
  everyMs: number;
  ensure(): Promise<unknown>;
}

export function keepSystemObjects(loops: SystemObjectsLoop[], log: (line: string) => void): { stop(): Promise<void> } {
  const passes = new Set<Promise<void>>();
  const timers = loops.map((loop) => {
    let running = false;
    const timer = setInterval(() => {
      // A slow store may make a pass outlast the period: the next one waits for its turn.
      if (running) return;
      running = true;
      const pass = loop.ensure().then(
        () => {},
        (err) => log(`keeping ${loop.what}: ${(err as Error).message}`),
      ).finally(() => { running = false; passes.delete(pass); });
      passes.add(pass);
    }, loop.everyMs);
    timer.unref();
    return timer;
  });
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await Promise.all(passes);
    },
  };
}
