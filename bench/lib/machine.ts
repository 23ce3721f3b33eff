// The machine a run happened on, recorded beside its figures.
import { cpus, totalmem, availableParallelism, loadavg, release } from 'node:os';
import { execFileSync } from 'node:child_process';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  node: string;
  etcd: string | null;
  loadAverageAtStart: number[];
  /** Filled in when the run ends: other work on the machine shows here. */
  loadAverageAtEnd?: number[];
  capstanCommit: string | null;
}

function tryRun(cmd: string, args: string[], cwd?: string): string | null {
  try { return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { return null; }
}

export function etcdVersion(): string | null {
  const out = tryRun('etcd', ['--version']);
  return out ? (/etcd Version:\s*(\S+)/.exec(out)?.[1] ?? out.split('\n')[0]) : null;
}

/** The short commit of the checkout, with "+changes" when src/ differs from it. */
function commitOf(repoRoot: string): string | null {
  const head = tryRun('git', ['rev-parse', '--short', 'HEAD'], repoRoot);
  if (!head) return null;
  return tryRun('git', ['status', '--porcelain', '--', 'src'], repoRoot) ? `${head}+changes` : head;
}

export function loadAverage(): number[] {
  return loadavg().map((l) => Math.round(l * 100) / 100);
}

export function machineInfo(repoRoot: string): MachineInfo {
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    kernel: release(),
    node: process.version,
    etcd: etcdVersion(),
    loadAverageAtStart: loadAverage(),
    capstanCommit: commitOf(repoRoot),
  };
}
