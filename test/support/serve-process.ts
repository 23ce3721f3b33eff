// `capstan serve` in a process of its own, as a user starts it: resolves once it says where it serves.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli.ts');

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** The exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

/** Runs `<node> <script> serve --data-dir DIR --secure-port 0 [args]` (by default this Node and the CLI). */
export function serveProcess(dataDir: string, opts: { node?: string; script?: string; args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<ServeProcess> {
  const args = [opts.script ?? CLI, 'serve', '--data-dir', dataDir, '--secure-port', '0', ...(opts.args ?? [])];
  const child = spawn(opts.node ?? process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => { err += d; });
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /serving (https:\/\/\S+?);/.exec(out);
      if (m) resolve({ child, url: m[1], exited });
    });
    child.on('exit', (code) => reject(new Error(`capstan exited with ${code}: ${err}`)));
  });
}
