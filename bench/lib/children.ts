// Every process the benchmark starts is registered here, so that it is stopped on every way out:
// normal end, an error, SIGINT or SIGTERM. Processes are stopped by their own pid, nothing broader.
import { spawn, fork, type ChildProcess, type SpawnOptions, type ForkOptions } from 'node:child_process';

const live = new Set<ChildProcess>();
let hooksInstalled = false;

function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once('exit', () => live.delete(child));
  installHooks();
  return child;
}

/** Node options for a server the benchmark starts, from an environment variable (to profile it under load). */
export function nodeArgsFrom(variable: string): string[] {
  return (process.env[variable] ?? '').split(/\s+/).filter(Boolean);
}

export function spawnTracked(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  return track(spawn(command, args, options));
}

export function forkTracked(modulePath: string, args: string[] = [], options: ForkOptions = {}): ChildProcess {
  return track(fork(modulePath, args, { execArgv: [], ...options }));
}

/** Stops one child: SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); }, graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...live].map((c) => stopChild(c)));
}

/** Synchronous last resort for process 'exit', where nothing asynchronous runs any more. */
function killAllNow(): void {
  for (const c of live) {
    if (c.exitCode === null && c.signalCode === null) {
      try { c.kill('SIGKILL'); } catch { /* already gone */ }
    }
  }
}

const cleanups: Array<() => void> = [];
/** Registers synchronous cleanup (temp dirs) that also runs on SIGINT. */
export function onExitCleanup(fn: () => void): void {
  cleanups.push(fn);
  installHooks();
}

function runCleanups(): void {
  while (cleanups.length > 0) {
    const fn = cleanups.pop()!;
    try { fn(); } catch { /* best effort */ }
  }
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once('exit', () => { killAllNow(); runCleanups(); });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping ${live.size} child process(es)\n`);
      void stopAllChildren().finally(() => { runCleanups(); process.exit(130); });
    });
  }
}
