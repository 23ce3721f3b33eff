// End-to-end: unmodified kubectl and typed clients address renamed groups by Kubernetes' names
// (rbac.authorization.k8s.io, networking.k8s.io, certificates.k8s.io, authentication.k8s.io). The server
// serves them from the renamed groups, authorizes them as the renamed groups, and answers in the name
// the client used: JSON, Table, protobuf, watch events and bookmarks, Status errors. Discovery lists only
// the renamed groups.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { startTestServer, rawRequest as raw, type TestServer, type RawResponse } from './support/capstan.ts';
import { fixtures } from '../src/apis/certificates/testdata/pki.ts';
import { decodeProtobufObject, encodeProtobufObject, readProtobufWatchFrames } from '../src/server/codecs/protobuf-objects.ts';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const b64 = (x: string) => Buffer.from(x).toString('base64');

/** Opens a watch and reads until `done` says the bytes so far suffice; then hangs up. */
function watch(s: TestServer, path: string, headers: Record<string, string>, done: (bytes: Buffer) => boolean): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, s.url);
    const req = httpsRequest({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'GET', agent: false,
      ca: s.credentials.ca, cert: s.credentials.cert, key: s.credentials.key, headers,
    }, (res) => {
      let body = Buffer.alloc(0);
      const finish = () => { resolve({ status: res.statusCode!, headers: res.headers, body }); req.destroy(); };
      res.on('data', (c: Buffer) => { body = Buffer.concat([body, c]); if (done(body)) finish(); });
      res.on('end', finish);
    });
    req.on('error', (err) => { if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err); });
    req.end();
  });
}

const json = (r: RawResponse) => JSON.parse(r.body.toString('utf8'));
const jsonLines = (b: Buffer) => b.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const JSON_BODY = { 'content-type': 'application/json' };

const role = (name: string, apiVersion = 'rbac.authorization.k8s.io/v1') => ({
  apiVersion, kind: 'Role', metadata: { name }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
});

describe('Kubernetes names of renamed groups', () => {
  let s: TestServer;
  const kubectl = async (args: string[], input?: string) => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('kubectl create role, clusterrole, rolebinding and clusterrolebinding (rbac.authorization.k8s.io)', async () => {
    assert.equal((await kubectl(['create', 'role', 'r', '--verb=get', '--resource=pods'])).trim(), 'role.rbac.authorization.k8s.io/r created');
    assert.equal((await kubectl(['create', 'clusterrole', 'cr', '--verb=get,list', '--resource=configmaps'])).trim(), 'clusterrole.rbac.authorization.k8s.io/cr created');
    assert.equal((await kubectl(['create', 'rolebinding', 'rb', '--role=r', '--user=alice', '--group=devs', '--serviceaccount=default:robot'])).trim(), 'rolebinding.rbac.authorization.k8s.io/rb created');
    assert.equal((await kubectl(['create', 'clusterrolebinding', 'crb', '--clusterrole=cr', '--user=alice'])).trim(), 'clusterrolebinding.rbac.authorization.k8s.io/crb created');

    // Stored in the renamed group, Kubernetes' name of the group in roleRef and subjects read as it.
    const rb = JSON.parse(await kubectl(['get', 'rolebinding', 'rb', '-o', 'json']));
    assert.equal(rb.apiVersion, 'rbac.authorization.svc.io/v1');
    assert.deepEqual(rb.roleRef, { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'r' });
    assert.deepEqual(rb.subjects, [
      { kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: 'alice' },
      { kind: 'Group', apiGroup: 'rbac.authorization.svc.io', name: 'devs' },
      { kind: 'ServiceAccount', name: 'robot', namespace: 'default' },
    ]);
    const r = JSON.parse(await kubectl(['get', 'role', 'r', '-o', 'json']));
    assert.deepEqual(r.rules, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    assert.equal(JSON.parse(await kubectl(['get', 'clusterrolebinding', 'crb', '-o', 'json'])).roleRef.apiGroup, 'rbac.authorization.svc.io');

    // The binding works: alice may read configmaps.
    assert.equal((await kubectl(['auth', 'can-i', 'list', 'configmaps', '--as=alice'])).trim(), 'yes');

    // Errors name the resource as the client addressed it.
    const again = await s.kubectl(['create', 'role', 'r', '--verb=get', '--resource=pods']);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /Error from server \(AlreadyExists\): roles\.rbac\.authorization\.k8s\.io "r" already exists/);
  });

  it('kubectl auth reconcile leaves unchanged roles and bindings alone on a second run', async () => {
    const manifest = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'rec' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'recb', namespace: 'default' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'rec' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'carol' }] },
    ] });
    await kubectl(['auth', 'reconcile', '-f', '-'], manifest);
    const uid = JSON.parse(await kubectl(['get', 'rolebinding', 'recb', '-o', 'json'])).metadata.uid;
    const second = await kubectl(['auth', 'reconcile', '-f', '-'], manifest);
    assert.doesNotMatch(second, /reconciliation required/, second);
    assert.equal(JSON.parse(await kubectl(['get', 'rolebinding', 'recb', '-o', 'json'])).metadata.uid, uid);
    // Read by Kubernetes' name, the binding names the role's group so too.
    const viaAlias = (await s.request('GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/recb')).json();
    assert.equal(viaAlias.roleRef.apiGroup, 'rbac.authorization.k8s.io');
    assert.equal(viaAlias.subjects[0].apiGroup, 'rbac.authorization.k8s.io');
  });

  it('kubectl create ingress (networking.k8s.io)', async () => {
    assert.equal((await kubectl(['create', 'ingress', 'web', '--rule=foo.example.com/bar=svc1:8080'])).trim(), 'ingress.networking.k8s.io/web created');
    const ing = JSON.parse(await kubectl(['get', 'ingress', 'web', '-o', 'json']));
    assert.equal(ing.apiVersion, 'networking.svc.io/v1');
    assert.equal(ing.spec.rules[0].host, 'foo.example.com');
    assert.deepEqual(ing.spec.rules[0].http.paths[0].backend, { service: { name: 'svc1', port: { number: 8080 } } });
  });

  it('kubectl create token (an authentication.k8s.io TokenRequest)', async () => {
    await kubectl(['create', 'serviceaccount', 'default']);
    const token = (await kubectl(['create', 'token', 'default'])).trim();
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    assert.equal(claims.sub, 'system:serviceaccount:default:default');
    // The token authenticates.
    const who = await raw(s, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { ...JSON_BODY }, JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }));
    assert.equal(who.status, 201);
    assert.equal(json(who).apiVersion, 'authentication.k8s.io/v1');
  });

  it('CSR approval as kubectl certificate approve sends it (certificates.k8s.io)', async () => {
    const pki = await fixtures();
    await kubectl(['create', '-f', '-'], `apiVersion: certificates.svc.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: alice\nspec:\n  request: ${b64(pki.ecdsaRequest)}\n  signerName: example.com/signer\n  usages: [client auth]\n`);
    // kubectl's typed client: GET in certificates.k8s.io, add the Approved condition, PUT .../approval.
    const got = await raw(s, 'GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests/alice');
    assert.equal(got.status, 200);
    const csr = json(got);
    assert.equal(csr.apiVersion, 'certificates.k8s.io/v1');
    csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.', lastUpdateTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] };
    const approved = await raw(s, 'PUT', '/apis/certificates.k8s.io/v1/certificatesigningrequests/alice/approval', JSON_BODY, JSON.stringify(csr));
    assert.equal(approved.status, 200, approved.body.toString());
    assert.equal(json(approved).apiVersion, 'certificates.k8s.io/v1');
    assert.equal(json(approved).status.conditions[0].type, 'Approved');
    assert.match(await kubectl(['get', 'csr', 'alice']), /Approved/);
  });

  it('JSON: objects, lists, Tables, writes and errors answer in the group asked for', async () => {
    const ns = `${RBAC}/namespaces/default/roles`;
    const created = await raw(s, 'POST', ns, JSON_BODY, JSON.stringify(role('j1')));
    assert.equal(created.status, 201, created.body.toString());
    assert.equal(json(created).apiVersion, 'rbac.authorization.k8s.io/v1');
    // The renamed group's apiVersion is accepted at the alias URL, and the alias at the renamed URL.
    assert.equal((await raw(s, 'POST', ns, JSON_BODY, JSON.stringify(role('j2', 'rbac.authorization.svc.io/v1')))).status, 201);
    const viaSvc = await raw(s, 'POST', '/apis/rbac.authorization.svc.io/v1/namespaces/default/roles', JSON_BODY, JSON.stringify(role('j3')));
    assert.equal(viaSvc.status, 201);
    assert.equal(json(viaSvc).apiVersion, 'rbac.authorization.svc.io/v1');
    // Another group's apiVersion is still refused.
    const wrong = await raw(s, 'POST', ns, JSON_BODY, JSON.stringify(role('j4', 'networking.k8s.io/v1')));
    assert.equal(wrong.status, 400);

    const got = json(await raw(s, 'GET', `${ns}/j1`));
    assert.equal(got.apiVersion, 'rbac.authorization.k8s.io/v1');
    assert.deepEqual(got.rules, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);

    const list = json(await raw(s, 'GET', `${ns}?labelSelector=`));
    assert.equal(list.apiVersion, 'rbac.authorization.k8s.io/v1');
    assert.equal(list.kind, 'RoleList');
    assert.ok(list.items.length >= 3);
    for (const item of list.items) assert.equal(item.apiVersion, undefined);
    // A list across namespaces, and a page of one.
    const page = json(await raw(s, 'GET', `${RBAC}/roles?limit=1`));
    assert.equal(page.items.length, 1);
    assert.equal(page.apiVersion, 'rbac.authorization.k8s.io/v1');

    const table = json(await raw(s, 'GET', `${ns}?includeObject=Object`, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }));
    assert.equal(table.apiVersion, 'meta.k8s.io/v1');
    for (const row of table.rows) assert.equal(row.object.apiVersion, 'rbac.authorization.k8s.io/v1');
    const meta = json(await raw(s, 'GET', `${ns}/j1`, { accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' }));
    assert.equal(meta.apiVersion, 'meta.k8s.io/v1');

    const put = await raw(s, 'PUT', `${ns}/j1`, JSON_BODY, JSON.stringify({ ...got, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] }));
    assert.equal(put.status, 200, put.body.toString());
    assert.equal(json(put).apiVersion, 'rbac.authorization.k8s.io/v1');
    assert.deepEqual(json(put).rules[0].verbs, ['get', 'list']);

    const merge = await raw(s, 'PATCH', `${ns}/j1`, { 'content-type': 'application/merge-patch+json' }, JSON.stringify({ metadata: { labels: { a: 'b' } } }));
    assert.equal(merge.status, 200);
    assert.equal(json(merge).apiVersion, 'rbac.authorization.k8s.io/v1');
    // A JSON patch sees the object as the client does.
    const test = await raw(s, 'PATCH', `${ns}/j1`, { 'content-type': 'application/json-patch+json' }, JSON.stringify([{ op: 'test', path: '/apiVersion', value: 'rbac.authorization.k8s.io/v1' }, { op: 'add', path: '/metadata/labels/c', value: 'd' }]));
    assert.equal(test.status, 200, test.body.toString());
    assert.deepEqual(json(test).metadata.labels, { a: 'b', c: 'd' });
    const smp = await raw(s, 'PATCH', `${ns}/j1`, { 'content-type': 'application/strategic-merge-patch+json' }, JSON.stringify({ metadata: { labels: { e: 'f' } } }));
    assert.equal(smp.status, 200);
    assert.equal(json(smp).apiVersion, 'rbac.authorization.k8s.io/v1');

    // Server-side apply with Kubernetes' name in the body: the managedFields name the served group.
    const applied = await raw(s, 'PATCH', `${ns}/j5?fieldManager=tester`, { 'content-type': 'application/apply-patch+yaml' }, JSON.stringify(role('j5')));
    assert.equal(applied.status, 201, applied.body.toString());
    assert.equal(json(applied).apiVersion, 'rbac.authorization.k8s.io/v1');
    assert.equal(json(applied).metadata.managedFields[0].apiVersion, 'rbac.authorization.svc.io/v1');
    const reapplied = await raw(s, 'PATCH', `${ns}/j5?fieldManager=tester`, { 'content-type': 'application/apply-patch+yaml' }, JSON.stringify(role('j5')));
    assert.equal(reapplied.status, 200);

    // Errors: Status details and message name the resource as addressed.
    const missing = json(await raw(s, 'GET', `${ns}/nope`));
    assert.equal(missing.message, 'roles.rbac.authorization.k8s.io "nope" not found');
    assert.deepEqual(missing.details, { name: 'nope', group: 'rbac.authorization.k8s.io', kind: 'roles' });
    const invalid = json(await raw(s, 'POST', ns, JSON_BODY, JSON.stringify({ ...role('j6'), rules: [{ resources: ['pods'], verbs: ['get'] }] })));
    assert.equal(invalid.code, 422);
    assert.equal(invalid.details.group, 'rbac.authorization.k8s.io');
    assert.match(invalid.message, /^Role\.rbac\.authorization\.k8s\.io "j6" is invalid: rules\[0\]\.apiGroups: Required value/);
    const conflict = json(await raw(s, 'PUT', `${ns}/j1`, JSON_BODY, JSON.stringify({ ...got, metadata: { ...got.metadata, resourceVersion: '1' } })));
    assert.equal(conflict.message, 'Operation cannot be fulfilled on roles.rbac.authorization.k8s.io "j1": the object has been modified; please apply your changes to the latest version and try again');

    const deleted = json(await raw(s, 'DELETE', `${ns}/j2`));
    assert.equal(deleted.status, 'Success');
    assert.equal(deleted.details.group, 'rbac.authorization.k8s.io');
    assert.equal(deleted.details.kind, 'roles');
    const collection = await raw(s, 'DELETE', `${ns}?labelSelector=a%3Db`);
    assert.equal(collection.status, 200);
    assert.equal((await raw(s, 'GET', `${ns}/j1`)).status, 404);
  });

  it('authorization sees the renamed group', async () => {
    await kubectl(['create', 'clusterrole', 'svc-role-reader', '--verb=get,list', '--resource=roles.rbac.authorization.svc.io']);
    await kubectl(['create', 'clusterrolebinding', 'svc-role-reader', '--clusterrole=svc-role-reader', '--user=reader']);
    await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', JSON_BODY, '{}');
    const rules = JSON.stringify({ apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRole', metadata: { name: 'k8s-role-reader' }, rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['get', 'list'] }] });
    assert.equal((await raw(s, 'POST', '/apis/rbac.authorization.svc.io/v1/clusterroles', JSON_BODY, rules)).status, 201);
    await kubectl(['create', 'clusterrolebinding', 'k8s-role-reader', '--clusterrole=k8s-role-reader', '--user=other']);

    const asReader = await raw(s, 'GET', `${RBAC}/namespaces/default/roles`, { 'impersonate-user': 'reader' });
    assert.equal(asReader.status, 200, asReader.body.toString());
    assert.equal(json(asReader).apiVersion, 'rbac.authorization.k8s.io/v1');
    // A rule naming Kubernetes' group grants nothing: requests are authorized as the renamed group.
    const asOther = await raw(s, 'GET', `${RBAC}/namespaces/default/roles`, { 'impersonate-user': 'other' });
    assert.equal(asOther.status, 403);
    assert.match(json(asOther).message, /cannot list resource "roles" in API group "rbac\.authorization\.svc\.io"/);
  });

  it('protobuf: envelopes in the group asked for, in and out', async () => {
    const proto = 'application/vnd.kubernetes.protobuf';
    const body = encodeProtobufObject(role('p1'));
    const created = await raw(s, 'POST', `${RBAC}/namespaces/default/roles`, { 'content-type': proto, accept: proto }, body);
    assert.equal(created.status, 201, created.body.toString());
    assert.equal(created.headers['content-type'], proto);
    const obj = decodeProtobufObject(created.body);
    assert.equal(obj.apiVersion, 'rbac.authorization.k8s.io/v1');
    assert.equal(obj.kind, 'Role');
    assert.deepEqual((obj as any).rules, [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);

    const list = decodeProtobufObject((await raw(s, 'GET', `${RBAC}/namespaces/default/roles`, { accept: proto })).body);
    assert.equal(list.apiVersion, 'rbac.authorization.k8s.io/v1');
    assert.equal(list.kind, 'RoleList');
    assert.ok((list as any).items.some((i: any) => i.metadata.name === 'p1'));
    // The same object at the renamed URL is enveloped in the renamed group.
    const viaSvc = decodeProtobufObject((await raw(s, 'GET', '/apis/rbac.authorization.svc.io/v1/namespaces/default/roles/p1', { accept: proto })).body);
    assert.equal(viaSvc.apiVersion, 'rbac.authorization.svc.io/v1');
  });

  it('watch: events and bookmarks in the group asked for, JSON and protobuf', async () => {
    const path = `${RBAC}/namespaces/default/roles?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&fieldSelector=metadata.name%3Dw1`;
    const pending = watch(s, path, {}, (b) => jsonLines(b).length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await raw(s, 'POST', `${RBAC}/namespaces/default/roles`, JSON_BODY, JSON.stringify(role('w1')))).status, 201);
    const events = jsonLines((await pending).body);
    assert.deepEqual(events.map((e) => e.type), ['BOOKMARK', 'ADDED']);
    for (const e of events) {
      assert.equal(e.object.apiVersion, 'rbac.authorization.k8s.io/v1');
      assert.equal(e.object.kind, 'Role');
    }
    assert.deepEqual(events[0].object.metadata.annotations, { 'svc.io/initial-events-end': 'true' });

    const rv = json(await raw(s, 'GET', `${RBAC}/namespaces/default/roles/w1`)).metadata.resourceVersion;
    const frames = (b: Buffer) => { try { return readProtobufWatchFrames(b); } catch { return []; } };
    const protoWatch = watch(s, `${RBAC}/namespaces/default/roles?watch=true&resourceVersion=${rv}`, { accept: 'application/vnd.kubernetes.protobuf' }, (b) => frames(b).length >= 1);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await raw(s, 'DELETE', `${RBAC}/namespaces/default/roles/w1`)).status, 200);
    const [deleted] = frames((await protoWatch).body);
    assert.equal(deleted!.type, 'DELETED');
    assert.equal(deleted!.object.apiVersion, 'rbac.authorization.k8s.io/v1');
  });

  it('discovery lists only the renamed groups; a Kubernetes name asked for directly answers in that name', async () => {
    const groups = json(await raw(s, 'GET', '/apis')).groups.map((g: { name: string }) => g.name);
    assert.ok(groups.includes('rbac.authorization.svc.io'));
    assert.ok(!groups.some((g: string) => g.endsWith('.k8s.io')));
    // As generated clients ask it (the Python client's RbacAuthorizationV1Api().get_api_resources()).
    const group = await raw(s, 'GET', '/apis/rbac.authorization.k8s.io/');
    assert.equal(group.status, 200);
    assert.deepEqual(json(group), {
      kind: 'APIGroup', apiVersion: 'v1', name: 'rbac.authorization.k8s.io',
      versions: [{ groupVersion: 'rbac.authorization.k8s.io/v1', version: 'v1' }], preferredVersion: { groupVersion: 'rbac.authorization.k8s.io/v1', version: 'v1' },
    });
    const resources = await raw(s, 'GET', `${RBAC}/`);
    assert.equal(resources.status, 200);
    assert.equal(json(resources).groupVersion, 'rbac.authorization.k8s.io/v1');
    assert.ok(json(resources).resources.some((r: { name: string }) => r.name === 'clusterroles'));
    // A Kubernetes name whose renamed group is not served is not a group at all.
    assert.equal((await raw(s, 'GET', '/apis/nothing.k8s.io/v1/things')).status, 404);
    assert.equal((await raw(s, 'GET', `${RBAC.replace('/v1', '/v1beta1')}/clusterroles`)).status, 404);
  });
});
