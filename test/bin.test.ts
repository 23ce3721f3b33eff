// End-to-end: the package's `capstan` command (bin/capstan.js). On Node 24 it runs the CLI in its own
// process; on an older Node it runs the CLI on the package's Node 24 in a child, and a signal to the
// command must stop that child too (no server left running without its parent).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { serveProcess } from './support/serve-process.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'capstan.js');

/** A `node` on PATH older than 24 (outside this package's node_modules), if the machine has one. */
function olderNode(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir || dir.includes('node_modules')) continue;
    const candidate = join(dir, 'node');
    try {
      const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
      if (Number(version.slice(1).split('.')[0]) < 24) return candidate;
    } catch {
      // Not there, or not runnable.
    }
  }
  return undefined;
}

/** Processes whose command line names this data directory. */
async function processesServing(dataDir: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.split('\0').includes(dataDir)) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

async function serveAndStop(node: string, signal: NodeJS.Signals): Promise<{ code: number | null; left: number[] }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'capstan-bin-'));
  try {
    const { child, exited } = await serveProcess(dataDir, { node, script: BIN });
    child.kill(signal);
    const code = await exited;
    // The server's own process may take a moment after its parent is gone.
    let left = await processesServing(dataDir);
    for (let i = 0; i < 50 && left.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = await processesServing(dataDir);
    }
    for (const pid of left) process.kill(pid, 'SIGKILL');
    return { code, left };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('the capstan command', () => {
  it('on Node 24: serves, and stops cleanly on SIGTERM', async () => {
    const { code, left } = await serveAndStop(process.execPath, 'SIGTERM');
    assert.equal(code, 0);
    assert.deepEqual(left, []);
  });

  const older = olderNode();
  it('on an older Node: runs on the package Node 24, and SIGTERM and SIGINT stop the server too', { skip: older ? false : 'no Node older than 24 on PATH' }, async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const { code, left } = await serveAndStop(older!, signal);
      assert.equal(code, 0, signal);
      assert.deepEqual(left, [], `no server left running after ${signal}`);
    }
  });
});
