// Every create the SQLite backend acknowledged survives the writer being killed with SIGKILL.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { crashValueFor } from './fixtures/crash-values.ts';

const fixture = fileURLToPath(new URL('./fixtures/sqlite-crash-writer.ts', import.meta.url));

/** Runs the writer until it has acknowledged `acks` keys, then kills it; returns the acknowledged keys. */
async function writeThenKill(path: string, acks: number): Promise<string[]> {
  const child = spawn(process.execPath, [fixture, path, '20'], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acked: string[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    acked.push(...lines);
    if (acked.length >= acks && child.exitCode === null && !child.killed) child.kill('SIGKILL');
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  assert.equal(signal, 'SIGKILL', `the writer should have been killed, not exited (${code}): ${stderr}`);
  return acked;
}

it('every acknowledged create survives SIGKILL, with contiguous revisions', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-crash-'));
  const path = join(dir, 'state.db');
  try {
    const acked = await writeThenKill(path, 400);
    assert.ok(acked.length >= 400);

    const storage = SqliteStorage.open(path);
    try {
      const { kvs, revision } = await storage.range('/crash/');
      const found = new Map(kvs.map((kv) => [kv.key, kv]));
      for (const key of acked) {
        const kv = found.get(key);
        assert.ok(kv, `acknowledged ${key} is missing`);
        assert.equal(kv.value, crashValueFor(key));
      }
      // Only creates were written: their revisions are exactly 1..current, with no gap.
      const revisions = kvs.map((kv) => kv.modRevision).sort((x, y) => x - y);
      assert.deepEqual(
        revisions,
        Array.from({ length: revision }, (_, i) => i + 1),
      );
      assert.ok(kvs.every((kv) => kv.createRevision === kv.modRevision));
      // The store goes on from there.
      assert.equal((await storage.create('/crash/after', 'x')).modRevision, revision + 1);
    } finally {
      await storage.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
