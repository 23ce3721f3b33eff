import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { COMPILE_CACHE_DIR, relaunchEnvironment } from './relaunch.ts';

test('the relaunched environment turns the compile cache on and has one malloc arena unless the user chose', () => {
  assert.deepEqual(relaunchEnvironment({ HOME: '/h' }), { HOME: '/h', MALLOC_ARENA_MAX: '1', NODE_COMPILE_CACHE: COMPILE_CACHE_DIR });
  assert.equal(relaunchEnvironment({ MALLOC_ARENA_MAX: '4' }).MALLOC_ARENA_MAX, '4');
});

test('a process relaunches itself once, with the gc exposed and the new environment, and keeps its arguments', { skip: typeof process.execve !== 'function' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-relaunch-'));
  try {
    const script = join(dir, 'probe.ts');
    writeFileSync(script, [
      `import { relaunchWithCompileCache } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, 'relaunch.ts')).href)};`,
      'relaunchWithCompileCache();',
      'console.log(JSON.stringify({ gc: typeof globalThis.gc, arenas: process.env.MALLOC_ARENA_MAX, cache: process.env.NODE_COMPILE_CACHE, args: process.argv.slice(2) }));',
    ].join('\n'));
    const env = { ...process.env };
    delete env.NODE_COMPILE_CACHE;
    delete env.MALLOC_ARENA_MAX;
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const r = spawnSync(process.execPath, [script, 'serve', '--x'], { env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { gc: 'function', arenas: '1', cache: COMPILE_CACHE_DIR, args: ['serve', '--x'] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
