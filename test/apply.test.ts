// End-to-end: kubectl apply in all its forms (client-side with the last-applied annotation and strategic
// merge, server-side with field ownership and conflicts), kubectl diff, patch, label and annotate, and the
// raw apply and strategic merge endpoints, against a real Capstan.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { call } from './support/write-helpers.ts';
import { META_GROUP } from '../src/server/params.ts';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

interface Entry { manager: string; operation: string; apiVersion: string; time?: string; fieldsType: string; fieldsV1: unknown; subresource?: string }

function configMap(name: string, data: Record<string, string>, labels?: Record<string, string>): string {
  return YAML.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) }, data });
}

/** The entries without their times (checked for form separately: an apply that changed nothing sets none). */
function entries(obj: { metadata: { managedFields?: Entry[] } }): Omit<Entry, 'time'>[] {
  return (obj.metadata.managedFields ?? []).map(({ time, ...rest }) => {
    if (time !== undefined) assert.match(time, RFC3339);
    return rest;
  });
}

describe('kubectl apply and field ownership', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  const kubectl = async (args: string[], input?: string) => s.kubectl(args, input);
  const ok = async (args: string[], input?: string) => {
    const r = await kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const getJson = async (...args: string[]) => JSON.parse(await ok(['get', ...args, '--show-managed-fields', '-o', 'json']));

  describe('client-side apply', () => {
    it('a ConfigMap applied twice, then with a changed and a removed field, is exactly the intended object', async () => {
      assert.match(await ok(['apply', '-f', '-'], configMap('csa', { a: '1', b: '2' }, { tier: 'web' })), /configmap\/csa created/);
      assert.match(await ok(['apply', '-f', '-'], configMap('csa', { a: '1', b: '2' }, { tier: 'web' })), /configmap\/csa unchanged/);
      assert.match(await ok(['apply', '-f', '-'], configMap('csa', { a: '9' })), /configmap\/csa configured/);
      const cm = await getJson('cm', 'csa');
      assert.deepEqual(cm.data, { a: '9' });
      assert.equal(cm.metadata.labels, undefined);
      assert.deepEqual(Object.keys(cm.metadata.annotations), [LAST_APPLIED]);
      assert.deepEqual(JSON.parse(cm.metadata.annotations[LAST_APPLIED]), { apiVersion: 'v1', data: { a: '9' }, kind: 'ConfigMap', metadata: { annotations: {}, name: 'csa', namespace: 'default' } });
      assert.deepEqual(entries(cm), [{
        apiVersion: 'v1', fieldsType: 'FieldsV1', manager: 'kubectl-client-side-apply', operation: 'Update',
        fieldsV1: { 'f:data': { '.': {}, 'f:a': {} }, 'f:metadata': { 'f:annotations': { '.': {}, [`f:${LAST_APPLIED}`]: {} } } },
      }]);
    });

    it('a ClusterRole: its atomic rules are replaced whole', async () => {
      const role = (verbs: string[], labels?: Record<string, string>) => YAML.stringify({
        apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRole', metadata: { name: 'apply-reader', ...(labels ? { labels } : {}) },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }],
      });
      assert.match(await ok(['apply', '-f', '-'], role(['get', 'list'], { team: 'a' })), /clusterrole\.rbac\.authorization\.svc\.io\/apply-reader created/);
      assert.match(await ok(['apply', '-f', '-'], role(['get', 'list'], { team: 'a' })), /unchanged/);
      assert.match(await ok(['apply', '-f', '-'], role(['watch'])), /configured/);
      const cr = await getJson('clusterrole', 'apply-reader');
      assert.deepEqual(cr.rules, [{ apiGroups: [''], resources: ['configmaps'], verbs: ['watch'] }]);
      assert.equal(cr.metadata.labels, undefined);
    });

    it('merges lists by their merge key: a ServiceAccount keeps secrets added by others', async () => {
      const sa = (secrets: string[]) => YAML.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'csa-sa', namespace: 'default' }, secrets: secrets.map((name) => ({ name })) });
      await ok(['apply', '-f', '-'], sa(['one']));
      await ok(['patch', 'sa', 'csa-sa', '--type', 'strategic', '-p', '{"secrets":[{"name":"added-by-hand"}]}']);
      await ok(['apply', '-f', '-'], sa(['two']));
      const got = await getJson('sa', 'csa-sa');
      assert.deepEqual(got.secrets.map((x: { name: string }) => x.name).sort(), ['added-by-hand', 'two']);
    });
  });

  describe('server-side apply', () => {
    it('creates and updates, recording one Apply entry for kubectl', async () => {
      assert.match(await ok(['apply', '--server-side', '-f', '-'], configMap('ssa', { a: '1', b: '2' }, { app: 'x' })), /configmap\/ssa serverside-applied/);
      let cm = await getJson('cm', 'ssa');
      assert.deepEqual(entries(cm), [{
        apiVersion: 'v1', fieldsType: 'FieldsV1', manager: 'kubectl', operation: 'Apply',
        fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } },
      }]);
      await ok(['apply', '--server-side', '-f', '-'], configMap('ssa', { a: '3' }, { app: 'x' }));
      cm = await getJson('cm', 'ssa');
      assert.deepEqual(cm.data, { a: '3' }, 'a field kubectl applied before and omits now is removed');
      assert.deepEqual(entries(cm)[0].fieldsV1, { 'f:data': { 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } });
    });

    it('a second manager changing an owned field gets the conflict; --force-conflicts takes it', async () => {
      const r = await kubectl(['apply', '--server-side', '--field-manager', 'team-b', '-f', '-'], configMap('ssa', { a: '4' }));
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Apply failed with 1 conflict: conflict with "kubectl": \.data\.a/);
      assert.match(r.stderr, /--force-conflicts/);
      assert.deepEqual((await getJson('cm', 'ssa')).data, { a: '3' });
      await ok(['apply', '--server-side', '--force-conflicts', '--field-manager', 'team-b', '-f', '-'], configMap('ssa', { a: '4' }));
      const cm = await getJson('cm', 'ssa');
      assert.deepEqual(cm.data, { a: '4' });
      assert.deepEqual(entries(cm), [
        { apiVersion: 'v1', fieldsType: 'FieldsV1', manager: 'kubectl', operation: 'Apply', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } } } },
        { apiVersion: 'v1', fieldsType: 'FieldsV1', manager: 'team-b', operation: 'Apply', fieldsV1: { 'f:data': { 'f:a': {} } } },
      ]);
    });

    it('equal values make shared ownership, and a field another manager still owns survives its removal', async () => {
      await ok(['apply', '--server-side', '--field-manager', 'team-c', '-f', '-'], configMap('ssa', { a: '4' }, { app: 'x' }));
      let cm = await getJson('cm', 'ssa');
      // Applying the live values changes nothing, so team-c's entry has no time, and sorts first.
      assert.deepEqual(cm.metadata.managedFields.map((e: Entry) => [e.manager, e.time !== undefined]), [['team-c', false], ['kubectl', true], ['team-b', true]]);
      await ok(['apply', '--server-side', '--field-manager', 'team-b', '-f', '-'], configMap('ssa', { z: '1' }));
      cm = await getJson('cm', 'ssa');
      assert.deepEqual(cm.data, { a: '4', z: '1' }, 'team-c still owns .data.a');
    });

    it('label, annotate and patch record Update entries', async () => {
      await ok(['label', 'cm', 'ssa', 'tier=db']);
      await ok(['annotate', 'cm', 'ssa', 'note=hello']);
      await ok(['patch', 'cm', 'ssa', '--type', 'merge', '-p', '{"data":{"m":"1"}}']);
      const cm = await getJson('cm', 'ssa');
      const updates = entries(cm).filter((e) => e.operation === 'Update');
      assert.deepEqual(updates.find((e) => e.manager === 'kubectl-label')?.fieldsV1, { 'f:metadata': { 'f:labels': { 'f:tier': {} } } });
      assert.deepEqual(updates.find((e) => e.manager === 'kubectl-annotate')?.fieldsV1, { 'f:metadata': { 'f:annotations': { '.': {}, 'f:note': {} } } });
      assert.deepEqual(updates.find((e) => e.manager === 'kubectl-patch')?.fieldsV1, { 'f:data': { 'f:m': {} } });
    });

    it('migrates from client-side apply without conflicts and keeps the annotation current', async () => {
      await ok(['apply', '-f', '-'], configMap('migrate', { a: '1' }));
      await ok(['apply', '--server-side', '-f', '-'], configMap('migrate', { a: '2' }));
      const cm = await getJson('cm', 'migrate');
      assert.deepEqual(cm.data, { a: '2' });
      assert.deepEqual(JSON.parse(cm.metadata.annotations[LAST_APPLIED]).data, { a: '2' });
    });
  });

  describe('a Deployment', () => {
    const deployment = (name: string, image: string, opts: { replicas?: number; env?: boolean } = {}) => YAML.stringify({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default', labels: { app: name } },
      spec: {
        ...(opts.replicas !== undefined ? { replicas: opts.replicas } : {}),
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: 'web', image, ports: [{ containerPort: 80 }], ...(opts.env ? { env: [{ name: 'A', value: '1' }] } : {}) }] },
        },
      },
    });

    it('client-side apply twice, then with a changed and a removed field; kubectl scale records a scale entry', async () => {
      assert.match(await ok(['apply', '-f', '-'], deployment('csa-deploy', 'nginx:1.25', { replicas: 2, env: true })), /deployment\.apps\/csa-deploy created/);
      assert.match(await ok(['apply', '-f', '-'], deployment('csa-deploy', 'nginx:1.25', { replicas: 2, env: true })), /unchanged/);
      assert.match(await ok(['apply', '-f', '-'], deployment('csa-deploy', 'nginx:1.26', { replicas: 2 })), /configured/);
      let d = await getJson('deploy', 'csa-deploy');
      assert.deepEqual(d.spec.template.spec.containers.map((c: Record<string, unknown>) => [c.name, c.image, c.env]), [['web', 'nginx:1.26', undefined]]);
      assert.equal(d.spec.replicas, 2);
      const csa = entries(d).find((e) => e.manager === 'kubectl-client-side-apply')!;
      // As Kubernetes records a created Deployment: no "." under spec, template or strategy (Go structs by
      // value), "." for maps, list items and pointers that appeared.
      const spec = (csa.fieldsV1 as Record<string, Record<string, unknown>>)['f:spec'];
      assert.deepEqual(spec['f:strategy'], { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} });
      assert.deepEqual((spec['f:template'] as Record<string, unknown>)['f:metadata'], { 'f:labels': { '.': {}, 'f:app': {} } });
      const podSpec = (spec['f:template'] as Record<string, Record<string, Record<string, unknown>>>)['f:spec'];
      assert.deepEqual(Object.keys(podSpec['f:containers']), ['k:{"name":"web"}']);
      assert.deepEqual(podSpec['f:containers']['k:{"name":"web"}'], {
        '.': {}, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:name': {},
        'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
        'f:resources': {}, 'f:terminationMessagePath': {}, 'f:terminationMessagePolicy': {},
      });
      assert.match(await ok(['scale', 'deployment', 'csa-deploy', '--replicas=5']), /scaled/);
      d = await getJson('deploy', 'csa-deploy');
      assert.equal(d.spec.replicas, 5);
      assert.deepEqual(entries(d).find((e) => e.subresource === 'scale'), {
        apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, manager: 'kubectl', operation: 'Update', subresource: 'scale',
      });
      assert.equal((entries(d).find((e) => e.manager === 'kubectl-client-side-apply')!.fieldsV1 as Record<string, Record<string, unknown>>)['f:spec']['f:replicas'], undefined, 'scale took .spec.replicas');
      const diff = await kubectl(['diff', '-f', '-'], deployment('csa-deploy', 'nginx:1.27', { replicas: 5 }));
      assert.equal(diff.code, 1, diff.stderr);
      assert.match(diff.stdout, /^-\s+- image: nginx:1\.26$/m);
      assert.match(diff.stdout, /^\+\s+- image: nginx:1\.27$/m);
    });

    it('server-side apply owns what it applied; a scale then conflicts on replicas', async () => {
      assert.match(await ok(['apply', '--server-side', '-f', '-'], deployment('ssa-deploy', 'nginx:1.25', { replicas: 3, env: true })), /serverside-applied/);
      let d = await getJson('deploy', 'ssa-deploy');
      assert.deepEqual(entries(d), [{
        apiVersion: 'apps/v1', fieldsType: 'FieldsV1', manager: 'kubectl', operation: 'Apply',
        fieldsV1: {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:replicas': {}, 'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': { 'f:containers': { 'k:{"name":"web"}': {
                '.': {}, 'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } }, 'f:image': {}, 'f:name': {},
                'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
              } } },
            },
          },
        },
      }]);
      await ok(['scale', 'deployment', 'ssa-deploy', '--replicas=4']);
      const r = await kubectl(['apply', '--server-side', '-f', '-'], deployment('ssa-deploy', 'nginx:1.26', { replicas: 3, env: true }));
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps\/v1: \.spec\.replicas/);
      // Leaving replicas to the scaler resolves it; the env var it no longer lists goes.
      await ok(['apply', '--server-side', '-f', '-'], deployment('ssa-deploy', 'nginx:1.26'));
      d = await getJson('deploy', 'ssa-deploy');
      assert.equal(d.spec.replicas, 4);
      assert.deepEqual(d.spec.template.spec.containers.map((c: Record<string, unknown>) => [c.image, c.env]), [['nginx:1.26', undefined]]);
    });
  });

  describe('kubectl diff and patch', () => {
    it('diff shows the pending change and changes nothing', async () => {
      await ok(['apply', '-f', '-'], configMap('differ', { a: '1' }));
      const before = await getJson('cm', 'differ');
      for (const mode of [[], ['--server-side']]) {
        const r = await kubectl(['diff', ...mode, '-f', '-'], configMap('differ', { a: '2' }));
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stdout, /^-\s+a: "1"$/m);
        assert.match(r.stdout, /^\+\s+a: "2"$/m);
      }
      const same = await kubectl(['diff', '-f', '-'], configMap('differ', { a: '1' }));
      assert.equal(same.code, 0, same.stdout + same.stderr);
      const after = await getJson('cm', 'differ');
      assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
    });

    it('patch --type strategic, merge and json', async () => {
      await ok(['create', '-f', '-'], YAML.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'patched', namespace: 'default', labels: { made: 'here' } } }));
      await ok(['patch', 'sa', 'patched', '--type', 'strategic', '-p', '{"secrets":[{"name":"a"}]}']);
      await ok(['patch', 'sa', 'patched', '--type', 'strategic', '-p', '{"secrets":[{"name":"b"}]}']);
      assert.deepEqual((await getJson('sa', 'patched')).secrets, [{ name: 'b' }, { name: 'a' }], 'strategic merge merges on name, new items first');
      await ok(['patch', 'sa', 'patched', '--type', 'strategic', '-p', '{"secrets":[{"name":"a","$patch":"delete"}]}']);
      assert.deepEqual((await getJson('sa', 'patched')).secrets, [{ name: 'b' }]);
      await ok(['patch', 'sa', 'patched', '--type', 'merge', '-p', '{"secrets":[{"name":"c"}]}']);
      assert.deepEqual((await getJson('sa', 'patched')).secrets, [{ name: 'c' }], 'a merge patch replaces lists');
      await ok(['patch', 'sa', 'patched', '--type', 'json', '-p', '[{"op":"add","path":"/secrets/-","value":{"name":"d"}}]']);
      const sa = await getJson('sa', 'patched');
      assert.deepEqual(sa.secrets, [{ name: 'c' }, { name: 'd' }]);
      assert.deepEqual(entries(sa).map((e) => `${e.manager}/${e.operation}`), ['kubectl-create/Update', 'kubectl-patch/Update']);
    });
  });

  describe('the apply endpoint', () => {
    const CM = '/api/v1/namespaces/default/configmaps';
    const applyReq = (path: string, body: unknown, query = 'fieldManager=tool', contentType = 'application/apply-patch+yaml') =>
      call(s, 'PATCH', `${path}?${query}`, typeof body === 'string' ? body : JSON.stringify(body), { 'content-type': contentType });
    const cmBody = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' }, ...extra });

    it('requires a field manager and refuses managedFields, another type, and a name other than the URL', async () => {
      let r = await applyReq(`${CM}/raw`, cmBody('raw'), '');
      assert.equal(r.status, 422);
      assert.equal(r.json().message, `PatchOptions.${META_GROUP} "" is invalid: fieldManager: Required value: is required for apply patch`);
      r = await applyReq(`${CM}/raw`, { ...cmBody('raw'), metadata: { name: 'raw', managedFields: [] } });
      assert.equal(r.status, 400);
      assert.equal(r.json().message, 'metadata.managedFields must be nil');
      r = await applyReq(`${CM}/raw`, { ...cmBody('raw'), kind: 'Secret' });
      assert.equal(r.status, 400);
      assert.equal(r.json().message, 'invalid object type: /v1, Kind=Secret');
      r = await applyReq(`${CM}/raw`, { ...cmBody('raw'), apiVersion: 'v2' });
      assert.equal(r.json().message, 'invalid object type: /v2, Kind=ConfigMap');
      r = await applyReq(`${CM}/raw`, cmBody('other'));
      assert.equal(r.status, 400);
      assert.equal(r.json().message, 'the name of the object (other) does not match the name on the URL (raw)');
      assert.equal((await call(s, 'GET', `${CM}/raw`)).status, 404);
    });

    it('reads YAML, creates with 201 and updates with 200; a no-op writes nothing', async () => {
      const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml-apply\ndata:\n  k: v\n';
      let r = await applyReq(`${CM}/yaml-apply`, yaml);
      assert.equal(r.status, 201, r.body);
      const created = r.json();
      assert.deepEqual(entries(created), [{ apiVersion: 'v1', fieldsType: 'FieldsV1', manager: 'tool', operation: 'Apply', fieldsV1: { 'f:data': { 'f:k': {} } } }]);
      r = await applyReq(`${CM}/yaml-apply`, yaml);
      assert.equal(r.status, 200);
      assert.equal(r.json().metadata.resourceVersion, created.metadata.resourceVersion);
    });

    it('dryRun=All answers what would be stored and stores nothing', async () => {
      const r = await applyReq(`${CM}/dry`, cmBody('dry'), 'fieldManager=tool&dryRun=All');
      assert.equal(r.status, 201, r.body);
      assert.equal(r.json().metadata.managedFields[0].manager, 'tool');
      assert.equal((await call(s, 'GET', `${CM}/dry`)).status, 404);
    });

    it('an invalid result is the kind\'s 422 and nothing is stored', async () => {
      const r = await applyReq(`${CM}/bad`, cmBody('bad', { data: { 'not valid!': 'x' } }));
      assert.equal(r.status, 422, r.body);
      assert.match(r.json().message, /^ConfigMap "bad" is invalid: data\[not valid!\]: Invalid value: "not valid!"/);
      assert.equal((await call(s, 'GET', `${CM}/bad`)).status, 404);
    });

    it('conflicts are 409 with one cause per field; force=true takes them', async () => {
      assert.equal((await applyReq(`${CM}/owned`, cmBody('owned', { data: { a: '1', b: '1' } }), 'fieldManager=first')).status, 201);
      let r = await applyReq(`${CM}/owned`, cmBody('owned', { data: { a: '2', b: '2' } }), 'fieldManager=second&force=false');
      assert.equal(r.status, 409);
      const st = r.json();
      assert.equal(st.reason, 'Conflict');
      assert.equal(st.message, 'Apply failed with 2 conflicts: conflicts with "first":\n- .data.a\n- .data.b');
      assert.deepEqual(st.details, { causes: [
        { reason: 'FieldManagerConflict', message: 'conflict with "first"', field: '.data.a' },
        { reason: 'FieldManagerConflict', message: 'conflict with "first"', field: '.data.b' },
      ] });
      r = await applyReq(`${CM}/owned`, cmBody('owned', { data: { a: '2', b: '2' } }), 'fieldManager=second&force=true');
      assert.equal(r.status, 200, r.body);
      assert.deepEqual(r.json().metadata.managedFields.map((e: Entry) => e.manager), ['second']);
    });

    // Kubernetes types the body against the schema before merging: an undeclared field fails that typing
    // whatever fieldValidation says, as the plain error it is (500, no reason).
    it('refuses a field the schema does not declare, whatever fieldValidation says', async () => {
      for (const fv of ['Strict', 'Warn', 'Ignore']) {
        const r = await applyReq(`${CM}/strict`, cmBody('strict', { spec: 1 }), `fieldManager=tool&fieldValidation=${fv}`);
        assert.equal(r.status, 500, fv);
        assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'failed to create typed patch object (/strict; /v1, Kind=ConfigMap): .spec: field not declared in schema', code: 500 });
      }
      assert.equal((await call(s, 'GET', `${CM}/strict`)).status, 404);
    });

    it('applies to /status, recording the subresource, and only there', async () => {
      await ok(['create', '-f', '-'], YAML.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'apply-node' }, spec: { podCIDR: '10.0.0.0/24' } }));
      const status = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'apply-node' }, spec: { podCIDR: '10.9.0.0/24' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
      const r = await applyReq('/api/v1/nodes/apply-node/status', status, 'fieldManager=kubelet');
      assert.equal(r.status, 200, r.body);
      const node = r.json();
      assert.equal(node.spec.podCIDR, '10.0.0.0/24', 'a status apply does not change spec');
      assert.equal(node.status.conditions[0].type, 'Ready');
      const entry = node.metadata.managedFields.find((e: Entry) => e.manager === 'kubelet');
      assert.deepEqual({ ...entry, time: undefined }, {
        manager: 'kubelet', operation: 'Apply', apiVersion: 'v1', time: undefined, fieldsType: 'FieldsV1',
        fieldsV1: { 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:status': {}, 'f:type': {} } } } }, subresource: 'status',
      });
      assert.equal((await applyReq('/api/v1/nodes/absent-node/status', { ...status, metadata: { name: 'absent-node' } }, 'fieldManager=kubelet')).status, 404);
    });
  });

  describe('strategic merge patch and managers on every write', () => {
    it('merges lists by key on status too (Node conditions) and records the status subresource', async () => {
      const path = '/api/v1/nodes/apply-node/status';
      const r = await call(s, 'PATCH', `${path}?fieldManager=ctrl`, { status: { conditions: [{ type: 'DiskPressure', status: 'False' }] } }, { 'content-type': 'application/strategic-merge-patch+json' });
      assert.equal(r.status, 200, r.body);
      const node = r.json();
      assert.deepEqual(node.status.conditions.map((c: { type: string }) => c.type).sort(), ['DiskPressure', 'Ready']);
      const entry = node.metadata.managedFields.find((e: Entry) => e.manager === 'ctrl');
      assert.equal(entry.subresource, 'status');
      assert.equal(entry.operation, 'Update');
    });

    it('a strategic merge patch works on every kind; errors are Kubernetes\'', async () => {
      const lease = { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: 'smp-lease', namespace: 'default' }, spec: { holderIdentity: 'a' } };
      const LEASES = '/apis/coordination.svc.io/v1/namespaces/default/leases';
      assert.equal((await call(s, 'POST', LEASES, lease)).status, 201);
      const smp = (path: string, body: unknown) => call(s, 'PATCH', path, typeof body === 'string' ? body : JSON.stringify(body), { 'content-type': 'application/strategic-merge-patch+json' });
      let r = await smp(`${LEASES}/smp-lease`, { spec: { holderIdentity: 'b' }, metadata: { labels: { x: 'y' } } });
      assert.equal(r.status, 200, r.body);
      assert.equal(r.json().spec.holderIdentity, 'b');
      r = await smp(`${LEASES}/smp-lease`, '[1]');
      assert.equal(r.status, 400);
      assert.equal(r.json().message, 'json: cannot unmarshal array into Go value of type map[string]interface {}');
      r = await smp(`${LEASES}/smp-lease`, { metadata: { $deleteFromPrimitiveList: ['x'] } });
      assert.equal(r.status, 400);
      assert.equal(r.json().message, 'invalid patch format of primitive list');
      r = await smp(`${LEASES}/smp-lease`, { metadata: { labels: { $patch: 'unknown' } } });
      assert.equal(r.status, 400);
      assert.equal((await call(s, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'lol', finalizers: ['example.com/x'] } })).status, 201);
      r = await smp('/api/v1/namespaces/default/configmaps/lol', { metadata: { finalizers: [['nested']] } });
      assert.equal(r.status, 400);
      assert.equal(r.json().message, 'list element types are not identical: [[example.com/x] [[nested]]]');
    });

    it('creates record an Update entry for the fieldManager, or the User-Agent before its first slash', async () => {
      let r = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'ua' } }, { 'user-agent': 'my-tool/1.2 (linux)' });
      assert.equal(r.status, 201, r.body);
      assert.equal(r.json().metadata.managedFields, undefined, 'an object with no fields set gives nobody anything');
      r = await call(s, 'PUT', '/api/v1/namespaces/default/configmaps/ua', { metadata: { name: 'ua' }, data: { a: '1' } }, { 'user-agent': 'my-tool/1.2 (linux)' });
      assert.equal(r.json().metadata.managedFields, undefined, 'an object that was created untracked is not tracked by updates');
      r = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'ua2' }, data: { a: '1' } }, { 'user-agent': 'my-tool/1.2 (linux)' });
      assert.equal(r.json().metadata.managedFields[0].manager, 'my-tool');
      r = await call(s, 'PUT', '/api/v1/namespaces/default/configmaps/ua2?fieldManager=editor', { metadata: { name: 'ua2' }, data: { a: '2' } });
      const owners = r.json().metadata.managedFields.map((e: Entry) => [e.manager, e.fieldsV1]);
      assert.deepEqual(owners.sort(), [['editor', { 'f:data': { 'f:a': {} } }], ['my-tool', { 'f:data': {} }]], 'the editor took .data.a');
      r = await call(s, 'PUT', '/api/v1/namespaces/default/configmaps/ua2?fieldManager=bad%07name', { metadata: { name: 'ua2' } });
      assert.equal(r.status, 422);
      assert.equal(r.json().message, `UpdateOptions.${META_GROUP} "" is invalid: fieldManager: Invalid value: "bad\\u0007name": invalid character U+0007 (at position 3)`);
      r = await call(s, 'PATCH', '/api/v1/namespaces/default/configmaps/ua2', { metadata: { managedFields: [] } }, { 'content-type': 'application/merge-patch+json' });
      assert.equal(r.json().metadata.managedFields, undefined, 'an empty list clears the entries');
    });
  });
});
