// npm run bench [-- --quick] [--out FILE] [--only WORKLOAD] [--markdown FILE] [--keep]
// Runs Capstan, Capstan on etcd, the bare HTTP floor and raw etcd side by side, prints the figures and
// the ratios of issue 8 beside their targets, and writes them as JSON (--out) and markdown (--markdown).
import { parseArgs } from 'node:util';
import { writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { Context, REPO_ROOT, type Options } from './lib/context.ts';
import { onExitCleanup, stopAllChildren } from './lib/children.ts';
import { machineInfo, loadAverage, loopbackRoundTripUs, aesGcmMBps } from './lib/machine.ts';
import { computeRatios } from './lib/figures.ts';
import { figureTable, ratioTable, targetRows, markdown, type RunReport } from './lib/report.ts';
import { buildCapstanBundle, capstanAvailable } from './lib/capstan-server.ts';
import { floorSuite } from './suites/floor.ts';
import { etcdSuite } from './suites/etcd.ts';
import { readyEmptySuite, startServerSuite, storedSuite } from './suites/startup.ts';
import { capstanEmbeddedSuite, capstanEtcdSuite } from './suites/capstan-systems.ts';

const USAGE = `usage: npm run bench -- [--quick] [--out FILE] [--only WORKLOAD] [--markdown FILE] [--keep]
  --quick          short runs (under a minute), the same ratio keys
  --out FILE       write the figures, ratios and machine as JSON
  --only TEXT      run only workloads whose name contains TEXT (for development)
  --markdown FILE  write the results table as markdown (bench/RESULTS.md)
  --keep           keep the temporary data directories and logs
environment: CAPSTAN_ROOT=DIR benchmarks the Capstan checkout in DIR instead of this one;
  CAPSTAN_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" passes node options to every Capstan server started,
  FLOOR_NODE_ARGS the same to the HTTP floor`;

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      out: { type: 'string' },
      only: { type: 'string' },
      markdown: { type: 'string' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) { process.stdout.write(`${USAGE}\n`); process.exit(0); }
  return {
    quick: values.quick ?? false,
    out: values.out ? resolve(values.out) : null,
    only: values.only ?? null,
    markdown: values.markdown ? resolve(values.markdown) : null,
    keep: values.keep ?? false,
  };
}

async function main(): Promise<number> {
  const options = parseOptions();
  if (Number(process.versions.node.split('.')[0]) < 24) {
    process.stderr.write(`bench: needs Node 24 or newer (this is ${process.version}); run it as \`npm run bench\`\n`);
    return 2;
  }
  const ctx = new Context(options, tmpdir());
  if (!options.keep) onExitCleanup(() => rmSync(ctx.tmpRoot, { recursive: true, force: true }));
  const started = Date.now();
  const machine = machineInfo(REPO_ROOT);
  machine.loopbackRoundTripUs = await loopbackRoundTripUs();
  machine.aesGcmMBps = aesGcmMBps();
  if (machine.loadAverageAtStart[0] > machine.cores / 2) {
    ctx.log(`warning: load average ${machine.loadAverageAtStart[0]} on ${machine.cores} cores: other work is running, the figures will be noisy`);
  }
  ctx.log(`${options.quick ? 'quick' : 'full'} run on ${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}, loopback round trip ${machine.loopbackRoundTripUs ?? '-'} µs, AES-256-GCM ${machine.aesGcmMBps} MB/s; temp ${ctx.tmpRoot}`);

  let failures = 0;
  const step = async (name: string, fn: (c: Context) => Promise<void>) => {
    const t0 = Date.now();
    try {
      await fn(ctx);
    } catch (e) {
      failures++;
      ctx.note(`${name} failed: ${(e as Error).message.split('\n').slice(0, 6).join(' | ')}`);
    }
    ctx.log(`${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  };

  const capstan = capstanAvailable(REPO_ROOT);
  if (!capstan) ctx.note('Capstan is not runnable yet (src/cli.ts or bin/capstan.js is missing): only the floor and raw etcd were measured');
  if (capstan) await step('Capstan bundle', async () => buildCapstanBundle(REPO_ROOT));
  if (capstan) await step('Capstan start-up, empty', readyEmptySuite);
  if (capstan) await step('Capstan startServer()', startServerSuite);
  await step('HTTP floor', floorSuite);
  await step('raw etcd', etcdSuite);
  if (capstan) await step('Capstan', capstanEmbeddedSuite);
  if (capstan) await step('Capstan on etcd', capstanEtcdSuite);
  if (capstan) await step('Capstan with stored objects', storedSuite);
  await ctx.close();
  machine.loadAverageAtEnd = loadAverage();

  const ratios = computeRatios(ctx.figures);
  const report: RunReport = {
    mode: options.quick ? 'quick' : 'full',
    startedAt: new Date(started).toISOString(),
    durationS: (Date.now() - started) / 1000,
    machine,
    figures: ctx.figures.figures,
    ratios,
    targets: targetRows(ratios),
    notes: ctx.figures.notes,
  };
  process.stdout.write(`\n${figureTable(ctx.figures)}\n\n${ratioTable(ratios)}\n`);
  if (report.notes.length > 0) process.stdout.write(`\nnotes:\n${report.notes.map((n) => `- ${n}`).join('\n')}\n`);
  process.stdout.write(`\n${report.mode} run took ${report.durationS.toFixed(0)} s\n`);
  if (options.out) { writeFileSync(options.out, JSON.stringify(report, null, 2) + '\n'); ctx.log(`wrote ${options.out}`); }
  if (options.markdown) { writeFileSync(options.markdown, markdown(report, ctx.figures)); ctx.log(`wrote ${options.markdown}`); }
  if (options.keep) ctx.log(`kept data and logs in ${ctx.tmpRoot}`);
  return failures > 0 ? 1 : 0;
}

main().then(
  async (code) => { await stopAllChildren(); process.exit(code); },
  async (e: unknown) => { process.stderr.write(`bench: ${e instanceof Error ? e.stack : String(e)}\n`); await stopAllChildren(); process.exit(1); },
);
