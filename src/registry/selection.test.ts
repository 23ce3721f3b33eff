import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSelection, parseSelectors, fieldLabelRules } from './selection.ts';
import { decodeKv } from '../storage/cache.ts';
import type { KindDefinition } from '../apis/kind.ts';

const plain = { kind: 'ConfigMap', namespaced: true } as KindDefinition;
const custom = { kind: 'Node', namespaced: false, fieldSelectors: { 'spec.unschedulable': (o: any) => String(!!o.spec?.unschedulable) } } as unknown as KindDefinition;
const obj = (ns: string, name: string, labels?: Record<string, string>) => decodeKv({ key: `/registry/x/${ns}/${name}`, value: JSON.stringify({ metadata: { name, namespace: ns, labels } }), createRevision: 1, modRevision: 1 });

describe('field label rules', () => {
  it('follow Kubernetes: default conversion for kinds without fields of their own, custom otherwise', () => {
    assert.deepEqual(fieldLabelRules(plain), { style: 'default', supported: ['metadata.name', 'metadata.namespace'], aliases: undefined });
    assert.deepEqual(fieldLabelRules(custom), { style: 'custom', supported: ['metadata.name', 'spec.unschedulable'], aliases: undefined });
    assert.equal(fieldLabelRules({ ...custom, fieldSelectorStyle: 'default' }).style, 'default');
  });

  it('rewrite aliases before matching', () => {
    const pod = { kind: 'Pod', namespaced: true, fieldSelectors: { 'spec.nodeName': (o: any) => o.spec?.nodeName ?? '' }, fieldSelectorAliases: { 'spec.host': 'spec.nodeName' } } as unknown as KindDefinition;
    const sel = buildSelection(pod, 'ns', parseSelectors(undefined, 'spec.host=n1'));
    const onN1 = decodeKv({ key: '/registry/pods/ns/p', value: JSON.stringify({ metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: 'n1' } }), createRevision: 1, modRevision: 1 });
    assert.equal(sel.matches(onN1), true);
  });
});

describe('buildSelection', () => {
  it('matches namespace, labels and fields together, and says when it filters', () => {
    const all = buildSelection(plain, '', parseSelectors('', ''));
    assert.equal(all.filtered, false);
    assert.equal(all.matches(obj('a', 'x')), true);
    const sel = buildSelection(plain, 'a', parseSelectors('app=web', 'metadata.name!=y'));
    assert.equal(sel.filtered, true);
    assert.equal(sel.matches(obj('a', 'x', { app: 'web' })), true);
    assert.equal(sel.matches(obj('b', 'x', { app: 'web' })), false);
    assert.equal(sel.matches(obj('a', 'y', { app: 'web' })), false);
    assert.equal(sel.matches(obj('a', 'x')), false);
  });

  it('pins one name for single-object requests, and refuses a field selector that names another', () => {
    assert.equal(buildSelection(plain, 'a', parseSelectors(undefined, undefined), 'x').name, 'x');
    assert.equal(buildSelection(plain, 'a', parseSelectors(undefined, 'metadata.name=x'), 'x').name, 'x');
    assert.throws(() => buildSelection(plain, 'a', parseSelectors(undefined, 'metadata.name=z'), 'x'), /fieldSelector metadata.name doesn't match requested name/);
    assert.throws(() => buildSelection(plain, 'a', parseSelectors(undefined, 'metadata.namespace=a'), 'x'), /doesn't match requested name/);
  });
});
