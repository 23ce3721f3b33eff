import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeRatios, FigureSet, SYSTEMS, W } from './figures.ts';
import { markdown, type RunReport } from './report.ts';

test('the table puts each system\'s CPU per create in its column, beside the create rates, with its footnote', () => {
  const figures = new FigureSet();
  figures.add(SYSTEMS.capstan, W.create, 50, 'req/s', [19_000, 20_000, 21_000]);
  figures.add(SYSTEMS.etcd, W.put, 50, 'ops/s', [14_000, 15_000, 16_000]);
  const note = 'CPU time (user + system) over 20,000 creates, per create';
  figures.add(SYSTEMS.capstan, W.createServerCpu, 50, 'µs/req', [55, 59, 80], note);
  figures.add(SYSTEMS.floor, W.createServerCpu, 50, 'µs/req', [16, 16.5, 17], note);
  figures.add(SYSTEMS.etcd, W.createServerCpu, 50, 'µs/req', [44, 48, 49], note);
  figures.add(SYSTEMS.capstan, W.createClientCpu, 50, 'µs/req', [24, 25, 26], note);
  figures.add(SYSTEMS.etcd, W.createClientCpu, 50, 'µs/req', [60, 68.5, 70], note);
  const report: RunReport = {
    mode: 'full', startedAt: '2026-11-22T00:00:00Z', durationS: 400, figures: figures.figures, ratios: computeRatios(figures), targets: [], notes: [],
    machine: { cpuModel: 'cpu', cores: 2, memoryGiB: 8, kernel: 'k', node: 'v24', etcd: '3.4', loadAverageAtStart: [1, 1, 1], capstanCommit: 'abc' },
  };
  const lines = markdown(report, figures).split('\n');
  const row = (label: string) => lines.find((l) => l.startsWith(`| ${label} |`))!.split(' | ');
  const server = row('create: server CPU per request (all its threads; Capstan on etcd: with its etcd)');
  assert.deepEqual(server.slice(1, 7), ['50', 'µs/req', '59.0 (55.0–80.0) [1]', '-', '16.5 (16.0–17.0) [1]', '48.0 (44.0–49.0) [1]']);
  const client = row('create: load generator CPU per request (the client)');
  assert.deepEqual(client.slice(3, 7), ['25.0 (24.0–26.0) [1]', '-', '-', '68.5 (60.0–70.0) [1]']);
  assert.ok(lines.includes(`1. ${note}`));
  // The rows follow the create rate they explain.
  assert.ok(lines.findIndex((l) => l.startsWith('| create | 50 |')) < lines.indexOf(lines.find((l) => l.startsWith('| create: server CPU'))!));
});

test('the machine\'s loopback round trip and AES-GCM speed are stated under its line, when measured', () => {
  const figures = new FigureSet();
  const base = { mode: 'full' as const, startedAt: '2026-11-29T00:00:00Z', durationS: 500, figures: [], ratios: computeRatios(figures), targets: [], notes: [] };
  const machine = { cpuModel: 'cpu', cores: 2, memoryGiB: 8, kernel: 'k', node: 'v24', etcd: '3.4', loadAverageAtStart: [1, 1, 1], capstanCommit: 'abc' };
  const measured = markdown({ ...base, machine: { ...machine, loopbackRoundTripUs: 141.8, aesGcmMBps: 278 } }, figures);
  assert.match(measured, /loopback TCP round trip to another process took 141\.8 µs/);
  assert.match(measured, /One thread encrypted 278 MB\/s with AES-256-GCM/);
  const unmeasured = markdown({ ...base, machine }, figures);
  assert.doesNotMatch(unmeasured, /round trip|AES-256-GCM|Machines differ/);
});
