import { test } from 'node:test';
import assert from 'node:assert/strict';
import { S } from '../../apis/meta/schema.ts';
import { ObjectMeta } from '../../apis/meta/v1.ts';
import { fieldErrorText } from '../field-errors.ts';
import { uncoveredStructuralErrors, validateStructure } from './validate.ts';

const Container = S.object({
  name: S.string({ maxLength: 5, pattern: '^[a-z]+$' }),
  image: { ...S.string(), minLength: 2 } as ReturnType<typeof S.string>,
  pullPolicy: S.string({ enum: ['Always', 'IfNotPresent', 'Never'] }),
  port: S.int32({ minimum: 1, maximum: 65535 }),
}, { required: ['name', 'image'] });

const Workload = S.object({
  metadata: ObjectMeta,
  spec: S.object({
    replicas: S.int32({ minimum: 0 }),
    containers: S.list(Container, { listType: 'map', listMapKeys: ['name'] }),
    limits: S.map(S.int64({ maximum: 100 })),
    hosts: S.list(S.string()),
  }, { required: ['containers'] }),
});

const texts = (obj: unknown, path?: string) => validateStructure(obj, Workload, path).map(fieldErrorText);

test('a valid object has no structural errors', () => {
  assert.deepEqual(texts({ metadata: { name: 'x' }, spec: { replicas: 2, containers: [{ name: 'web', image: 'nginx', pullPolicy: 'Always', port: 80 }], limits: { a: 100 } } }), []);
  assert.deepEqual(texts({}), []);
});

test('structural errors use Kubernetes field error texts and paths', () => {
  assert.deepEqual(texts({
    spec: {
      replicas: -1,
      containers: [{ name: 'too-long', image: 'n', pullPolicy: 'Sometimes', port: 0 }, { name: 'Caps' }, { image: 'ok', port: 70000 }],
      limits: { cpu: 101 },
    },
  }), [
    'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    'spec.containers[0].name: Too long: may not be more than 5 bytes',
    "spec.containers[0].name: Invalid value: \"too-long\": should match '^[a-z]+$'",
    'spec.containers[0].image: Invalid value: "n": should be at least 2 chars long',
    'spec.containers[0].pullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
    'spec.containers[0].port: Invalid value: 0: must be greater than or equal to 1',
    'spec.containers[1].image: Required value',
    "spec.containers[1].name: Invalid value: \"Caps\": should match '^[a-z]+$'",
    'spec.containers[2].name: Required value',
    'spec.containers[2].port: Invalid value: 70000: must be less than or equal to 65535',
    'spec.limits[cpu]: Invalid value: 101: must be less than or equal to 100',
  ]);
  assert.deepEqual(texts({ spec: {} }), ['spec.containers: Required value']);
});

test('paths can start below the root, and maxLength counts characters, not UTF-16 units', () => {
  assert.deepEqual(texts({ spec: { replicas: -3, containers: [] } }, 'items[2]'), ['items[2].spec.replicas: Invalid value: -3: must be greater than or equal to 0']);
  const Short = S.object({ name: S.string({ maxLength: 5 }) });
  assert.deepEqual(validateStructure({ name: '😀😀😀😀😀' }, Short), []);
  assert.deepEqual(validateStructure({ name: '😀😀😀😀😀😀' }, Short).map(fieldErrorText), ['name: Too long: may not be more than 5 bytes']);
});

test('list length limits and exclusive bounds', () => {
  const Limited = S.object({ items: { ...S.list(S.string()), maxItems: 2, minItems: 1 } as ReturnType<typeof S.list>, ratio: { ...S.number(), exclusiveMinimum: 0, exclusiveMaximum: 1 } as ReturnType<typeof S.number> });
  assert.deepEqual(validateStructure({ items: ['a', 'b', 'c'], ratio: 1 }, Limited).map(fieldErrorText), [
    'items: Too many: 3: must have at most 2 items',
    'ratio: Invalid value: 1: must be less than 1',
  ]);
  assert.deepEqual(validateStructure({ items: [], ratio: 0 }, Limited).map(fieldErrorText), [
    'items: Invalid value: 0: should have at least 1 items',
    'ratio: Invalid value: 0: must be greater than 0',
  ]);
});

test('a structural Required value stands only where the kind reported nothing at or within that field', () => {
  const structural = [
    { type: 'FieldValueRequired' as const, field: 'spec.parameters.kind', hasValue: false, detail: '' },
    { type: 'FieldValueRequired' as const, field: 'spec.scopeSelector.matchExpressions[0].scopeName', hasValue: false, detail: '' },
    { type: 'FieldValueRequired' as const, field: 'spec', hasValue: false, detail: '' },
    { type: 'FieldValueRequired' as const, field: 'spec.replicas', hasValue: false, detail: '' },
    { type: 'FieldValueNotSupported' as const, field: 'spec.parameters.kind', hasValue: true, value: 'x', detail: 'supported values: "a"' },
  ];
  const specific = [
    { type: 'FieldValueRequired' as const, field: 'spec.parameters.kind', hasValue: false, detail: 'kind is required' },
    // Kubernetes names this list's field without its index.
    { type: 'FieldValueInvalid' as const, field: 'spec.scopeSelector.matchExpressions.scopeName', hasValue: true, value: '', detail: 'unsupported scope' },
    { type: 'FieldValueRequired' as const, field: 'spec.attacher', hasValue: false, detail: '' },
  ];
  assert.deepEqual(uncoveredStructuralErrors(structural, specific).map(fieldErrorText), [
    'spec.replicas: Required value',
    'spec.parameters.kind: Unsupported value: "x": supported values: "a"',
  ]);
  assert.deepEqual(uncoveredStructuralErrors(structural, []), structural);
  // A field whose name merely starts with another's is not within it.
  assert.equal(uncoveredStructuralErrors([structural[3]], [{ type: 'FieldValueInvalid', field: 'spec.replicasMax', hasValue: true, value: 1, detail: 'x' }]).length, 1);
});
