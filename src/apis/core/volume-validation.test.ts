// The pod-level Volume: one source each, file modes, item paths, projections, service account tokens, ephemeral
// claims and the common sources, through a Pod's create.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { podKind } from './pod.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(podKind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
// The account is named as ServiceAccount admission names it (a token projection needs one).
const pod = (volumes: Obj[], name = `pod-${++n}`): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' },
  spec: { serviceAccountName: 'default', containers: [{ name: 'app', image: 'nginx:1.27' }], volumes },
});
const causes = async (...volumes: Obj[]) => (await rejection(h.create(pod(volumes)))).causes;
const created = async (...volumes: Obj[]) => ((await h.create(pod(volumes))).spec as Obj).volumes as Obj[];

const RFC1123_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const FILE_MODE = 'must be a number between 0 and 0777 (octal), both inclusive';

test('names: required, a DNS label, unique', async () => {
  assert.deepEqual(await causes({ name: '', emptyDir: {} }), ['spec.volumes[0].name: Required value']);
  assert.deepEqual(await causes({ name: 'Bad_Name', emptyDir: {} }), [`spec.volumes[0].name: Invalid value: "Bad_Name": ${RFC1123_LABEL}`]);
  assert.deepEqual(await causes({ name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }), ['spec.volumes[1].name: Duplicate value: "v"']);
});

test('exactly one source: none defaults to emptyDir, a second is forbidden', async () => {
  assert.deepEqual(await created({ name: 'v' }), [{ name: 'v', emptyDir: {} }]);
  assert.deepEqual(await causes({ name: 'v', emptyDir: {}, hostPath: { path: '/x' } }), ['spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type']);
  assert.deepEqual(await causes({ name: 'v', configMap: { name: 'c' }, secret: { secretName: 's' } }), ['spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type']);
});

test('defaultMode: 0644 (420) by default for configMap, secret, downwardAPI and projected; 0 to 0777', async () => {
  const vols = await created(
    { name: 'a', configMap: { name: 'c' } }, { name: 'b', secret: { secretName: 's' } },
    { name: 'c', downwardAPI: {} }, { name: 'd', projected: { sources: [] } }, { name: 'e', configMap: { name: 'c', defaultMode: 0 } },
  );
  assert.deepEqual(vols.map((v) => (v.configMap ?? v.secret ?? v.downwardAPI ?? v.projected).defaultMode), [420, 420, 420, 420, 0]);
  assert.deepEqual(await causes({ name: 'v', configMap: { name: 'c', defaultMode: 512 } }), [`spec.volumes[0].configMap.defaultMode: Invalid value: 512: ${FILE_MODE}`]);
  assert.deepEqual(await causes({ name: 'v', secret: { secretName: 's', defaultMode: -1 } }), [`spec.volumes[0].secret.defaultMode: Invalid value: -1: ${FILE_MODE}`]);
  assert.deepEqual(await causes({ name: 'v', projected: { sources: [], defaultMode: 1000 } }), [`spec.volumes[0].projected.defaultMode: Invalid value: 1000: ${FILE_MODE}`]);
});

test('items: key and path required, relative paths without .., item modes', async () => {
  assert.deepEqual(await causes({ name: 'v', configMap: { name: 'c', items: [{ key: '', path: '' }] } }), [
    'spec.volumes[0].configMap.items[0].key: Required value',
    'spec.volumes[0].configMap.items[0].path: Required value',
  ]);
  assert.deepEqual(await causes({ name: 'v', configMap: { name: 'c', items: [{ key: 'k', path: '/abs' }] } }), ['spec.volumes[0].configMap.items[0].path: Invalid value: "/abs": must be a relative path']);
  assert.deepEqual(await causes({ name: 'v', secret: { secretName: 's', items: [{ key: 'k', path: 'a/../b' }] } }), ["spec.volumes[0].secret.items[0].path: Invalid value: \"a/../b\": must not contain '..'"]);
  assert.deepEqual(await causes({ name: 'v', secret: { secretName: 's', items: [{ key: 'k', path: '..b' }] } }), ["spec.volumes[0].secret.items[0].path: Invalid value: \"..b\": must not start with '..'"]);
  assert.deepEqual(await causes({ name: 'v', configMap: { name: 'c', items: [{ key: 'k', path: 'x', mode: 4096 }] } }), [`spec.volumes[0].configMap.items[0].mode: Invalid value: 4096: ${FILE_MODE}`]);
  assert.deepEqual(await created({ name: 'v', configMap: { name: 'c', items: [{ key: 'k', path: 'a/..b' }] } }), [{ name: 'v', configMap: { name: 'c', items: [{ key: 'k', path: 'a/..b' }], defaultMode: 420 } }]);
});

test('configMap and secret name the object they read', async () => {
  assert.deepEqual(await causes({ name: 'v', configMap: {} }), ['spec.volumes[0].configMap.name: Required value']);
  assert.deepEqual(await causes({ name: 'v', secret: {} }), ['spec.volumes[0].secret.secretName: Required value']);
});

test('projected: one source per entry, no duplicate paths across sources', async () => {
  assert.deepEqual(await causes({ name: 'v', projected: { sources: [{ configMap: { name: 'a' }, secret: { name: 'b' } }] } }), [
    'spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type',
  ]);
  assert.deepEqual(await causes({ name: 'v', projected: { sources: [{ configMap: { name: 'a', items: [{ key: 'k', path: 'p' }] } }, { secret: { name: 'b', items: [{ key: 'k', path: 'p' }] } }] } }), [
    'spec.volumes[0].projected: Invalid value: "b": conflicting duplicate paths',
  ]);
  assert.deepEqual(await causes({ name: 'v', projected: { sources: [{ secret: {} }] } }), ['spec.volumes[0].projected.sources[0].secret.name: Required value']);
});

test('serviceAccountToken: expirationSeconds at least 600 (default 3600), at most 2^32, a path', async () => {
  const [v] = await created({ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } });
  assert.deepEqual(v!.projected, { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }], defaultMode: 420 });
  assert.deepEqual(await causes({ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 599 } }] } }), [
    'spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
  ]);
  assert.deepEqual(await causes({ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 2 ** 32 + 1 } }] } }), [
    'spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
  ]);
  // Kubernetes reports the missing token path on the projection, not on the source.
  assert.deepEqual(await causes({ name: 'v', projected: { sources: [{ serviceAccountToken: { path: '' } }] } }), ['spec.volumes[0].projected.path: Required value']);
  // Since 1.30 the token path must be local, like the other projected files.
  assert.deepEqual(await causes({ name: 'v', projected: { sources: [{ serviceAccountToken: { path: '/abs/../t' } }] } }), [
    'spec.volumes[0].projected.path: Invalid value: "/abs/../t": must be a relative path',
    "spec.volumes[0].projected.path: Invalid value: \"/abs/../t\": must not contain '..'",
  ]);
});

test('ephemeral: a claim template is required, without a name; the claim <pod>-<volume> must be a valid name', async () => {
  const tpl = { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
  const [v] = await created({ name: 'scratch', ephemeral: { volumeClaimTemplate: tpl } });
  assert.deepEqual(v!.ephemeral.volumeClaimTemplate, { metadata: { creationTimestamp: null }, spec: { ...tpl.spec, volumeMode: 'Filesystem' } });
  assert.deepEqual(await causes({ name: 'v', ephemeral: {} }), ['spec.volumes[0].ephemeral.volumeClaimTemplate: Required value']);
  assert.deepEqual(await causes({ name: 'v', ephemeral: { volumeClaimTemplate: { metadata: { name: 'x' }, ...tpl } } }), [
    'spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set for an ephemeral volume',
  ]);
  assert.deepEqual(await causes({ name: 'v', ephemeral: { volumeClaimTemplate: { spec: { accessModes: [] } } } }), [
    'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required',
    'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value',
  ]);
  const podName = 'p'.repeat(240), volName = 'scratch-volume';
  const r = await rejection(h.create({ ...pod([{ name: volName, ephemeral: { volumeClaimTemplate: tpl } }]), metadata: { name: podName, namespace: 'ns' } }));
  assert.deepEqual(r.causes, [`spec.volumes[0].name: Invalid value: "${volName}": PVC name "${podName}-${volName}": must be no more than 253 characters`]);
});

test('emptyDir: a size limit is not negative', async () => {
  assert.deepEqual(await created({ name: 'v', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } }), [{ name: 'v', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } }]);
  assert.deepEqual(await causes({ name: 'v', emptyDir: { sizeLimit: '-1Gi' } }), ['spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity']);
});

test('hostPath: a path without .., a known type (default "")', async () => {
  assert.deepEqual(await created({ name: 'v', hostPath: { path: '/data' } }), [{ name: 'v', hostPath: { path: '/data', type: '' } }]);
  assert.deepEqual(await causes({ name: 'v', hostPath: { path: '' } }), ['spec.volumes[0].hostPath.path: Required value']);
  // Without a path the type is not looked at.
  assert.deepEqual(await causes({ name: 'v', hostPath: { path: '', type: 'Weird' } }), ['spec.volumes[0].hostPath.path: Required value']);
  assert.deepEqual(await causes({ name: 'v', hostPath: { path: '/a/../b' } }), ["spec.volumes[0].hostPath.path: Invalid value: \"/a/../b\": must not contain '..'"]);
  assert.deepEqual(await causes({ name: 'v', hostPath: { path: '/x', type: 'Weird' } }), [
    'spec.volumes[0].hostPath.type: Unsupported value: "Weird": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
  ]);
});

const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

test('csi: a driver name, a named publish secret', async () => {
  // As ValidateCSIDriverName says it: an empty name is also no subdomain; an absent one is empty.
  const emptyDriver = ['spec.volumes[0].csi.driver: Required value', `spec.volumes[0].csi.driver: Invalid value: "": ${SUBDOMAIN}`];
  assert.deepEqual(await causes({ name: 'v', csi: { driver: '' } }), emptyDriver);
  assert.deepEqual(await causes({ name: 'v', csi: {} }), emptyDriver);
  assert.deepEqual(await created({ name: 'v', csi: { driver: 'Csi.Example.com' } }), [{ name: 'v', csi: { driver: 'Csi.Example.com' } }]);
  assert.equal((await causes({ name: 'v', csi: { driver: 'Bad_Driver' } }))[0], "spec.volumes[0].csi.driver: Invalid value: \"Bad_Driver\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  assert.deepEqual(await causes({ name: 'v', csi: { driver: 'csi.example.com', nodePublishSecretRef: {} } }), ['spec.volumes[0].csi.nodePublishSecretRef.name: Required value']);
  assert.deepEqual(await created({ name: 'v', csi: { driver: 'csi.example.com', volumeAttributes: { a: 'b' } } }), [{ name: 'v', csi: { driver: 'csi.example.com', volumeAttributes: { a: 'b' } } }]);
});

test('downwardAPI: a field or a resource, the fields a volume may read, API version v1 by default', async () => {
  const [v] = await created({ name: 'v', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } });
  assert.deepEqual(v!.downwardAPI.items, [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels', apiVersion: 'v1' } }]);
  // Kubernetes reports downward API items without their index.
  assert.deepEqual(await causes({ name: 'v', downwardAPI: { items: [{ path: 'x', fieldRef: { fieldPath: 'spec.nodeName' } }] } }), [
    'spec.volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
  ]);
  assert.deepEqual(await causes({ name: 'v', downwardAPI: { items: [{ path: 'x' }] } }), ['spec.volumes[0].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required']);
  assert.deepEqual(await causes({ name: 'v', downwardAPI: { items: [{ path: 'x', resourceFieldRef: { resource: 'limits.cpu' } }] } }), ['spec.volumes[0].downwardAPI.resourceFieldRef.containerName: Required value']);
});

test('persistentVolumeClaim: a claim name', async () => {
  assert.deepEqual(await causes({ name: 'v', persistentVolumeClaim: { claimName: '' } }), ['spec.volumes[0].persistentVolumeClaim.claimName: Required value']);
  assert.deepEqual(await created({ name: 'v', persistentVolumeClaim: { claimName: 'data', readOnly: true } }), [{ name: 'v', persistentVolumeClaim: { claimName: 'data', readOnly: true } }]);
});

test('nfs and iscsi keep their own rules', async () => {
  assert.deepEqual(await causes({ name: 'v', nfs: { server: 'nfs.local', path: 'relative' } }), ['spec.volumes[0].nfs.path: Invalid value: "relative": must be an absolute path']);
  assert.deepEqual(await causes({ name: 'v', iscsi: { targetPortal: '1.2.3.4:3260', iqn: 'bad', lun: 0 } }), ['spec.volumes[0].iscsi.iqn: Invalid value: "bad": must be valid format starting with iqn, eui, or naa']);
});
