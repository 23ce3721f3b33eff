import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { Context } from '../lib/context.ts';
import { W } from '../lib/figures.ts';
import { cpuPerCreateFigures } from './common.ts';

const context = (only: string | null = null) => new Context({ quick: true, out: null, only, markdown: null, keep: false }, tmpdir());

/** Spins this process for `ms` of CPU time (user and system: asking for it is a system call). */
function burn(ms: number): void {
  const used = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  const until = used() + ms;
  while (used() < until) { /* spin */ }
}

test('CPU per create: the server\'s and the load generator\'s CPU time over each run, divided by the creates', async () => {
  const ctx = context();
  try {
    // This process is both: each run of 5,000 creates takes 250 ms of its CPU, 50 µs a create.
    await cpuPerCreateFigures(ctx, 'sys', [process.pid], process.pid, async (_run, amount) => { burn(250); return amount; });
    for (const workload of [W.createServerCpu, W.createClientCpu]) {
      const f = ctx.figures.find('sys', workload, 50)!;
      assert.equal(f.unit, 'µs/req');
      assert.equal(f.runs.length, ctx.shape.runs);
      // /proc counts in 10 ms ticks, and the process has other threads: about 50, not 5 or 500.
      for (const r of f.runs) assert.ok(r >= 40 && r <= 65, `${workload}: ${r} µs`);
    }
    await assert.rejects(
      cpuPerCreateFigures(ctx, 'short', [process.pid], process.pid, async (_run, amount) => amount - 1),
      /short: 4999 of 5000 creates succeeded/,
    );
  } finally {
    await ctx.close();
  }
});

test('CPU per create is not measured when --only names another workload', async () => {
  const ctx = context('list');
  try {
    let called = false;
    await cpuPerCreateFigures(ctx, 'sys', [process.pid], process.pid, async (_run, amount) => { called = true; return amount; });
    assert.equal(called, false);
    assert.equal(ctx.figures.figures.length, 0);
  } finally {
    await ctx.close();
  }
});
