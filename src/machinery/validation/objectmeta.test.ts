import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorText } from '../field-errors.ts';
import {
  type ObjectMetaInput, finalizerWarnings, validateConditions, validateFieldManager, validateLabelSelector, validateManagedFields, validateObjectMeta,
  validateObjectMetaUpdate, validateOwnerReferences,
} from './objectmeta.ts';
import { nameIsDNSLabel, nameIsDNSSubdomain, nameIsPathSegment } from './strings.ts';

const namespaced = { namespaced: true, nameFn: nameIsDNSSubdomain };
const clusterScoped = { namespaced: false, nameFn: nameIsDNSSubdomain };
const texts = (errs: ReturnType<typeof validateObjectMeta>) => errs.map(fieldErrorText);

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const qnameNameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

test('valid metadata gives no errors', () => {
  const meta: ObjectMetaInput = {
    name: 'web-1',
    namespace: 'default',
    generation: 1,
    labels: { app: 'web', 'app.platform.io/name': 'web', empty: '' },
    annotations: { 'platform.io/description': 'x', UPPER: 'y' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true }],
    finalizers: ['platform.io/pv-protection', 'orphan', 'orphan'],
    managedFields: [{ manager: 'kubectl', operation: 'Apply', fieldsType: 'FieldsV1' }],
  };
  assert.deepEqual(validateObjectMeta(meta, namespaced), []);
  assert.deepEqual(validateObjectMeta({ name: 'node-1' }, clusterScoped), []);
});

test('name, generateName and namespace', () => {
  const table: [ObjectMetaInput, typeof namespaced, string[]][] = [
    [{ namespace: 'default' }, namespaced, ['metadata.name: Required value: name or generateName is required']],
    [{ name: 'Bad_Name', namespace: 'default' }, namespaced, [`metadata.name: Invalid value: "Bad_Name": ${subdomainMsg}`]],
    [{ name: 'a'.repeat(254), namespace: 'default' }, namespaced, ['metadata.name: Invalid value: "' + 'a'.repeat(254) + '": must be no more than 253 characters']],
    [{ name: 'x' }, namespaced, ['metadata.namespace: Required value']],
    [{ name: 'x', namespace: 'default' }, clusterScoped, ['metadata.namespace: Forbidden: not allowed on this type']],
    [{ name: 'x', namespace: 'My.NS' }, namespaced, [
      `metadata.namespace: Invalid value: "My.NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ]],
    [{ name: 'x', namespace: 'my.ns' }, namespaced, ['metadata.namespace: Invalid value: "my.ns": must not contain dots']],
    [{ name: 'web-abcde', generateName: 'web-', namespace: 'default' }, namespaced, []],
    [{ name: 'x', generateName: 'Web-', namespace: 'default' }, namespaced, [`metadata.generateName: Invalid value: "Web-": ${subdomainMsg}`]],
    [{ generateName: 'web-', namespace: 'default' }, namespaced, ['metadata.name: Required value: name or generateName is required']],
    [{ name: 'x', namespace: 'default', generation: -1 }, namespaced, ['metadata.generation: Invalid value: -1: must be greater than or equal to 0']],
  ];
  for (const [meta, opts, want] of table) assert.deepEqual(texts(validateObjectMeta(meta, opts)), want, JSON.stringify(meta));
  assert.deepEqual(texts(validateObjectMeta({ name: 'a.b' }, { namespaced: false, nameFn: nameIsDNSLabel })), ['metadata.name: Invalid value: "a.b": must not contain dots']);
  assert.deepEqual(texts(validateObjectMeta({ name: '..' }, { namespaced: false, nameFn: nameIsPathSegment })), ['metadata.name: Invalid value: "..": may not be \'..\'']);
  assert.deepEqual(texts(validateObjectMeta(undefined, clusterScoped)), ['metadata.name: Required value: name or generateName is required']);
});

test('labels', () => {
  const errs = texts(validateObjectMeta({ name: 'x', namespace: 'd', labels: { 'bad key': 'v', ok: 'bad value', 'a/b/c': 'x' } }, namespaced));
  assert.deepEqual(errs, [
    `metadata.labels: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    `metadata.labels: Invalid value: "bad key": ${qnameNameMsg}`,
    `metadata.labels: Invalid value: "bad value": ${labelValueMsg}`,
  ]);
  assert.deepEqual(texts(validateObjectMeta({ name: 'x', namespace: 'd', labels: { k: 'v'.repeat(64) } }, namespaced)), [
    `metadata.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
  ]);
});

test('annotations: qualified keys (any case) and a 256 KiB total', () => {
  assert.deepEqual(texts(validateObjectMeta({ name: 'x', namespace: 'd', annotations: { 'Example.COM/Key': 'v' } }, namespaced)), []);
  assert.deepEqual(texts(validateObjectMeta({ name: 'x', namespace: 'd', annotations: { 'bad key': 'v' } }, namespaced)), [
    `metadata.annotations: Invalid value: "bad key": ${qnameNameMsg}`,
  ]);
  const atLimit = { a: 'x'.repeat(262144 - 1) };
  assert.deepEqual(validateObjectMeta({ name: 'x', namespace: 'd', annotations: atLimit }, namespaced), []);
  const over = { a: 'x'.repeat(262144) };
  assert.deepEqual(texts(validateObjectMeta({ name: 'x', namespace: 'd', annotations: over }, namespaced)), [
    'metadata.annotations: Too long: may not be more than 262144 bytes',
  ]);
  // Multi-byte characters count as bytes.
  const bytes = { a: 'é'.repeat(131072) };
  assert.equal(validateObjectMeta({ name: 'x', namespace: 'd', annotations: bytes }, namespaced).length, 1);
});

test('ownerReferences', () => {
  assert.deepEqual(texts(validateOwnerReferences([{ apiVersion: '', kind: '', name: '', uid: '' }], 'metadata.ownerReferences')), [
    'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
    'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
    'metadata.ownerReferences.name: Invalid value: "": must not be empty',
    'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
  ]);
  assert.deepEqual(texts(validateOwnerReferences([{ apiVersion: 'apps/', kind: 'X', name: 'n', uid: 'u' }], 'o')), ['o.apiVersion: Invalid value: "apps/": version must not be empty']);
  const event = validateOwnerReferences([{ apiVersion: 'v1', kind: 'Event', name: 'n', uid: 'u' }], 'o');
  assert.equal(event.length, 1);
  assert.equal(event[0].detail, '/v1, Kind=Event is disallowed from being an owner');
  const two = validateOwnerReferences([
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
    { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '2', controller: false },
    { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'c', uid: '3', controller: true },
  ], 'metadata.ownerReferences');
  assert.equal(two.length, 1);
  assert.equal(two[0].field, 'metadata.ownerReferences');
  assert.equal(two[0].detail, 'Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and StatefulSet/c');
});

test('finalizers', () => {
  assert.deepEqual(texts(validateObjectMeta({ name: 'x', namespace: 'd', finalizers: ['bad finalizer'] }, namespaced)), [
    `metadata.finalizers: Invalid value: "bad finalizer": ${qnameNameMsg}`,
  ]);
  assert.deepEqual(texts(validateObjectMeta({ name: 'x', namespace: 'd', finalizers: ['orphan', 'foregroundDeletion'] }, namespaced)), [
    'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
  ]);
  assert.deepEqual(finalizerWarnings(['example.com/x', 'orphan', 'kubernetes', 'mine'], 'metadata.finalizers'), [
    'metadata.finalizers: "mine": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers',
  ]);
});

test('managedFields', () => {
  assert.deepEqual(texts(validateManagedFields([
    { manager: 'm', operation: 'Patch', fieldsType: 'FieldsV2' },
    { manager: 'ok', operation: 'Update' },
  ], 'metadata.managedFields')), [
    'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`',
    'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
  ]);
  assert.deepEqual(texts(validateManagedFields([{ manager: 'm', operation: 'Apply', subresource: 's'.repeat(257) }], 'mf')), [
    'mf[0].subresource: Too long: may not be more than 256 bytes',
  ]);
  assert.deepEqual(texts(validateFieldManager('a'.repeat(129), 'fieldManager')), ['fieldManager: Too long: may not be more than 128 bytes']);
  assert.deepEqual(texts(validateFieldManager('a\tb', 'fieldManager')), ['fieldManager: Invalid value: "a\\tb": invalid character U+0009 (at position 1)']);
  assert.deepEqual(texts(validateFieldManager('é\u0001', 'fieldManager')), ['fieldManager: Invalid value: "é\\u0001": invalid character U+0001 (at position 2)']);
  assert.deepEqual(validateFieldManager('kubectl client-side apply', 'fieldManager'), []);
});

test('update: immutable identity, resourceVersion, generation, finalizers while deleting', () => {
  const old: ObjectMetaInput = {
    name: 'x', namespace: 'd', uid: 'u1', resourceVersion: '5', generation: 3, creationTimestamp: '2024-01-01T00:00:00Z', finalizers: ['a/b'],
  };
  assert.deepEqual(validateObjectMetaUpdate({ ...old }, old), []);
  assert.deepEqual(validateObjectMetaUpdate({ ...old, creationTimestamp: '2024-01-01T00:00:00.000Z' }, old), []);
  assert.deepEqual(texts(validateObjectMetaUpdate({ ...old, name: 'y', namespace: 'e', uid: 'u2', resourceVersion: '', generation: 2 }, old)), [
    'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    'metadata.generation: Invalid value: 2: must not be decremented',
    'metadata.name: Invalid value: "y": field is immutable',
    'metadata.namespace: Invalid value: "e": field is immutable',
    'metadata.uid: Invalid value: "u2": field is immutable',
  ]);
  assert.deepEqual(texts(validateObjectMetaUpdate({ ...old, creationTimestamp: '2025-01-01T00:00:00Z' }, old)), [
    'metadata.creationTimestamp: Invalid value: "2025-01-01T00:00:00Z": field is immutable',
  ]);
  assert.deepEqual(texts(validateObjectMetaUpdate({ ...old, deletionGracePeriodSeconds: 30 }, old)), [
    'metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable',
  ]);
  const deleting: ObjectMetaInput = { ...old, deletionTimestamp: '2024-02-01T00:00:00Z', deletionGracePeriodSeconds: 0 };
  assert.deepEqual(validateObjectMetaUpdate({ ...deleting, finalizers: [] }, deleting), []);
  assert.deepEqual(texts(validateObjectMetaUpdate({ ...deleting, finalizers: ['a/b', 'z/new', 'c/new'] }, deleting)), [
    'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"c/new", "z/new"}',
  ]);
  assert.deepEqual(texts(validateObjectMetaUpdate({ ...old, labels: { 'bad key': 'v' } }, old)), [`metadata.labels: Invalid value: "bad key": ${qnameNameMsg}`]);
});

test('validateLabelSelector', () => {
  assert.deepEqual(validateLabelSelector(undefined, 'spec.selector'), []);
  assert.deepEqual(validateLabelSelector({}, 'spec.selector'), []);
  assert.deepEqual(validateLabelSelector({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }, { key: 'x', operator: 'DoesNotExist' }] }, 'spec.selector'), []);
  assert.deepEqual(texts(validateLabelSelector({
    matchLabels: { 'bad key': 'v' },
    matchExpressions: [
      { key: 'a', operator: 'In', values: [] },
      { key: 'b', operator: 'Exists', values: ['x'] },
      { key: 'c', operator: 'Equals', values: ['x'] },
      { key: 'bad key', operator: 'NotIn', values: ['ok', 'bad value'] },
    ],
  }, 'spec.selector')), [
    `spec.selector.matchLabels: Invalid value: "bad key": ${qnameNameMsg}`,
    "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    'spec.selector.matchExpressions[2].operator: Invalid value: "Equals": not a valid selector operator',
    `spec.selector.matchExpressions[3].key: Invalid value: "bad key": ${qnameNameMsg}`,
    `spec.selector.matchExpressions[3].values[1]: Invalid value: "bad value": ${labelValueMsg}`,
  ]);
  assert.deepEqual(validateLabelSelector({ matchExpressions: [{ key: 'k', operator: 'In', values: ['bad value'] }] }, 's', { allowInvalidLabelValueInSelector: true }), []);
});

test('validateConditions', () => {
  const good = { type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'AllGood', message: '' };
  assert.deepEqual(validateConditions([good], 'status.conditions'), []);
  assert.deepEqual(texts(validateConditions([good, { ...good, status: 'Maybe', reason: 'bad reason', observedGeneration: -1 }], 'status.conditions')), [
    'status.conditions[1].type: Duplicate value: "Ready"',
    'status.conditions[1].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
    'status.conditions[1].observedGeneration: Invalid value: -1: must be greater than or equal to zero',
    "status.conditions[1].reason: Invalid value: \"bad reason\": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')",
  ]);
  assert.deepEqual(texts(validateConditions([{ type: 'A', status: 'True', lastTransitionTime: '', reason: '', message: '' }], 'c')), [
    'c[0].lastTransitionTime: Required value: must be set',
    'c[0].reason: Required value: must be set',
  ]);
});

test('after validateObjectMetaUpdate, validateObjectMeta leaves out the checks it made: the same errors, each once', () => {
  const oldMeta = { name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '1', creationTimestamp: '2024-01-01T00:00:00Z' };
  const newMeta = {
    ...oldMeta, name: 'A_', generation: -1, labels: { 'bad key': 'x' }, annotations: { '/': 'y' },
    ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }], finalizers: ['bad finalizer'], managedFields: [{ operation: 'Nope' }],
  };
  const update = texts(validateObjectMetaUpdate(newMeta, oldMeta));
  const all = [...update, ...texts(validateObjectMeta(newMeta, namespaced))];
  const once = [...update, ...texts(validateObjectMeta(newMeta, { ...namespaced, updateChecked: true }))];
  assert.deepEqual([...new Set(once)], [...new Set(all)]);
  assert.ok(once.length < all.length);
});
