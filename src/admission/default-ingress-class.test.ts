import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { defaultIngressClass, defaultIngressClassPlugin } from './default-ingress-class.ts';
import type { AdmissionAttributes } from './chain.ts';
import { ingressClassKind } from '../apis/networking/ingressclass.ts';
import { ingressKind } from '../apis/networking/ingress.ts';
import { configMapKind } from '../apis/core/configmap.ts';
import { ResourceStore } from '../registry/store.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ServedResource } from '../server/apis.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

const DEFAULT = 'ingressclass.platform.io/is-default-class';
const storage = SqliteStorage.open(':memory:');
const classes = new ResourceStore(ingressClassKind, storage);
before(async () => { await classes.cache.start(); });
after(async () => { classes.cache.stop(); await storage.close(); });

const cls = (name: string, isDefault: boolean | string, created = '2024-05-01T10:00:00Z'): ApiObject => ({
  apiVersion: 'networking.svc.io/v1', kind: 'IngressClass',
  metadata: { name, creationTimestamp: created, ...(isDefault !== false ? { annotations: { [DEFAULT]: String(isDefault) } } : {}) },
  spec: { controller: 'example.com/ingress' },
});
const ingress = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): ApiObject => ({
  apiVersion: 'networking.svc.io/v1', kind: 'Ingress', metadata: { name: 'i', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...spec },
});
const attrs = (object: ApiObject, operation: AdmissionAttributes['operation'] = 'CREATE', def = ingressKind): AdmissionAttributes => ({
  operation, served: { def } as unknown as ServedResource, namespace: 'ns', name: 'i', object, ctx: requestContext(),
});
const plugin = defaultIngressClassPlugin(() => classes, storage);
const admitted = async (a: AdmissionAttributes) => { await plugin.admit!(a); return (a.object!.spec as { ingressClassName?: string }).ingressClassName; };
const ctx = { ctx: requestContext(), dryRun: false };

test('choosing the default: only classes annotated "true"; the newest; the name breaks a tie', () => {
  assert.equal(defaultIngressClass([cls('a', false), cls('b', 'false')]), undefined);
  assert.equal(defaultIngressClass([cls('a', true, '2024-01-01T00:00:00Z'), cls('b', true, '2024-02-01T00:00:00Z'), cls('c', false, '2024-03-01T00:00:00Z')])?.metadata.name, 'b');
  assert.equal(defaultIngressClass([cls('b', true), cls('a', true)])?.metadata.name, 'b');
});

test('the plugin names the default class on a new Ingress that names none, reading classes as stored now', async () => {
  assert.equal(plugin.name, 'DefaultIngressClass');
  assert.equal(await admitted(attrs(ingress())), undefined);
  await classes.create('', cls('nginx', true), ctx);
  await classes.create('', cls('other', false), ctx);
  assert.equal(await admitted(attrs(ingress())), 'nginx');
  // Stored with a later creation time (written directly: the registry stamps the time itself).
  await storage.create(classes.key('', 'alpha'), JSON.stringify({ ...cls('alpha', true, new Date(Date.now() + 60_000).toISOString()), metadata: { ...cls('alpha', true).metadata, uid: 'u-alpha', creationTimestamp: new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, 'Z') } }));
  assert.equal(await admitted(attrs(ingress())), 'alpha');
});

test('an Ingress that names a class (field or legacy annotation), an update, or another kind is left alone', async () => {
  await classes.create('', cls('default-one', true), ctx).catch(() => undefined);
  assert.equal(await admitted(attrs(ingress({ ingressClassName: 'traefik' }))), 'traefik');
  assert.equal(await admitted(attrs(ingress({}, { 'platform.io/ingress.class': 'nginx' }))), undefined);
  assert.equal(await admitted(attrs(ingress(), 'UPDATE')), undefined);
  const cm: ApiObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
  await plugin.admit!(attrs(cm, 'CREATE', configMapKind));
  assert.equal(cm.spec, undefined);
});
