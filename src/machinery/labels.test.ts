import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LabelSelectorError, formatLabelSelector, labelSelectorFromObject, labelSelectorMatches, labelSelectorToString, newRequirement,
  parseLabelSelector, selectorFromSet,
} from './labels.ts';

const qnameNameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

test('good selectors re-print without spaces (Kubernetes TestSelectorParse)', () => {
  for (const s of ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5']) {
    assert.equal(parseLabelSelector(s).toString(), s.replaceAll(' ', ''), s);
  }
});

test('string form: sorted by key, values sorted, operators kept', () => {
  const table: [string, string][] = [
    ['z=1,a=2', 'a=2,z=1'],
    ['a==b', 'a==b'],
    ['env in (prod, dev)', 'env in (dev,prod)'],
    ['env notin (b,a,b)', 'env notin (a,b)'],
    ['a in ()', 'a in ()'],
    ['a in (,b)', 'a in (,b)'],
    ['a in (b,)', 'a in (,b)'],
    ['a in (b,,c)', 'a in (,b,c)'],
    ['  a  ,  !b  ', 'a,!b'],
    ['in=notin', 'in=notin'],
    ['x in (in,notin)', 'x in (in,notin)'],
    ['app.platform.io/name=web', 'app.platform.io/name=web'],
    ['a\t=\tb', 'a=b'],
  ];
  for (const [input, want] of table) assert.equal(parseLabelSelector(input).toString(), want, input);
});

test('parse errors carry Kubernetes messages', () => {
  const table: [string, string][] = [
    ['x y', "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt"],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x=a||y=b', `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${labelValueMsg}`],
    ['x>-1', `unable to parse requirement: values[0][x]: Invalid value: "-1": ${labelValueMsg}`],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a,', "found '', expected: identifier after ','"],
    ['a,,b', "found ',', expected: identifier after ','"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'"],
    ['a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a in (b,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['a=(b)', "unable to parse requirement: found '(', expected: identifier"],
    ['x<a', "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ['a>qa', "unable to parse requirement: values[0]: Invalid value: \"qa\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ['a>99999999999999999999', "unable to parse requirement: values[0]: Invalid value: \"99999999999999999999\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ['app: nginx', `unable to parse requirement: <nil>: Invalid value: "app:": ${qnameNameMsg}`],
    ['-a=b', `unable to parse requirement: <nil>: Invalid value: "-a": ${qnameNameMsg}`],
    ['a/b/c=1', "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"],
    ['app.kubernetes_io/name=x', "unable to parse requirement: <nil>: Invalid value: \"app.kubernetes_io/name\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
    ['k' + 'x'.repeat(63), `unable to parse requirement: <nil>: Invalid value: "k${'x'.repeat(63)}": name part must be no more than 63 characters`],
    ['app=demo-{nginx}', `unable to parse requirement: values[0][app]: Invalid value: "demo-{nginx}": ${labelValueMsg}`],
    ['a in (ok,-bad)', `unable to parse requirement: values[0][a]: Invalid value: "-bad": ${labelValueMsg}`],
    ['a in (-x,-y)', `unable to parse requirement: [values[0][a]: Invalid value: "-x": ${labelValueMsg}, values[1][a]: Invalid value: "-y": ${labelValueMsg}]`],
  ];
  for (const [input, message] of table) {
    assert.throws(() => parseLabelSelector(input), (e: unknown) => e instanceof LabelSelectorError && e.message === message, input);
  }
});

test('matching (Kubernetes TestSelectorMatches)', () => {
  const yes: [string, Record<string, string>][] = [
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['notin=in', { notin: 'in' }],
    ['x', { x: 'z' }],
    ['!x', { y: 'z' }],
    ['x>1', { x: '2' }],
    ['x<1', { x: '0' }],
    ['x<5', { x: '-4' }],
    ['x in (a,b)', { x: 'b' }],
    ['x notin (a,b)', { x: 'c' }],
    ['x notin (a,b)', {}],
    ['x!=y', {}],
    ['x=', { x: '' }],
    ['x in ()', { x: '' }],
  ];
  const no: [string, Record<string, string>][] = [
    ['x=z', {}],
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
    ['x', { y: 'z' }],
    ['!x', { x: 'z' }],
    ['x>1', { x: '0' }],
    ['x<1', { x: '2' }],
    ['x>1', { x: 'abc' }],
    ['x>1', {}],
    ['x in (a,b)', { x: 'c' }],
    ['x in (a,b)', {}],
    ['x notin (a,b)', { x: 'a' }],
    ['x=', {}],
  ];
  for (const [sel, labels] of yes) assert.equal(parseLabelSelector(sel).matches(labels), true, `${sel} ~ ${JSON.stringify(labels)}`);
  for (const [sel, labels] of no) assert.equal(parseLabelSelector(sel).matches(labels), false, `${sel} !~ ${JSON.stringify(labels)}`);
  assert.equal(parseLabelSelector('!x').matches(undefined), true);
  assert.equal(parseLabelSelector('x').matches(undefined), false);
  assert.equal(parseLabelSelector('').matches(undefined), true);
});

test('empty, requirements and exact matches', () => {
  assert.equal(parseLabelSelector('').empty, true);
  assert.equal(parseLabelSelector('   ').empty, true);
  const m = parseLabelSelector('b in (x),a=1,c in (p,q),d!=z');
  assert.equal(m.empty, false);
  assert.deepEqual(m.requirements.map((r) => [r.key, r.operator, r.values]), [
    ['a', '=', ['1']], ['b', 'in', ['x']], ['c', 'in', ['p', 'q']], ['d', '!=', ['z']],
  ]);
  assert.equal(m.requiresExactMatch('a'), '1');
  assert.equal(m.requiresExactMatch('b'), 'x');
  assert.equal(m.requiresExactMatch('c'), undefined);
  assert.equal(m.requiresExactMatch('d'), undefined);
  assert.equal(m.requiresExactMatch('zzz'), undefined);
});

test('newRequirement validation', () => {
  assert.deepEqual(newRequirement('a', 'in', ['x']), { key: 'a', operator: 'in', values: ['x'] });
  assert.throws(() => newRequirement('a', 'in', []), { message: "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty" });
  assert.throws(() => newRequirement('a', '=', ['x', 'y']), { message: 'values: Invalid value: []string{"x", "y"}: exact-match compatibility requires one single value' });
  assert.throws(() => newRequirement('a', 'exists', ['x']), { message: 'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist' });
  assert.throws(() => newRequirement('a b', 'exists', []), { message: `key: Invalid value: "a b": ${qnameNameMsg}` });
  assert.throws(() => newRequirement('a', 'gt', ['1', '2']), { message: "values: Invalid value: []string{\"1\", \"2\"}: for 'Gt', 'Lt' operators, exactly one value is required" });
  assert.throws(() => newRequirement('a', '=', ['bad value'], 'spec'), { message: `spec.values[0][a]: Invalid value: "bad value": ${labelValueMsg}` });
  assert.throws(() => newRequirement('-', 'in', [], 'p'), {
    message: `[p.key: Invalid value: "-": ${qnameNameMsg}, p.values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty]`,
  });
});

test('offending values are quoted as Go %q quotes them (\\v, \\a, non-printable runes as \\u)', () => {
  assert.throws(() => newRequirement('a\v\x07\u0085', 'exists', []), { message: `key: Invalid value: "a\\v\\a\\u0085": ${qnameNameMsg}` });
  assert.throws(() => newRequirement('a', '=', ['x', '\f']), {
    message: `[values: Invalid value: []string{"x", "\\f"}: exact-match compatibility requires one single value, values[1][a]: Invalid value: "\\f": ${labelValueMsg}]`,
  });
});

test('LabelSelector objects (LabelSelectorAsSelector)', () => {
  const none = labelSelectorFromObject(undefined);
  assert.equal(none.matchesNothing, true);
  assert.equal(none.empty, false);
  assert.equal(none.matches({ a: 'b' }), false);
  assert.equal(labelSelectorFromObject(null).matches({}), false);
  const all = labelSelectorFromObject({});
  assert.equal(all.empty, true);
  assert.equal(all.matches({ a: 'b' }), true);
  assert.equal(all.matches(undefined), true);
  assert.equal(labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] }).empty, true);

  const sel = {
    matchLabels: { app: 'web', tier: 'fe' },
    matchExpressions: [
      { key: 'env', operator: 'In', values: ['prod', 'dev'] },
      { key: 'canary', operator: 'DoesNotExist' },
      { key: 'zone', operator: 'NotIn', values: ['b'] },
      { key: 'owner', operator: 'Exists' },
    ],
  };
  assert.equal(labelSelectorToString(sel), 'app=web,!canary,env in (dev,prod),owner,tier=fe,zone notin (b)');
  assert.equal(labelSelectorMatches(sel, { app: 'web', tier: 'fe', env: 'dev', owner: 'me' }), true);
  assert.equal(labelSelectorMatches(sel, { app: 'web', tier: 'fe', env: 'dev', owner: 'me', canary: '1' }), false);
  assert.equal(labelSelectorMatches(sel, { app: 'web', tier: 'fe', env: 'qa', owner: 'me' }), false);
  assert.equal(labelSelectorMatches(sel, { app: 'web', tier: 'fe', env: 'dev', owner: 'me', zone: 'b' }), false);
  assert.equal(labelSelectorToString({ matchLabels: { app: 'web' } }), 'app=web');
  assert.equal(labelSelectorToString({}), '');
  assert.equal(labelSelectorToString(undefined), '');

  assert.throws(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'Equals', values: ['x'] }] }), {
    message: '"Equals" is not a valid label selector operator',
  });
  assert.throws(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'In' }] }), {
    message: "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
  });
  assert.throws(() => labelSelectorFromObject({ matchLabels: { 'bad key': 'v' } }), LabelSelectorError);

  assert.equal(formatLabelSelector({}), '<none>');
  assert.equal(formatLabelSelector({ matchLabels: { a: 'b' } }), 'a=b');
  assert.equal(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Bad' }] }), '<error>');
});

test('selectorFromSet', () => {
  const s = selectorFromSet({ b: '2', a: '1' });
  assert.equal(s.toString(), 'a=1,b=2');
  assert.equal(s.matches({ a: '1', b: '2', c: '3' }), true);
  assert.equal(s.matches({ a: '1' }), false);
  assert.equal(selectorFromSet({}).empty, true);
});
