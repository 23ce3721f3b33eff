import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, get, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addWarning, markDeprecatedRequest } from './deprecated-request.ts';
import { apiServerMetrics } from './metrics/apiserver.ts';
import { parseRequestInfo } from './requestinfo.ts';
import { send, warningHeader } from './respond.ts';
import type { ServedResource } from './apis.ts';

/** The Warning headers a real HTTP answer carries when `respond` writes it after addWarning. */
async function warningsOf(respond: (res: ServerResponse) => void): Promise<string[]> {
  const server = createServer((req, res) => { addWarning(res, 'v1 Thing is deprecated in v1.19+'); respond(res); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/' }, (res) => { res.resume(); res.on('end', () => resolve(res.headers)); }).on('error', reject);
    });
    return String(headers.warning ?? '').split(/,\s*(?=299)/).filter(Boolean);
  } finally {
    server.close();
  }
}

test('the deprecation warning comes first, whatever the handler sends itself', async () => {
  const ours = '299 - "v1 Thing is deprecated in v1.19+"';
  assert.deepEqual(await warningsOf((res) => send(res, 200, 'application/json', '{}')), [ours]);
  assert.deepEqual(await warningsOf((res) => send(res, 201, 'application/json', '{}', warningHeader(['unknown field "x"']))), [ours, '299 - "unknown field \\"x\\""']);
  assert.deepEqual(await warningsOf((res) => { res.setHeader('Warning', '299 - "set before"'); res.writeHead(200); res.end(); }), [ours, '299 - "set before"']);
  assert.deepEqual(await warningsOf((res) => { res.writeHead(404, 'Not Found', { 'content-type': 'text/plain' }); res.end(); }), [ours]);
  // A failed write's warnings are set before its error Status is sent with headers of its own.
  assert.deepEqual(await warningsOf((res) => { res.setHeader('Warning', '299 - "set before"'); send(res, 409, 'application/json', '{}'); }), [ours, '299 - "set before"']);
});

test('a deprecated request sets the gauge and annotates the audit event; the removal release when known', () => {
  const metrics = apiServerMetrics();
  const annotations: Record<string, string> = {};
  const served = {
    def: { group: 'batch', plural: 'cronjobs' },
    version: { name: 'v1beta1', deprecated: { warning: 'batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob', removedRelease: '1.25' } },
  } as unknown as ServedResource;
  const headers: Record<string, unknown> = {};
  const res = { writeHead: () => res, getHeader: (k: string) => headers[k], setHeader: (k: string, v: unknown) => { headers[k] = v; } } as unknown as ServerResponse;
  markDeprecatedRequest(res, served, parseRequestInfo('GET', '/apis/batch/v1beta1/namespaces/a/cronjobs/c/status', new URLSearchParams()), metrics, { annotate: (k, v) => { annotations[k] = v; } });
  assert.deepEqual(annotations, { 'svc.io/deprecated': 'true', 'svc.io/removed-release': '1.25' });
  assert.ok(metrics.registry.write().includes('apiserver_requested_deprecated_apis{group="batch",removed_release="1.25",resource="cronjobs",subresource="status",version="v1beta1"} 1\n'));
  res.writeHead(200);
  assert.deepEqual(headers.warning, ['299 - "batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob"']);
});
