import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectorAttributeErrors } from './review-selectors.ts';
import { fieldErrorText } from '../machinery/field-errors.ts';

const messages = (ra: unknown) => selectorAttributeErrors(ra as Record<string, unknown>).map(fieldErrorText);

test('selectors: raw or requirements, exactly one', () => {
  assert.deepEqual(messages({ fieldSelector: { rawSelector: 'foo', requirements: [{}] } }),
    ['spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "foo": may not specified at the same time as requirements', 'spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified']);
  assert.deepEqual(messages({ labelSelector: {} }),
    ['spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required']);
  assert.deepEqual(messages({ fieldSelector: { rawSelector: 'spec.nodeName=n1' }, labelSelector: { rawSelector: 'a=b' } }), []);
});

test('selector requirements: operators, keys and values as Kubernetes checks them; unknown operators pass', () => {
  assert.deepEqual(messages({ fieldSelector: { requirements: [{ key: 'k', operator: 'NotIn', values: [] }, { key: 'k', operator: 'Exists', values: ['v'] }, { key: 'k', operator: 'Newer' }] } }), [
    "spec.resourceAttributes.fieldSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    "spec.resourceAttributes.fieldSelector.requirements[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
  ]);
  assert.deepEqual(messages({ labelSelector: { requirements: [{ key: '' }, { key: '()foo' }, { key: 'k', operator: 'In', values: ['a b'] }] } }), [
    'spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "": name part must be non-empty',
    'spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    'spec.resourceAttributes.labelSelector.requirements[1].key: Invalid value: "()foo": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    'spec.resourceAttributes.labelSelector.requirements[2].values[0]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
  ]);
});
