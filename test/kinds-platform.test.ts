// End-to-end: the platform kinds (RBAC, certificates, admission webhooks, flow control, storage, storage
// migration) driven by the real kubectl against a real Capstan: create and apply from YAML, the columns
// Kubernetes prints, explain, CSR approval and issuance, runtime-config for alpha and beta versions, and
// removed versions answering 404.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { header, row } from './support/kubectl-table.ts';
import { fixtures, type Fixtures } from '../src/apis/certificates/testdata/pki.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('platform kinds with kubectl (all versions enabled)', () => {
  let s: TestServer;
  let pki: Fixtures;
  const kubectl = async (args: string[], input?: string) => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  before(async () => {
    s = await startTestServer({ runtimeConfig: { 'certificates.svc.io/v1alpha1': 'true', 'storage.svc.io/v1beta1': '', 'storagemigration.svc.io/v1alpha1': 'true' } });
    pki = await fixtures();
  });
  after(async () => { await s.stop(); });

  it('RBAC: roles and bindings from YAML, with their columns', async () => {
    const manifest = [
      'apiVersion: rbac.authorization.svc.io/v1\nkind: ClusterRole\nmetadata:\n  name: cm-reader\nrules:\n- apiGroups: [""]\n  resources: [configmaps]\n  verbs: [get, list, watch]\n- nonResourceURLs: ["/healthz", "/apis/*"]\n  verbs: [get]\n',
      'apiVersion: rbac.authorization.svc.io/v1\nkind: Role\nmetadata:\n  name: cm-editor\n  namespace: default\nrules:\n- apiGroups: [""]\n  resources: [configmaps]\n  verbs: ["*"]\n',
      'apiVersion: rbac.authorization.svc.io/v1\nkind: RoleBinding\nmetadata:\n  name: editors\n  namespace: default\nroleRef:\n  kind: Role\n  name: cm-editor\nsubjects:\n- kind: User\n  name: alice\n- kind: Group\n  name: devs\n- kind: ServiceAccount\n  name: robot\n  namespace: default\n',
      'apiVersion: rbac.authorization.svc.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: readers\nroleRef:\n  apiGroup: rbac.authorization.svc.io\n  kind: ClusterRole\n  name: cm-reader\nsubjects:\n- kind: Group\n  name: system:authenticated\n',
    ].join('---\n');
    const created = await kubectl(['create', '-f', '-'], manifest);
    assert.match(created, /clusterrole\.rbac\.authorization\.svc\.io\/cm-reader created/);
    assert.match(created, /clusterrolebinding\.rbac\.authorization\.svc\.io\/readers created/);
    // apply of the same manifest is a no-op for each object.
    const applied = await kubectl(['apply', '-f', '-'], manifest);
    assert.match(applied, /rolebinding\.rbac\.authorization\.svc\.io\/editors (configured|unchanged)/);

    const roles = await kubectl(['get', 'clusterrole', 'cm-reader']);
    assert.deepEqual(header(roles), ['NAME', 'CREATED AT']);
    assert.match(row(roles, 'cm-reader')[1]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const bindings = await kubectl(['get', 'rolebinding', 'editors', '-o', 'wide']);
    assert.deepEqual(header(bindings), ['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
    const cells = row(bindings, 'editors');
    assert.deepEqual([cells[1], cells[3], cells[4], cells[5]], ['Role/cm-editor', 'alice', 'devs', 'default/robot']);
    assert.deepEqual(header(await kubectl(['get', 'clusterrolebinding', 'readers'])), ['NAME', 'ROLE', 'AGE']);
    const json = JSON.parse(await kubectl(['get', 'rolebinding', 'editors', '-o', 'json']));
    assert.equal(json.roleRef.apiGroup, 'rbac.authorization.svc.io');
    assert.equal(json.subjects[0].apiGroup, 'rbac.authorization.svc.io');

    const bad = await s.kubectl(['create', '-f', '-'], 'apiVersion: rbac.authorization.svc.io/v1\nkind: Role\nmetadata:\n  name: bad\n  namespace: default\nrules:\n- nonResourceURLs: ["/healthz"]\n  verbs: [get]\n');
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /rules\[0\]\.nonResourceURLs: Invalid value: \[\]string\{"\/healthz"\}: namespaced rules cannot apply to non-resource URLs/);
    const changed = await s.request('PUT', '/apis/rbac.authorization.svc.io/v1/namespaces/default/rolebindings/editors', { body: JSON.stringify({ ...json, roleRef: { ...json.roleRef, name: 'other' } }) });
    assert.equal(changed.status, 422);
    assert.match(changed.json().message, /roleRef: Invalid value: .*cannot change roleRef/);
    const explain = await kubectl(['explain', 'clusterrole.rules.nonResourceURLs']);
    assert.match(explain, /GROUP:\s+rbac\.authorization\.svc\.io/);
    assert.match(explain, /NonResourceURLs is a set of partial urls/);
  });

  it('RBAC: PUT creates a missing role', async () => {
    const r = await s.request('PUT', '/apis/rbac.authorization.svc.io/v1/clusterroles/made-by-put', { body: JSON.stringify({ apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRole', metadata: { name: 'made-by-put' }, rules: [] }) });
    assert.equal(r.status, 201, r.body);
  });

  it('CSR: created, approved through /approval, issued through /status, with its columns', async () => {
    const manifest = `apiVersion: certificates.svc.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: alice\nspec:\n  request: ${b64(pki.ecdsaRequest)}\n  signerName: platform.io/apiserver-client\n  expirationSeconds: 86400\n  usages: [digital signature, key encipherment, client auth]\n`;
    assert.match(await kubectl(['create', '-f', '-'], manifest), /certificatesigningrequest\.certificates\.svc\.io\/alice created/);
    const got = await kubectl(['get', 'csr', 'alice']);
    assert.deepEqual(header(got), ['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
    const cells = row(got, 'alice');
    assert.deepEqual([cells[2], cells[4], cells[5]], ['platform.io/apiserver-client', '24h', 'Pending']);
    assert.ok(cells[3], 'the requestor is recorded');

    const csr = s.request.bind(s);
    const current = (await csr('GET', '/apis/certificates.svc.io/v1/certificatesigningrequests/alice/approval')).json();
    assert.equal(current.kind, 'CertificateSigningRequest');
    current.status.conditions = [{ type: 'Approved', status: 'True', reason: 'E2EApprove', message: 'approved by the test' }];
    const approved = await csr('PUT', '/apis/certificates.svc.io/v1/certificatesigningrequests/alice/approval', { body: JSON.stringify(current) });
    assert.equal(approved.status, 200, approved.body);
    assert.ok(approved.json().status.conditions[0].lastTransitionTime);
    assert.equal(row(await kubectl(['get', 'csr', 'alice']), 'alice')[5], 'Approved');

    const issued = approved.json();
    issued.status.certificate = b64(pki.leafCert);
    const st = await csr('PUT', '/apis/certificates.svc.io/v1/certificatesigningrequests/alice/status', { body: JSON.stringify(issued) });
    assert.equal(st.status, 200, st.body);
    assert.equal(row(await kubectl(['get', 'csr', 'alice']), 'alice')[5], 'Approved,Issued');
    assert.equal(Buffer.from(await kubectl(['get', 'csr', 'alice', '-o', 'jsonpath={.status.certificate}']), 'base64').toString(), pki.leafCert);

    const again = { ...st.json(), status: { ...st.json().status, certificate: b64(pki.caCert) } };
    const changed = await csr('PUT', '/apis/certificates.svc.io/v1/certificatesigningrequests/alice/status', { body: JSON.stringify(again) });
    assert.equal(changed.status, 422);
    assert.match(changed.json().message, /status\.certificate: Forbidden: updates may not modify existing certificate content/);
  });

  it('CSR: denied with kubectl patch --subresource=approval; Denied excludes Approved; field selector', async () => {
    const manifest = `apiVersion: certificates.svc.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: bob\nspec:\n  request: ${b64(pki.rsaRequest)}\n  signerName: example.com/signer\n  usages: [client auth]\n`;
    await kubectl(['create', '-f', '-'], manifest);
    // `kubectl certificate approve|deny` only handles the certificates.k8s.io types; a patch of the approval
    // sub-resource is the same request.
    await kubectl(['patch', 'csr', 'bob', '--subresource=approval', '--type=merge', '-p', '{"status":{"conditions":[{"type":"Denied","status":"True","reason":"E2EDeny"}]}}']);
    assert.equal(row(await kubectl(['get', 'csr', 'bob']), 'bob')[5], 'Denied');
    const both = await s.request('PATCH', '/apis/certificates.svc.io/v1/certificatesigningrequests/bob/approval', {
      body: '{"status":{"conditions":[{"type":"Denied","status":"True","reason":"E2EDeny"},{"type":"Approved","status":"True"}]}}', headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(both.status, 422);
    assert.match(both.json().message, /Approved and Denied conditions are mutually exclusive/);
    // The well-known field selector.
    const selected = await kubectl(['get', 'csr', '--field-selector', 'spec.signerName=example.com/signer', '-o', 'name']);
    assert.equal(selected.trim(), 'certificatesigningrequest.certificates.svc.io/bob');
  });

  it('CSR: create errors are 422 with one cause per bad field', async () => {
    const r = await s.request('POST', '/apis/certificates.svc.io/v1/certificatesigningrequests', {
      body: JSON.stringify({ apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'bad' }, spec: { request: b64(pki.ecdsaRequest), signerName: 'platform.io/legacy-unknown', expirationSeconds: 60, usages: ['client auth', 'client auth', 'teleport'] } }),
    });
    assert.equal(r.status, 422);
    const causes = r.json().details.causes.map((c: { field: string }) => c.field);
    assert.deepEqual(causes, ['spec.usages[2]', 'spec.usages[1]', 'spec.signerName', 'spec.expirationSeconds']);
  });

  it('CSR: discovery lists the approval and status sub-resources', async () => {
    const list = (await s.request('GET', '/apis/certificates.svc.io/v1')).json();
    const names = list.resources.map((r: { name: string }) => r.name);
    assert.ok(names.includes('certificatesigningrequests/approval'), names.join(','));
    assert.ok(names.includes('certificatesigningrequests/status'), names.join(','));
  });

  it('ClusterTrustBundle (alpha, enabled): created and listed by signer name', async () => {
    const pem = pki.caCert.replace(/\n/g, '\n    ');
    const manifest = `apiVersion: certificates.svc.io/v1alpha1\nkind: ClusterTrustBundle\nmetadata:\n  name: example.com:signer:roots\nspec:\n  signerName: example.com/signer\n  trustBundle: |\n    ${pem.trimEnd()}\n`;
    await kubectl(['apply', '-f', '-'], manifest);
    const got = await kubectl(['get', 'clustertrustbundles']);
    assert.deepEqual(header(got), ['NAME', 'SIGNERNAME']);
    assert.equal(row(got, 'example.com:signer:roots')[1], 'example.com/signer');
    assert.match(await kubectl(['explain', 'clustertrustbundle.spec.trustBundle']), /VERSION:\s+v1alpha1/);
  });

  it('ClusterTrustBundle: any authenticated user and every service account may read, not write', async () => {
    for (const as of [['--as', 'someone', '--as-group', 'system:authenticated'], ['--as', 'system:serviceaccount:default:default', '--as-group', 'system:serviceaccounts', '--as-group', 'system:authenticated']]) {
      assert.equal((await kubectl(['get', 'clustertrustbundle', 'example.com:signer:roots', '-o', 'name', ...as])).trim(), 'clustertrustbundle.certificates.svc.io/example.com:signer:roots');
      assert.match(await kubectl(['get', 'clustertrustbundles', '-o', 'name', ...as]), /example\.com:signer:roots/);
      assert.equal((await kubectl(['auth', 'can-i', 'watch', 'clustertrustbundles', ...as])).trim(), 'yes');
      const denied = await s.kubectl(['delete', 'clustertrustbundle', 'example.com:signer:roots', ...as]);
      assert.notEqual(denied.code, 0);
      assert.match(denied.stderr, /clustertrustbundles.certificates.svc.io "example.com:signer:roots" is forbidden: User ".*" cannot delete resource "clustertrustbundles" in API group "certificates.svc.io" at the cluster scope/);
    }
    // Not for whoever is not authenticated.
    const anonymous = await s.kubectl(['get', 'clustertrustbundles', '--as', 'system:anonymous', '--as-group', 'system:unauthenticated']);
    assert.notEqual(anonymous.code, 0);
    assert.match(anonymous.stderr, /forbidden/);
  });

  it('admission webhooks: defaults and columns', async () => {
    const manifest = 'apiVersion: admissionregistration.svc.io/v1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: inject\nwebhooks:\n- name: inject.example.com\n  clientConfig:\n    service:\n      name: injector\n      namespace: default\n  rules:\n  - operations: [CREATE]\n    apiGroups: [""]\n    apiVersions: [v1]\n    resources: [configmaps]\n  sideEffects: None\n  admissionReviewVersions: [v1]\n'
      + '---\napiVersion: admissionregistration.svc.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: policy\nwebhooks:\n- name: policy.example.com\n  clientConfig:\n    url: https://policy.example.com/validate\n  sideEffects: NoneOnDryRun\n  admissionReviewVersions: [v1, v1beta1]\n  matchConditions:\n  - name: not-system\n    expression: "!request.userInfo.username.startsWith(\'system:\')"\n';
    await kubectl(['apply', '-f', '-'], manifest);
    const m = JSON.parse(await kubectl(['get', 'mutatingwebhookconfiguration', 'inject', '-o', 'json']));
    const hook = m.webhooks[0];
    assert.deepEqual([hook.failurePolicy, hook.matchPolicy, hook.timeoutSeconds, hook.reinvocationPolicy, hook.clientConfig.service.port, hook.rules[0].scope], ['Fail', 'Equivalent', 10, 'Never', 443, '*']);
    const got = await kubectl(['get', 'validatingwebhookconfiguration', 'policy']);
    assert.deepEqual(header(got), ['NAME', 'WEBHOOKS', 'AGE']);
    assert.equal(row(got, 'policy')[1], '1');
    const bad = await s.kubectl(['create', '-f', '-'], 'apiVersion: admissionregistration.svc.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: broken\nwebhooks:\n- name: broken.example.com\n  clientConfig: {}\n');
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /webhooks\[0\]\.sideEffects: Required value/);
    assert.match(bad.stderr, /webhooks\[0\]\.clientConfig: Required value: exactly one of url or service is required/);
    assert.match(bad.stderr, /webhooks\[0\]\.admissionReviewVersions: Required value/);
    assert.match(await kubectl(['explain', 'mutatingwebhookconfiguration.webhooks.reinvocationPolicy']), /reinvocationPolicy indicates whether this webhook/);
  });

  it('flow control: v1 defaults and columns; removed beta versions answer 404', async () => {
    const manifest = 'apiVersion: flowcontrol.apiserver.svc.io/v1\nkind: PriorityLevelConfiguration\nmetadata:\n  name: batch\nspec:\n  type: Limited\n  limited:\n    limitResponse:\n      type: Queue\n      queuing: {}\n'
      + '---\napiVersion: flowcontrol.apiserver.svc.io/v1\nkind: PriorityLevelConfiguration\nmetadata:\n  name: jail\nspec:\n  type: Limited\n  limited:\n    nominalConcurrencyShares: 0\n    limitResponse:\n      type: Reject\n'
      + '---\napiVersion: flowcontrol.apiserver.svc.io/v1\nkind: FlowSchema\nmetadata:\n  name: batch-jobs\nspec:\n  priorityLevelConfiguration:\n    name: batch\n  distinguisherMethod:\n    type: ByUser\n  rules:\n  - subjects:\n    - kind: Group\n      group:\n        name: batch\n    resourceRules:\n    - verbs: ["*"]\n      apiGroups: ["*"]\n      resources: ["*"]\n      namespaces: ["*"]\n';
    await kubectl(['create', '-f', '-'], manifest);
    const pl = await kubectl(['get', 'prioritylevelconfigurations']);
    assert.deepEqual(header(pl), ['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE']);
    assert.deepEqual(row(pl, 'batch').slice(1, 6), ['Limited', '30', '64', '8', '50']);
    assert.deepEqual(row(pl, 'jail').slice(1, 6), ['Limited', '0', '<none>', '<none>', '<none>']);
    const fs = await kubectl(['get', 'flowschemas']);
    assert.deepEqual(header(fs), ['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']);
    assert.deepEqual(row(fs, 'batch-jobs').slice(1, 4), ['batch', '1000', 'ByUser']);
    for (const v of ['v1beta1', 'v1beta2', 'v1beta3']) {
      for (const path of [`/apis/flowcontrol.apiserver.svc.io/${v}`, `/apis/flowcontrol.apiserver.svc.io/${v}/flowschemas`, `/apis/flowcontrol.apiserver.svc.io/${v}/prioritylevelconfigurations`]) {
        assert.equal((await s.request('GET', path)).status, 404, path);
      }
    }
    const st = await s.request('GET', '/apis/flowcontrol.apiserver.svc.io/v1/prioritylevelconfigurations/batch/status');
    assert.equal(st.status, 200);
    assert.match(await kubectl(['explain', 'prioritylevelconfiguration.spec.limited.lendablePercent']), /lendablePercent/);
  });

  it('storage: CSIDriver, CSINode, StorageClass, CSIStorageCapacity, VolumeAttachment, VolumeAttributesClass', async () => {
    const manifest = [
      'apiVersion: storage.svc.io/v1\nkind: CSIDriver\nmetadata:\n  name: ebs.csi.example.com\nspec: {}\n',
      'apiVersion: storage.svc.io/v1\nkind: CSINode\nmetadata:\n  name: node-1\nspec:\n  drivers:\n  - name: ebs.csi.example.com\n    nodeID: i-0123\n    topologyKeys: [topology.ebs.csi.example.com/zone]\n',
      'apiVersion: storage.svc.io/v1\nkind: StorageClass\nmetadata:\n  name: standard\n  annotations:\n    storageclass.platform.io/is-default-class: "true"\nprovisioner: ebs.csi.example.com\nparameters:\n  type: gp3\n',
      'apiVersion: storage.svc.io/v1\nkind: CSIStorageCapacity\nmetadata:\n  name: csisc-zone-a\n  namespace: default\nstorageClassName: standard\ncapacity: 100Gi\nnodeTopology:\n  matchLabels:\n    topology.ebs.csi.example.com/zone: a\n',
      'apiVersion: storage.svc.io/v1\nkind: VolumeAttachment\nmetadata:\n  name: va-1\nspec:\n  attacher: ebs.csi.example.com\n  nodeName: node-1\n  source:\n    persistentVolumeName: pv-nfs\n',
      'apiVersion: storage.svc.io/v1beta1\nkind: VolumeAttributesClass\nmetadata:\n  name: gold\ndriverName: ebs.csi.example.com\nparameters:\n  iops: "3000"\n',
    ].join('---\n');
    await kubectl(['apply', '-f', '-'], manifest);
    const drivers = await kubectl(['get', 'csidrivers']);
    assert.deepEqual(header(drivers), ['NAME', 'ATTACHREQUIRED', 'PODINFOONMOUNT', 'STORAGECAPACITY', 'TOKENREQUESTS', 'REQUIRESREPUBLISH', 'MODES', 'AGE']);
    assert.deepEqual(row(drivers, 'ebs.csi.example.com').slice(1, 7), ['true', 'false', 'false', '<unset>', 'false', 'Persistent']);
    assert.deepEqual(header(await kubectl(['get', 'csinodes'])), ['NAME', 'DRIVERS', 'AGE']);
    const sc = await kubectl(['get', 'sc']);
    assert.deepEqual(header(sc), ['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE']);
    assert.deepEqual(row(sc, 'standard (default)').slice(1, 5), ['ebs.csi.example.com', 'Delete', 'Immediate', 'false']);
    const caps = await kubectl(['get', 'csistoragecapacities', '-n', 'default']);
    assert.deepEqual(header(caps), ['NAME', 'STORAGECLASSNAME', 'CAPACITY']);
    assert.deepEqual(row(caps, 'csisc-zone-a').slice(1), ['standard', '100Gi']);
    const va = await kubectl(['get', 'volumeattachments']);
    assert.deepEqual(header(va), ['NAME', 'ATTACHER', 'PV', 'NODE', 'ATTACHED', 'AGE']);
    assert.deepEqual(row(va, 'va-1').slice(1, 5), ['ebs.csi.example.com', 'pv-nfs', 'node-1', 'false']);
    const vac = await kubectl(['get', 'vac']);
    assert.deepEqual(header(vac), ['NAME', 'DRIVERNAME', 'AGE']);

    const immutable = await s.kubectl(['patch', 'csidriver', 'ebs.csi.example.com', '--type=merge', '-p', '{"spec":{"attachRequired":false}}']);
    assert.notEqual(immutable.code, 0);
    assert.match(immutable.stderr, /spec\.attachedRequired: Invalid value: false: field is immutable/);
    const scChange = await s.kubectl(['patch', 'sc', 'standard', '--type=merge', '-p', '{"parameters":{"type":"io2"}}']);
    assert.match(scChange.stderr, /parameters: Forbidden: updates to parameters are forbidden\./);
    for (const what of ['csidriver.spec.fsGroupPolicy', 'storageclass.volumeBindingMode', 'csinode.spec.drivers.allocatable', 'volumeattachment.spec.source.inlineVolumeSpec.csi', 'volumeattributesclass.driverName']) {
      assert.match(await kubectl(['explain', what]), /DESCRIPTION:/, what);
    }
  });

  it('PersistentVolume and PersistentVolumeClaim: defaults, columns, immutability', async () => {
    const manifest = 'apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv-nfs\nspec:\n  capacity:\n    storage: 5Gi\n  accessModes: [ReadWriteMany]\n  nfs:\n    server: nfs.example.com\n    path: /exports/data\n'
      + '---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\n  namespace: default\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: standard\n  resources:\n    requests:\n      storage: 1Gi\n';
    await kubectl(['create', '-f', '-'], manifest);
    const pv = await kubectl(['get', 'pv', 'pv-nfs', '-o', 'wide']);
    assert.deepEqual(header(pv), ['NAME', 'CAPACITY', 'ACCESS MODES', 'RECLAIM POLICY', 'STATUS', 'CLAIM', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'REASON', 'AGE', 'VOLUMEMODE']);
    assert.deepEqual(row(pv, 'pv-nfs').slice(1, 5), ['5Gi', 'RWX', 'Retain', 'Pending']);
    const pvc = await kubectl(['get', 'pvc', 'data']);
    assert.deepEqual(header(pvc), ['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE']);
    assert.deepEqual(row(pvc, 'data').slice(1, 4), ['Pending', 'standard', '<unset>']);
    assert.equal(await kubectl(['get', 'pvc', 'data', '-o', 'jsonpath={.spec.volumeMode}']), 'Filesystem');
    const changed = await s.kubectl(['patch', 'pvc', 'data', '--type=merge', '-p', '{"spec":{"accessModes":["ReadWriteMany"]}}']);
    assert.notEqual(changed.code, 0);
    assert.match(changed.stderr, /spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims/);
    const source = await s.kubectl(['patch', 'pv', 'pv-nfs', '--type=merge', '-p', '{"spec":{"nfs":{"path":"/elsewhere"}}}']);
    assert.match(source.stderr, /spec\.persistentvolumesource: Forbidden: spec\.persistentvolumesource is immutable after creation/);
    assert.match(await kubectl(['explain', 'pv.spec.local']), /local represents directly-attached storage/);
    assert.match(await kubectl(['explain', 'pvc.spec.dataSourceRef']), /dataSourceRef specifies the object/);
  });

  it('StorageVersionMigration (alpha, enabled): created from YAML', async () => {
    await kubectl(['create', '-f', '-'], 'apiVersion: storagemigration.svc.io/v1alpha1\nkind: StorageVersionMigration\nmetadata:\n  name: secrets\nspec:\n  resource:\n    group: ""\n    version: v1\n    resource: secrets\n');
    const got = await kubectl(['get', 'storageversionmigrations']);
    assert.deepEqual(header(got), ['NAME', 'CREATED AT']);
    assert.match(await kubectl(['explain', 'storageversionmigration.spec.resource']), /VERSION:\s+v1alpha1/);
  });

  it('discovery and OpenAPI show the enabled alpha and beta versions', async () => {
    const versions = await kubectl(['api-versions']);
    for (const gv of ['certificates.svc.io/v1alpha1', 'storage.svc.io/v1beta1', 'storagemigration.svc.io/v1alpha1']) assert.match(versions, new RegExp(`^${gv.replace(/\./g, '\\.')}$`, 'm'));
    const paths = Object.keys((await s.request('GET', '/openapi/v3')).json().paths);
    for (const p of ['apis/certificates.svc.io/v1alpha1', 'apis/storage.svc.io/v1beta1', 'apis/storagemigration.svc.io/v1alpha1']) assert.ok(paths.includes(p), p);
  });

  it('CustomResourceDefinitions print the default columns, as Kubernetes\' default table convertor does', async () => {
    const r = await s.request('GET', '/apis/apiextensions.svc.io/v1/customresourcedefinitions', { headers: { accept: 'application/json;as=Table;v=v1;g=meta.svc.io' } });
    assert.equal(r.status, 200, r.body);
    const columns = r.json().columnDefinitions.map((c: Record<string, unknown>) => [c.name, c.type, c.format, String(c.description).split('.')[0]]);
    assert.deepEqual(columns, [
      ['Name', 'string', 'name', 'Name must be unique within a namespace'],
      ['Created At', 'date', '', 'CreationTimestamp is a timestamp representing the server time when this object was created'],
    ]);
  });
});

describe('platform kinds with the default runtime config', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('alpha versions and the post-1.22 beta are not served: 404, absent from discovery and OpenAPI', async () => {
    for (const path of ['/apis/certificates.svc.io/v1alpha1', '/apis/certificates.svc.io/v1alpha1/clustertrustbundles', '/apis/storage.svc.io/v1beta1/volumeattributesclasses', '/apis/storagemigration.svc.io/v1alpha1/storageversionmigrations']) {
      assert.equal((await s.request('GET', path)).status, 404, path);
    }
    const versions = await s.kubectl(['api-versions']);
    assert.doesNotMatch(versions.stdout, /v1alpha1|storage\.svc\.io\/v1beta1/);
    assert.match(versions.stdout, /^certificates\.svc\.io\/v1$/m);
    const paths = Object.keys((await s.request('GET', '/openapi/v3')).json().paths);
    assert.ok(paths.includes('apis/certificates.svc.io/v1'));
    assert.ok(!paths.some((p) => /v1alpha1|storage\.svc\.io\/v1beta1/.test(p)), paths.join(','));
    const created = await s.kubectl(['create', '-f', '-'], 'apiVersion: storagemigration.svc.io/v1alpha1\nkind: StorageVersionMigration\nmetadata:\n  name: x\nspec:\n  resource:\n    version: v1\n    resource: secrets\n');
    assert.notEqual(created.code, 0);
  });

  it('a single resource of a version can be enabled', async () => {
    const one = await startTestServer({ runtimeConfig: { 'certificates.svc.io/v1alpha1/clustertrustbundles': 'true' } });
    try {
      assert.equal((await one.request('GET', '/apis/certificates.svc.io/v1alpha1/clustertrustbundles')).status, 200);
    } finally {
      await one.stop();
    }
  });

  it('removed versions of platform kinds answer 404', async () => {
    for (const path of [
      '/apis/flowcontrol.apiserver.svc.io/v1beta3/flowschemas', '/apis/flowcontrol.apiserver.svc.io/v1beta2/prioritylevelconfigurations',
      '/apis/flowcontrol.apiserver.svc.io/v1beta1/flowschemas', '/apis/storage.svc.io/v1beta1/csistoragecapacities',
      '/apis/admissionregistration.svc.io/v1beta1/mutatingwebhookconfigurations', '/apis/certificates.svc.io/v1beta1/certificatesigningrequests',
      '/apis/rbac.authorization.svc.io/v1beta1/clusterroles', '/apis/storage.svc.io/v1beta1/csidrivers', '/apis/storage.svc.io/v1beta1/storageclasses',
    ]) {
      assert.equal((await s.request('GET', path)).status, 404, path);
    }
  });
});
