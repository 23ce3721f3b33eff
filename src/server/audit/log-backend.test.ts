import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backupName, openAuditLog } from './log-backend.ts';
import type { AuditEvent } from './event.ts';

const event = (auditID: string, pad = ''): AuditEvent => ({
  kind: 'Event', apiVersion: 'audit.svc.io/v1', level: 'Metadata', auditID, stage: 'ResponseComplete', requestURI: `/version${pad}`, verb: 'get',
  user: { username: 'u' }, requestReceivedTimestamp: '2026-01-02T03:04:05.000000Z', stageTimestamp: '2026-01-02T03:04:05.000001Z',
});

const tick = () => new Promise((r) => setImmediate(r));

test('events are JSON lines in a file only its owner reads; legacy lines on request', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'audit-log-'));
  const path = join(dir, 'sub', 'audit.log');
  const log = openAuditLog({ path });
  log.write(event('a'));
  log.write(event('b'));
  log.close();
  const lines = (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((e) => e.auditID), ['a', 'b']);
  assert.equal((await stat(path)).mode & 0o777, 0o600);
  const legacy = openAuditLog({ path: join(dir, 'legacy.log'), format: 'legacy' });
  legacy.write(event('c'));
  legacy.close();
  assert.match(await readFile(join(dir, 'legacy.log'), 'utf8'), /^2026-01-02T03:04:05Z AUDIT: id="c" stage="ResponseComplete" .* response="<deferred>"\n$/);
});

test('past maxsize the file is rotated; old backups beyond maxbackup go, the rest are gzipped', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'audit-rotate-'));
  const path = join(dir, 'audit.log');
  // Backups already there, older than anything the rotation writes.
  await writeFile(join(dir, 'audit-2020-01-01T00-00-00.000.log'), 'old\n');
  await writeFile(join(dir, 'audit-2020-01-02T00-00-00.000.log.gz'), 'older\n');
  await writeFile(join(dir, 'unrelated.txt'), 'x');
  const log = openAuditLog({ path, maxSizeMB: 1, maxBackups: 2, compress: true });
  const big = 'x'.repeat(400 * 1024);
  for (let i = 0; i < 3; i++) log.write(event(`e${i}`, big));
  await tick();
  log.close();
  const files = (await readdir(dir)).sort();
  const backups = files.filter((f) => f.startsWith('audit-'));
  assert.equal(backups.length, 2, files.join(' '));
  assert.ok(backups.includes('audit-2020-01-02T00-00-00.000.log.gz'));
  const rotated = backups.find((f) => !f.startsWith('audit-2020'))!;
  assert.match(rotated, /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log\.gz$/);
  const first = gunzipSync(await readFile(join(dir, rotated))).toString('utf8').trim().split('\n').map((l) => JSON.parse(l).auditID);
  assert.deepEqual(first, ['e0', 'e1']);
  assert.deepEqual((await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l).auditID), ['e2']);
  assert.ok(files.includes('unrelated.txt'));
});

test('backup names carry the UTC time of the rotation', () => {
  assert.equal(backupName('/var/log/audit.log', new Date(Date.UTC(2024, 4, 1, 10, 0, 0, 123))), '/var/log/audit-2024-05-01T10-00-00.123.log');
  assert.equal(backupName('/var/log/audit', new Date(Date.UTC(2024, 4, 1, 10, 0, 0, 5))), '/var/log/audit-2024-05-01T10-00-00.005');
});
