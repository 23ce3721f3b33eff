import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiServerMetrics, validateShowHiddenMetricsVersion } from './apiserver.ts';
import { parseRequestInfo } from '../requestinfo.ts';
import type { Request } from '../respond.ts';

const request = (method: string, url: string, headers: Record<string, string> = {}) => ({ method, url, headers }) as unknown as Request;

function record(m: ReturnType<typeof apiServerMetrics>, method: string, url: string, code: number, headers: Record<string, string> = {}): void {
  const u = new URL(url, 'https://x');
  m.recordRequest(request(method, url, headers), parseRequestInfo(method, u.pathname, u.searchParams), code);
}

test('--show-hidden-metrics-for-version accepts only the previous minor release, with Kubernetes message', () => {
  assert.equal(validateShowHiddenMetricsVersion(undefined), undefined);
  assert.equal(validateShowHiddenMetricsVersion(''), undefined);
  assert.equal(validateShowHiddenMetricsVersion('1.31'), undefined);
  for (const bad of ['1.32', '1.30', '1.31.0', 'v1.31']) {
    assert.equal(validateShowHiddenMetricsVersion(bad), "--show-hidden-metrics-for-version must be omitted or have the value '1.31'. Only the previous minor version is allowed");
  }
});

test('apiserver_request_total labels verbs, scope, dry run and code as Kubernetes does', () => {
  const m = apiServerMetrics();
  record(m, 'GET', '/api/v1/namespaces/default/configmaps', 200);
  record(m, 'GET', '/api/v1/namespaces/default/configmaps/a', 404);
  record(m, 'GET', '/api/v1/configmaps?watch=true', 200);
  record(m, 'POST', '/api/v1/namespaces/default/configmaps?dryRun=All', 201);
  record(m, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/d/scale', 200, { 'content-type': 'application/apply-patch+yaml' });
  record(m, 'DELETE', '/api/v1/namespaces/default/configmaps?dryRun=Bogus', 400);
  const text = m.registry.write();
  assert.match(text, /# HELP apiserver_request_total \[STABLE\] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code\.\n# TYPE apiserver_request_total counter\n/);
  const line = (labels: string) => assert.ok(text.includes(`apiserver_request_total{${labels}} 1\n`), labels);
  line('code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1"');
  line('code="404",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="GET",version="v1"');
  line('code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="cluster",subresource="",verb="WATCH",version="v1"');
  line('code="201",component="apiserver",dry_run="All",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"');
  line('code="200",component="apiserver",dry_run="",group="apps",resource="deployments",scope="resource",subresource="scale",verb="APPLY",version="v1"');
  line('code="400",component="apiserver",dry_run="invalid",group="",resource="configmaps",scope="namespace",subresource="",verb="DELETE",version="v1"');
});

test('the deprecated APIs gauge appears once set; stored objects and build info are written', () => {
  const m = apiServerMetrics();
  m.storedObjects(() => [['configmaps', 3], ['deployments.apps', 0]]);
  assert.doesNotMatch(m.registry.write(), /apiserver_requested_deprecated_apis/);
  m.requestedDeprecatedApis.set(['', 'v1', 'componentstatuses', '', ''], 1);
  const text = m.registry.write();
  assert.ok(text.includes('# HELP apiserver_requested_deprecated_apis [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.\n# TYPE apiserver_requested_deprecated_apis gauge\napiserver_requested_deprecated_apis{group="",removed_release="",resource="componentstatuses",subresource="",version="v1"} 1\n'));
  assert.ok(text.includes('apiserver_storage_objects{resource="configmaps"} 3\n'));
  assert.ok(text.includes('apiserver_storage_objects{resource="deployments.apps"} 0\n'));
  assert.match(text, /kubernetes_build_info\{.*git_version="v1\.32\.0-capstan".*major="1",minor="32".*\} 1\n/);
  assert.match(text, /# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes \d/);
  assert.match(text, /# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds\.\n/);
});
