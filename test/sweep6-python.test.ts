// End-to-end: the official Python client against Capstan, as an acceptance test written from the spec's
// server-side apply section drives it (DynamicClient.server_side_apply and raw call_api), compared with
// Kubernetes v1.32. Kubernetes types an apply body against the schema before merging it; a field the schema
// does not declare, or two list items with one key, fail that typing as a plain error: HTTP 500, a Status
// without a reason, naming the body's own namespace and name (whatever fieldValidation says).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { pythonClient, runPython } from './support/python.ts';

const SCRIPT = `
import sys, json
from kubernetes import client, config, dynamic
from kubernetes.client.rest import ApiException
from kubernetes.dynamic.exceptions import DynamicApiError
config.load_kube_config(sys.argv[1])
api = client.ApiClient()
dc = dynamic.DynamicClient(api)
core = client.CoreV1Api(api)
core.create_namespace({'metadata': {'name': 'py6'}})
out = {}
def attempt(label, f):
    try:
        f()
        out[label] = 'applied'
    except (ApiException, DynamicApiError) as e:
        body = e.body.decode() if isinstance(e.body, bytes) else e.body
        out[label] = [e.status, e.reason, json.loads(body)]
cm = dc.resources.get(api_version='v1', kind='ConfigMap')
dep = dc.resources.get(api_version='apps/v1', kind='Deployment')
lease = dc.resources.get(api_version='coordination.svc.io/v1', kind='Lease')
apply = lambda r, body, **kw: r.server_side_apply(body=json.dumps(body), name=body['metadata']['name'], namespace='py6', field_manager='py', **kw)
attempt('top', lambda: apply(cm, {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'c'}, 'data': {'k': 'v'}, 'bogus': 1}))
attempt('meta', lambda: apply(cm, {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'c', 'namespace': 'py6', 'bogus': 1}}))
template = {'metadata': {'labels': {'a': 'b'}}, 'spec': {'containers': [{'name': 'c', 'image': 'i', 'bogus': 1}]}}
attempt('nested', lambda: apply(dep, {'apiVersion': 'apps/v1', 'kind': 'Deployment', 'metadata': {'name': 'd'}, 'spec': {'selector': {'matchLabels': {'a': 'b'}}, 'template': template}}))
attempt('two', lambda: apply(dep, {'apiVersion': 'apps/v1', 'kind': 'Deployment', 'metadata': {'name': 'd', 'bogus': 1}, 'spec': {'template': template}}))
twice = {'spec': {'containers': [{'name': 'c', 'image': 'i'}, {'name': 'c', 'image': 'j'}]}}
attempt('dupkey', lambda: apply(dep, {'apiVersion': 'apps/v1', 'kind': 'Deployment', 'metadata': {'name': 'd', 'namespace': 'py6'}, 'spec': {'template': twice}}))
attempt('lease', lambda: apply(lease, {'apiVersion': 'coordination.svc.io/v1', 'kind': 'Lease', 'metadata': {'name': 'l'}, 'spec': {'holder': 'me'}}))
strict = lambda fv: api.call_api('/api/v1/namespaces/py6/configmaps/c', 'PATCH', query_params=[('fieldManager', 'py'), ('fieldValidation', fv)], body=json.dumps({'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'c'}, 'spec': {}}), header_params={'Content-Type': 'application/apply-patch+yaml'})
attempt('strict', lambda: strict('Strict'))
attempt('ignore', lambda: strict('Ignore'))
try:
    core.read_namespaced_config_map('c', 'py6')
    out['stored'] = True
except ApiException as e:
    out['stored'] = e.status
attempt('valid', lambda: apply(cm, {'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'c'}, 'data': {'k': 'v'}}))
print(json.dumps(out))
`;

/** A Status as Kubernetes writes an error that is not one (code 500, no reason). */
const plainError = (message: string) => [500, 'Internal Server Error', { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 }];

describe('Python client: server-side apply of bodies the schema does not type', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('fails with the typing error, stores nothing, and a typed body then applies', { skip: !pythonClient && 'the Python kubernetes client is not importable' }, async () => {
    const r = await runPython(SCRIPT, [s.kubeconfigPath]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim());
    assert.deepEqual(out.top, plainError('failed to create typed patch object (/c; /v1, Kind=ConfigMap): .bogus: field not declared in schema'));
    assert.deepEqual(out.meta, plainError('failed to create typed patch object (py6/c; /v1, Kind=ConfigMap): .metadata.bogus: field not declared in schema'));
    // A keyed list item is named by its key; several undeclared fields (one per struct: its
    // walk stops at the first) are listed as structured merge lists them.
    assert.deepEqual(out.nested, plainError('failed to create typed patch object (/d; apps/v1, Kind=Deployment): .spec.template.spec.containers[name="c"].bogus: field not declared in schema'));
    assert.deepEqual(out.two, plainError('failed to create typed patch object (/d; apps/v1, Kind=Deployment): errors:\n  .metadata.bogus: field not declared in schema\n  .spec.template.spec.containers[name="c"].bogus: field not declared in schema'));
    assert.deepEqual(out.dupkey, plainError('failed to create typed patch object (py6/d; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="c"]'));
    assert.deepEqual(out.lease, plainError('failed to create typed patch object (/l; coordination.svc.io/v1, Kind=Lease): .spec.holder: field not declared in schema'));
    const strict = plainError('failed to create typed patch object (/c; /v1, Kind=ConfigMap): .spec: field not declared in schema');
    assert.deepEqual(out.strict, strict);
    assert.deepEqual(out.ignore, strict);
    assert.equal(out.stored, 404);
    assert.equal(out.valid, 'applied');
  });
});
