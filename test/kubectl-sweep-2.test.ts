// A second black-box sweep of unmodified kubectl against Capstan, as a cluster operator uses it: each test
// pins what kubectl prints and exits with against a Kubernetes v1.32 API server (renamed), for the commands
// test/kubectl.test.ts and test/kubectl-sweep.test.ts leave out.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_TEST_CONTROLLERS, startTestServer, type TestServer } from './support/capstan.ts';

describe('kubectl sweep 2', () => {
  let s: TestServer;
  let dir: string;
  // Foreground deletion needs the garbage collector to take its finalizer off, as in a real cluster.
  before(async () => {
    s = await startTestServer({ controllers: API_TEST_CONTROLLERS.filter((c) => c !== '-garbagecollector') });
    dir = join(s.dataDir, 'sweep-2');
    mkdirSync(dir, { recursive: true });
  });
  after(async () => { await s.stop(); });

  const file = (name: string, text: string, mode?: number) => {
    const path = join(dir, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    if (mode) chmodSync(path, mode);
    return path;
  };
  const json = async (args: string[]) => {
    const r = await s.kubectl([...args, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };

  it('apply -f takes a multi-document file and a directory; a second apply is unchanged', async () => {
    file('apply/a.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: multi-1\n  labels: {app: sweep}\ndata: {a: "1"}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: multi-2\n  labels: {app: sweep}\ndata: {b: "2"}\n');
    file('apply/b.yaml', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: multi-3\n  labels: {app: sweep}\nstringData: {x: z}\n');
    let r = await s.kubectl(['apply', '-f', join(dir, 'apply/a.yaml')]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/multi-1 created\nconfigmap/multi-2 created\n');
    r = await s.kubectl(['apply', '-f', join(dir, 'apply')]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/multi-1 unchanged\nconfigmap/multi-2 unchanged\nsecret/multi-3 created\n');
    // YAML 1.1 reads a bare y as true, and a Secret's stringData holds strings only.
    file('bad/s.yaml', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: multi-4\nstringData: {x: y}\n');
    r = await s.kubectl(['apply', '-f', join(dir, 'bad/s.yaml')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Error from server \(BadRequest\): error when creating ".*s\.yaml": Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal bool into Go struct field Secret\.stringData of type string/);
  });

  it('apply --server-side reports a conflict with another manager, and --force-conflicts takes the field', async () => {
    const manifest = (v: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata: {a: "${v}", b: "same"}\n`;
    let r = await s.kubectl(['apply', '--server-side', '-f', '-'], manifest('1'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/ssa serverside-applied\n');
    r = await s.kubectl(['apply', '--server-side', '--field-manager=other', '-f', '-'], manifest('2'));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: Apply failed with 1 conflict: conflict with "kubectl": \.data\.a\nPlease review the fields above--they currently have other managers\./);
    r = await s.kubectl(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', '-'], manifest('2'));
    assert.equal(r.code, 0, r.stderr);
    const cm = await json(['get', 'cm', 'ssa', '--show-managed-fields']);
    assert.equal(cm.data.a, '2');
    const managers = Object.fromEntries(cm.metadata.managedFields.map((m: any) => [m.manager, m]));
    assert.deepEqual(managers.kubectl.fieldsV1, { 'f:data': { 'f:b': {} } });
    assert.deepEqual(managers.other.fieldsV1, { 'f:data': { 'f:a': {}, 'f:b': {} } });
    // Without --show-managed-fields, -o yaml leaves them out.
    r = await s.kubectl(['get', 'cm', 'ssa', '-o', 'yaml']);
    assert.doesNotMatch(r.stdout, /managedFields/);
  });

  it('apply --prune -l deletes what the manifests dropped (with an allowlist of the kinds served)', async () => {
    const two = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: prune-1, labels: {prune: me}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: prune-2, labels: {prune: me}}\n';
    const args = ['apply', '-f', '-', '-l', 'prune=me', '--prune', '--prune-allowlist=core/v1/ConfigMap'];
    let r = await s.kubectl(args, two);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(args, two.split('---\n')[0]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/prune-1 unchanged\nconfigmap/prune-2 pruned\n');
    r = await s.kubectl(['get', 'cm', '-l', 'prune=me', '-o', 'name']);
    assert.equal(r.stdout, 'configmap/prune-1\n');
  });

  it('diff exits 0 without differences, 1 with them, and above 1 on an error', async () => {
    const base = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: diffed\ndata: {a: "1"}\n';
    assert.equal((await s.kubectl(['apply', '-f', '-'], base)).code, 0);
    let r = await s.kubectl(['diff', '-f', '-'], base);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    r = await s.kubectl(['diff', '-f', '-'], base.replace('"1"', '"2"'));
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^-  a: "1"$/m);
    assert.match(r.stdout, /^\+  a: "2"$/m);
    r = await s.kubectl(['diff', '-f', join(dir, 'missing.yaml')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /error: the path ".*missing\.yaml" does not exist/);
  });

  it('edit with KUBE_EDITOR saves a change, cancels an unchanged file, and refuses a renamed object', async () => {
    assert.equal((await s.kubectl(['create', 'cm', 'edited', '--from-literal=a=1'])).code, 0);
    const addLabel = file('add-label.sh', '#!/bin/sh\nsed -i \'s/^  name: edited$/  name: edited\\n  labels:\\n    edited: "yes"/\' "$1"\n', 0o755);
    let r = await s.kubectl(['edit', 'cm', 'edited'], undefined, { KUBE_EDITOR: addLabel });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/edited edited\n');
    assert.equal((await json(['get', 'cm', 'edited'])).metadata.labels.edited, 'yes');
    r = await s.kubectl(['edit', 'cm', 'edited'], undefined, { KUBE_EDITOR: 'true' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, 'Edit cancelled, no changes made.\n');
    const rename = file('rename.sh', '#!/bin/sh\nsed -i \'s/^  name: edited$/  name: other/\' "$1"\n', 0o755);
    r = await s.kubectl(['edit', 'cm', 'edited'], undefined, { KUBE_EDITOR: rename });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /error: At least one of apiVersion, kind and name was changed/);
    r = await s.kubectl(['edit', 'cm', 'nope'], undefined, { KUBE_EDITOR: 'true' });
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error from server (NotFound): configmaps "nope" not found\n');
  });

  it('patch --type json, merge and strategic, with JSON patch failures as Kubernetes words them', async () => {
    assert.equal((await s.kubectl(['create', 'deployment', 'patched', '--image=nginx:1', '--replicas=2'])).code, 0);
    let r = await s.kubectl(['patch', 'deploy', 'patched', '--type', 'json', '-p', '[{"op":"replace","path":"/spec/replicas","value":3}]']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'deployment.apps/patched patched\n');
    r = await s.kubectl(['patch', 'deploy', 'patched', '--type', 'json', '-p', '[{"op":"test","path":"/spec/replicas","value":5}]']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'The request is invalid: : testing value /spec/replicas failed: test failed\n');
    r = await s.kubectl(['patch', 'deploy', 'patched', '--type', 'json', '-p', '[{"op":"remove","path":"/spec/nope"}]']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, "The request is invalid: : error in remove for path: '/spec/nope': Unable to remove nonexistent key: nope: missing value\n");
    r = await s.kubectl(['patch', 'deploy', 'patched', '--type', 'merge', '-p', '{"spec":{"paused":true}}']);
    assert.equal(r.code, 0, r.stderr);
    // Strategic merge: containers merge by name, so the image changes and the container stays one.
    r = await s.kubectl(['patch', 'deploy', 'patched', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:2"}]}}}}']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['patch', 'deploy', 'patched', '--type', 'merge', '-p', '{"spec":{"paused":true}}']);
    assert.equal(r.stdout, 'deployment.apps/patched patched (no change)\n');
    const d = await json(['get', 'deploy', 'patched']);
    assert.equal(d.spec.replicas, 3);
    assert.equal(d.spec.paused, true);
    assert.deepEqual(d.spec.template.spec.containers.map((c: any) => c.image), ['nginx:2']);
    r = await s.kubectl(['patch', 'cm', 'ssa', '--type', 'merge', '-p', '{"immutable":"notabool"}']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^The request is invalid: patch: Invalid value: ".*": json: cannot unmarshal string into Go struct field ConfigMap\.immutable of type bool\n$/s);
  });

  it('label and annotate need --overwrite to change a value, and key- removes one', async () => {
    assert.equal((await s.kubectl(['create', 'cm', 'tagged'])).code, 0);
    assert.equal((await s.kubectl(['label', 'cm', 'tagged', 'tier=web'])).code, 0);
    let r = await s.kubectl(['label', 'cm', 'tagged', 'tier=db']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, "error: 'tier' already has a value (web), and --overwrite is false\n");
    r = await s.kubectl(['label', 'cm', 'tagged', 'tier=db', '--overwrite']);
    assert.equal(r.stdout, 'configmap/tagged labeled\n');
    r = await s.kubectl(['label', 'cm', 'tagged', 'tier-']);
    assert.equal(r.stdout, 'configmap/tagged unlabeled\n');
    r = await s.kubectl(['label', 'cm', 'tagged', 'bad key=x']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'The ConfigMap "tagged" is invalid: metadata.labels: Invalid value: "bad key": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')\n');
    assert.equal((await s.kubectl(['annotate', 'cm', 'tagged', 'note=1'])).code, 0);
    r = await s.kubectl(['annotate', 'cm', 'tagged', 'note=2']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, "error: --overwrite is false but found the following declared annotation(s): 'note' already has a value (1)\n");
    assert.equal((await s.kubectl(['annotate', 'cm', 'tagged', 'note=2', '--overwrite'])).code, 0);
    assert.equal((await s.kubectl(['get', 'cm', 'tagged', '-o', 'jsonpath={.metadata.annotations.note}'])).stdout, '2');
    r = await s.kubectl(['annotate', 'cm', 'tagged', 'note-']);
    assert.equal(r.stdout, 'configmap/tagged annotated\n');
    const cm = await json(['get', 'cm', 'tagged']);
    assert.equal(cm.metadata.labels, undefined);
    assert.equal(cm.metadata.annotations, undefined);
  });

  it('get -w --output-watch-events prints each event type', async () => {
    const child = spawn('kubectl', ['--kubeconfig', s.kubeconfigPath, 'get', 'cm', '-w', '--output-watch-events', '-l', 'events=watched'], { env: { ...process.env, HOME: s.dataDir } });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    try {
      // kubectl prints nothing for the initial empty list; give it time to start watching.
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal((await s.kubectl(['create', 'cm', 'watched'])).code, 0);
      assert.equal((await s.kubectl(['label', 'cm', 'watched', 'events=watched'])).code, 0);
      assert.equal((await s.kubectl(['label', 'cm', 'watched', 'more=yes'])).code, 0);
      assert.equal((await s.kubectl(['delete', 'cm', 'watched'])).code, 0);
      for (let i = 0; i < 200 && !/DELETED/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      child.kill();
    }
    assert.deepEqual(out.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 3).join(' ')), ['EVENT NAME DATA', 'ADDED watched 0', 'MODIFIED watched 0', 'DELETED watched 0']);
  });

  it('wait --for=condition, --for=jsonpath and --for=delete', async () => {
    let r = await s.kubectl(['wait', '--for=jsonpath={.spec.replicas}=3', 'deploy/patched', '--timeout=10s']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'deployment.apps/patched condition met\n');
    // Without a node agent and a deployment controller, no condition ever comes.
    r = await s.kubectl(['wait', '--for=condition=Available', 'deploy/patched', '--timeout=1s']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: timed out waiting for the condition on deployments/patched\n');
    // A condition that comes while kubectl waits, and one that does not hold.
    assert.equal((await s.kubectl(['create', '-f', '-'], 'apiVersion: v1\nkind: Node\nmetadata: {name: waited}\n')).code, 0);
    const ready = s.kubectl(['wait', '--for=condition=Ready', 'node/waited', '--timeout=30s']);
    await new Promise((res) => setTimeout(res, 500));
    r = await s.kubectl(['patch', 'node', 'waited', '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Fine', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }] } })]);
    assert.equal(r.code, 0, r.stderr);
    r = await ready;
    assert.deepEqual([r.code, r.stdout], [0, 'node/waited condition met\n'], r.stderr);
    r = await s.kubectl(['wait', '--for=condition=Ready=false', 'node/waited', '--timeout=1s']);
    assert.deepEqual([r.code, r.stderr], [1, 'error: timed out waiting for the condition on nodes/waited\n']);
    assert.equal((await s.kubectl(['create', 'cm', 'doomed'])).code, 0);
    const waiting = s.kubectl(['wait', '--for=delete', 'cm/doomed', '--timeout=30s']);
    await new Promise((res) => setTimeout(res, 500));
    assert.equal((await s.kubectl(['delete', 'cm', 'doomed'])).code, 0);
    r = await waiting;
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['wait', '--for=delete', 'cm/never-was', '--timeout=1s']);
    assert.equal(r.code, 0, r.stderr);
  });

  it('delete --wait=false, --cascade=foreground and --cascade=orphan', async () => {
    for (const name of ['gone-1', 'gone-2', 'gone-3']) assert.equal((await s.kubectl(['create', 'cm', name])).code, 0);
    let r = await s.kubectl(['delete', 'cm', 'gone-1', '--wait=false']);
    assert.equal(r.stdout, 'configmap "gone-1" deleted\n');
    r = await s.kubectl(['delete', 'cm', 'gone-2', '--cascade=foreground', '--timeout=30s']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['delete', 'cm', 'gone-3', '--cascade=orphan']);
    assert.equal(r.code, 0, r.stderr);
    // A foreground deletion held by another finalizer keeps the object: kubectl times out waiting.
    assert.equal((await s.kubectl(['create', 'cm', 'held'])).code, 0);
    assert.equal((await s.kubectl(['patch', 'cm', 'held', '--type', 'merge', '-p', '{"metadata":{"finalizers":["example.com/hold"]}}'])).code, 0);
    r = await s.kubectl(['delete', 'cm', 'held', '--cascade=foreground', '--timeout=2s']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: timed out waiting for the condition on configmaps/held\n');
    const held = await json(['get', 'cm', 'held']);
    assert.deepEqual(held.metadata.finalizers, ['example.com/hold']);
    assert.ok(held.metadata.deletionTimestamp);
    assert.equal((await s.kubectl(['patch', 'cm', 'held', '--type', 'merge', '-p', '{"metadata":{"finalizers":null}}'])).code, 0);
    r = await s.kubectl(['delete', 'cm', 'nothere']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error from server (NotFound): configmaps "nothere" not found\n');
    r = await s.kubectl(['delete', 'cm', 'nothere', '--ignore-not-found']);
    assert.equal(r.code, 0, r.stderr);
  });

  it('create token, secret generic|tls|docker-registry, configmap --from-file, role, rolebinding, clusterrole', async () => {
    assert.equal((await s.kubectl(['create', 'sa', 'bot'])).code, 0);
    let r = await s.kubectl(['create', 'token', 'bot']);
    assert.equal(r.code, 0, r.stderr);
    const claims = JSON.parse(Buffer.from(r.stdout.trim().split('.')[1], 'base64url').toString());
    assert.equal(claims.sub, 'system:serviceaccount:default:bot');
    assert.equal(claims.exp - claims.iat, 3600);
    r = await s.kubectl(['create', 'token', 'nobody']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: failed to create token: serviceaccounts "nobody" not found\n');
    r = await s.kubectl(['create', 'token', 'bot', '--duration=1s']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: failed to create token: TokenRequest.authentication.svc.io "" is invalid: spec.expirationSeconds: Invalid value: 1: may not specify a duration less than 10 minutes\n');

    r = await s.kubectl(['create', 'secret', 'generic', 'gen', '--from-literal=a=b']);
    assert.equal(r.stdout, 'secret/gen created\n');
    r = await s.kubectl(['create', 'secret', 'tls', 'tls', `--cert=${join(dir, 'none.pem')}`, `--key=${join(dir, 'none.pem')}`]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: Cannot read file .*none\.pem, open .*none\.pem: no such file or directory\n$/);
    r = await s.kubectl(['create', 'secret', 'tls', 'tls', `--cert=${file('tls.crt', s.credentials.cert)}`, `--key=${file('tls.key', s.credentials.key)}`]);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['create', 'secret', 'docker-registry', 'pull', '--docker-server=r.example', '--docker-username=u', '--docker-password=p']);
    assert.equal(r.code, 0, r.stderr);
    const pull = await json(['get', 'secret', 'pull']);
    assert.deepEqual(JSON.parse(Buffer.from(pull.data['.dockerconfigjson'], 'base64').toString()).auths['r.example'].username, 'u');
    r = await s.kubectl(['create', 'configmap', 'from-file', `--from-file=${file('settings.txt', 'a\n')}`, `--from-file=key2=${join(dir, 'settings.txt')}`]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((await json(['get', 'cm', 'from-file'])).data, { 'settings.txt': 'a\n', key2: 'a\n' });

    r = await s.kubectl(['create', 'role', 'reader', '--verb=get,list', '--resource=pods,configmaps']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['create', 'role', 'wrong', '--verb=get', '--resource=nonsense']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'the server doesn\'t have a resource type "nonsense"\n');
    r = await s.kubectl(['create', 'rolebinding', 'reader', '--role=reader', '--user=alice', '--group=devs']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['create', 'clusterrole', 'log-reader', '--verb=get', '--non-resource-url=/logs']);
    assert.equal(r.code, 0, r.stderr);
    const role = await json(['get', 'role', 'reader']);
    assert.deepEqual(role.rules, [{ apiGroups: [''], resources: ['pods', 'configmaps'], verbs: ['get', 'list'] }]);
  });

  it('auth can-i (--as, --as-group, --list) and auth whoami', async () => {
    let r = await s.kubectl(['auth', 'can-i', 'get', 'pods', '--as=alice']);
    assert.deepEqual([r.code, r.stdout], [0, 'yes\n']);
    r = await s.kubectl(['auth', 'can-i', 'delete', 'pods', '--as=alice']);
    assert.deepEqual([r.code, r.stdout], [1, 'no\n']);
    r = await s.kubectl(['auth', 'can-i', 'list', 'configmaps', '--as=bob', '--as-group=devs']);
    assert.deepEqual([r.code, r.stdout], [0, 'yes\n']);
    r = await s.kubectl(['auth', 'can-i', '--list', '--as=alice']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n/);
    assert.match(r.stdout, /^selfsubjectaccessreviews\.authorization\.svc\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
    assert.match(r.stdout, /^pods\s+\[\]\s+\[\]\s+\[get list\]$/m);
    assert.match(r.stdout, /^\s+\[\/version\]\s+\[\]\s+\[get\]$/m);
    r = await s.kubectl(['auth', 'whoami']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ATTRIBUTE\s+VALUE\nUsername\s+\S+\nGroups\s+\[system:masters system:authenticated\]\n$/);
    const who = await json(['auth', 'whoami', '--as=alice', '--as-group=devs']);
    assert.equal(who.kind, 'SelfSubjectReview');
    assert.deepEqual(who.status.userInfo, { username: 'alice', groups: ['devs', 'system:authenticated'] });
  });

  it('api-resources -o wide, --namespaced, --api-group and explain --recursive and nested fields', async () => {
    let r = await s.kubectl(['api-resources', '--namespaced=false', '--api-group=rbac.authorization.svc.io']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').slice(1).map((l) => l.split(/\s+/)[0]).join(' '), 'clusterrolebindings clusterroles');
    r = await s.kubectl(['api-resources', '-o', 'wide', '--api-group=apps']);
    assert.match(r.stdout, /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment\s+create,delete,deletecollection,get,list,patch,update,watch\s+all$/m);
    r = await s.kubectl(['api-resources', '--namespaced', '-o', 'name', '--api-group=apps']);
    assert.equal(r.stdout, 'daemonsets.apps\ndeployments.apps\nreplicasets.apps\nstatefulsets.apps\n');
    r = await s.kubectl(['explain', 'deployment.spec.template.spec.containers.image']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n\nFIELD: image <string>\n/);
    r = await s.kubectl(['explain', 'configmap', '--recursive']);
    assert.match(r.stdout, /^FIELDS:\n  apiVersion\t<string>\n  binaryData\t<map\[string\]string>\n  data\t<map\[string\]string>\n  immutable\t<boolean>\n/m);
    assert.match(r.stdout, /^    ownerReferences\t<\[\]OwnerReference>\n      apiVersion\t<string> -required-\n/m);
    r = await s.kubectl(['explain', 'deployment.spec.nope']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /error: field "nope" does not exist/);
  });

  it('get -o jsonpath, custom-columns, go-template, wide, name; --selector and --field-selector', async () => {
    let r = await s.kubectl(['get', 'cm', 'multi-1', '-o', 'jsonpath={.metadata.name}:{.data.a}']);
    assert.equal(r.stdout, 'multi-1:1');
    r = await s.kubectl(['get', 'cm', '-l', 'app=sweep', '-o', 'custom-columns=NAME:.metadata.name,APP:.metadata.labels.app']);
    assert.equal(r.stdout, 'NAME      APP\nmulti-1   sweep\nmulti-2   sweep\n');
    r = await s.kubectl(['get', 'cm', 'multi-2', '-o', 'go-template={{.metadata.name}}={{.data.b}}']);
    assert.equal(r.stdout, 'multi-2=2');
    r = await s.kubectl(['get', 'deploy', 'patched', '-o', 'wide']);
    assert.match(r.stdout, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\npatched\s+0\/3\s+0\s+0\s+\S+\s+nginx\s+nginx:2\s+app=patched\n$/);
    r = await s.kubectl(['get', 'cm', '--selector', 'app in (sweep)', '--field-selector', 'metadata.name!=multi-1', '-o', 'name']);
    assert.equal(r.stdout, 'configmap/multi-2\n');
    r = await s.kubectl(['get', 'cm', '--field-selector', 'data.a=1']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error from server (BadRequest): Unable to find "/v1, Resource=configmaps" that match label selector "", field selector "data.a=1": "data.a" is not a known field selector: only "metadata.name", "metadata.namespace"\n');
  });

  it('top answers that the Metrics API is not available; events lists events', async () => {
    for (const what of ['pods', 'nodes']) {
      const r = await s.kubectl(['top', what]);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, 'error: Metrics API not available\n');
    }
    let r = await s.kubectl(['events']);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', 'No events found in default namespace.\n']);
    r = await s.kubectl(['create', '-f', '-'], 'apiVersion: v1\nkind: Event\nmetadata: {name: patched.1}\ninvolvedObject: {kind: Deployment, name: patched, namespace: default, apiVersion: apps/v1}\nreason: Testing\nmessage: hello there\ntype: Warning\nfirstTimestamp: "2026-01-01T00:00:00Z"\nlastTimestamp: "2026-01-01T00:00:00Z"\ncount: 2\nsource: {component: sweep}\n');
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['events', '--for', 'deploy/patched', '--types=Warning']);
    assert.match(r.stdout, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE\n\S+ \(x2 over \S+\)\s+Warning\s+Testing\s+Deployment\/patched\s+hello there\n$/);
    r = await s.kubectl(['get', 'events.v1.events.svc.io', '-o', 'wide']);
    assert.match(r.stdout, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+SUBOBJECT\s+SOURCE\s+MESSAGE\s+FIRST SEEN\s+COUNT\s+NAME\n\S+\s+Warning\s+Testing\s+deployment\/patched\s+sweep\s+hello there\s+\S+\s+2\s+patched\.1\n$/);
  });

  it('scale, set image/env/resources and rollout pause/resume/restart/history on a Deployment', async () => {
    assert.equal((await s.kubectl(['create', 'deployment', 'web', '--image=nginx:1', '--replicas=2'])).code, 0);
    let r = await s.kubectl(['scale', 'deploy', 'web', '--replicas=4']);
    assert.equal(r.stdout, 'deployment.apps/web scaled\n');
    r = await s.kubectl(['scale', 'deploy', 'web', '--replicas=5', '--current-replicas=3']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: Expected replicas to be 3, was 4\n');
    r = await s.kubectl(['scale', 'cm', 'multi-1', '--replicas=2']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error from server (NotFound): the server could not find the requested resource\n');
    r = await s.kubectl(['set', 'image', 'deploy/web', 'nginx=nginx:3']);
    assert.equal(r.stdout, 'deployment.apps/web image updated\n');
    r = await s.kubectl(['set', 'image', 'deploy/web', 'nope=nginx:3']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: unable to find container named "nope"\n');
    assert.equal((await s.kubectl(['set', 'env', 'deploy/web', 'A=1', 'B=2'])).code, 0);
    r = await s.kubectl(['set', 'env', 'deploy/web', 'A-']);
    assert.equal(r.stdout, 'deployment.apps/web env updated\n');
    r = await s.kubectl(['set', 'resources', 'deploy/web', '--limits=cpu=200m,memory=512Mi', '--requests=cpu=100m']);
    assert.equal(r.stdout, 'deployment.apps/web resource requirements updated\n');
    r = await s.kubectl(['set', 'resources', 'deploy/web', '--limits=cpu=100m', '--requests=cpu=200m']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: failed to patch resources update to pod template Deployment.apps "web" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "200m": must be less than or equal to cpu limit of 100m\n');
    const c = (await json(['get', 'deploy', 'web'])).spec.template.spec.containers[0];
    assert.deepEqual([c.image, c.env, c.resources], ['nginx:3', [{ name: 'B', value: '2' }], { limits: { cpu: '200m', memory: '512Mi' }, requests: { cpu: '100m' } }]);

    r = await s.kubectl(['rollout', 'pause', 'deploy/web']);
    assert.equal(r.stdout, 'deployment.apps/web paused\n');
    r = await s.kubectl(['rollout', 'pause', 'deploy/web']);
    assert.deepEqual([r.code, r.stderr], [1, 'error: deployments.apps "web" is already paused\n']);
    r = await s.kubectl(['rollout', 'resume', 'deploy/web']);
    assert.equal(r.stdout, 'deployment.apps/web resumed\n');
    r = await s.kubectl(['rollout', 'resume', 'deploy/web']);
    assert.deepEqual([r.code, r.stderr], [1, 'error: deployments.apps "web" is not paused\n']);
    r = await s.kubectl(['rollout', 'restart', 'deploy/web']);
    assert.equal(r.stdout, 'deployment.apps/web restarted\n');
    assert.ok((await json(['get', 'deploy', 'web'])).spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt']);
    // No deployment controller writes ReplicaSets here, so there is no revision to show.
    r = await s.kubectl(['rollout', 'history', 'deploy/web']);
    assert.deepEqual([r.code, r.stdout], [0, 'deployment.apps/web \nNo rollout history found.\n']);
  });

  it('port-forward refuses a pod that is not running', async () => {
    // The service account controller is off here; admission needs the pod's service account.
    await s.kubectl(['create', 'sa', 'default']);
    assert.equal((await s.kubectl(['run', 'idle', '--image=nginx'])).code, 0);
    const r = await s.kubectl(['port-forward', 'idle', '8080:80']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: unable to forward port because pod is not running. Current status=Pending\n');
  });
});
