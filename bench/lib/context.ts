// What every suite of a run shares: the options, the figures so far, the load-generating child process
// and the places for temporary data and logs.
import { mkdtempSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FigureSet } from './figures.ts';
import { WorkerClient } from './worker-client.ts';
import type { RunShape } from '../loadgen/jobs.ts';

export const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
/** The Capstan checkout to benchmark: this repository, or the one named by CAPSTAN_ROOT. */
export const REPO_ROOT = process.env.CAPSTAN_ROOT ? resolve(process.env.CAPSTAN_ROOT) : join(BENCH_DIR, '..');

export interface Options { quick: boolean; out: string | null; only: string | null; markdown: string | null; keep: boolean }

export class Context {
  readonly options: Options;
  readonly figures = new FigureSet();
  readonly tmpRoot: string;
  readonly logDir: string;
  readonly shape: RunShape;
  /** Capstan's data directory whose pki/ the floor borrows its serving certificate from. */
  capstanPkiDir: string | null = null;
  private httpWorker: WorkerClient | null = null;
  private dirCounter = 0;

  constructor(options: Options, tmpParent: string) {
    this.options = options;
    this.tmpRoot = mkdtempSync(join(tmpParent, 'capstan-bench-'));
    this.logDir = join(this.tmpRoot, 'logs');
    mkdirSync(this.logDir);
    this.shape = options.quick ? { warmupS: 0.3, durationS: 0.8, runs: 3 } : { warmupS: 1, durationS: 2.5, runs: 3 };
  }

  get quick(): boolean { return this.options.quick; }

  /** True when the workload is selected by --only (a case-insensitive substring), or there is no --only. */
  wants(...workloads: string[]): boolean {
    const only = this.options.only?.toLowerCase();
    return !only || workloads.some((w) => w.toLowerCase().includes(only));
  }

  freshDir(name: string): string {
    const dir = join(this.tmpRoot, `${name}-${++this.dirCounter}`);
    mkdirSync(dir);
    return dir;
  }

  log(msg: string): void { process.stderr.write(`bench: ${msg}\n`); }

  note(msg: string): void {
    this.figures.notes.push(msg);
    this.log(`note: ${msg}`);
  }

  /** The one HTTP load-generating process, the same client for every system. */
  http(): WorkerClient {
    this.httpWorker ??= new WorkerClient(join(BENCH_DIR, 'loadgen', 'http-worker.ts'));
    return this.httpWorker;
  }

  async close(): Promise<void> {
    await this.httpWorker?.close();
    this.httpWorker = null;
  }
}
