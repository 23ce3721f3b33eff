import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileCel, CelCompileError, CelPending, T } from './cel.ts';

const Resource = T.message('ResourceAttributes', { namespace: T.string, verb: T.string, group: T.string, version: T.string, resource: T.string, subresource: T.string, name: T.string });
const Spec = T.message('SubjectAccessReviewSpec', {
  resourceAttributes: Resource,
  nonResourceAttributes: T.message('NonResourceAttributes', { path: T.string, verb: T.string }),
  user: T.string, groups: T.list(T.string), extra: T.map(T.list(T.string)), uid: T.string,
});
const vars = { request: Spec };
const req = { user: 'alice', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'] }, resourceAttributes: { namespace: 'kube-system', verb: 'get', resource: 'pods' } };
const run = (expr: string, request: unknown = req) => compileCel(expr, vars, { wantBool: true }).evaluate({ request });

test('field access, comparison and logic', () => {
  assert.equal(run("request.user == 'alice'"), true);
  assert.equal(run("request.user != 'alice' || request.resourceAttributes.namespace == 'kube-system'"), true);
  assert.equal(run("!(request.resourceAttributes.verb in ['create', 'update'])"), true);
  assert.equal(run("'devs' in request.groups && request.groups.size() == 2"), true);
  assert.equal(run("size(request.groups) > 1 ? request.user.startsWith('al') : false"), true);
  assert.equal(run("request.resourceAttributes.resource.endsWith('ds') && request.user.contains('lic')"), true);
  assert.equal(run("request.user.matches('^a.*e$')"), true);
  assert.equal(run("request.groups.exists(g, g.startsWith('system:'))"), true);
  assert.equal(run("request.groups.all(g, g.startsWith('system:'))"), false);
  assert.equal(run("request.extra['scopes'].size() == 2 && 'scopes' in request.extra"), true);
  assert.equal(run('1 + 2 * 3 == 7 && 7 / 2 == 3 && 2.5 > 2'), true);
  assert.equal(run('"a" + \'b\' == "ab"'), true);
});

test('has() and unset typed fields read as their zero value', () => {
  assert.equal(run('has(request.resourceAttributes)'), true);
  assert.equal(run('has(request.nonResourceAttributes)'), false);
  assert.equal(run("request.nonResourceAttributes.path == ''"), true);
  assert.equal(run('has(request.uid)'), false);
});

test('errors: a missing map key is an evaluation error, absorbed by a decisive && or ||', () => {
  assert.throws(() => run("request.extra['missing'].size() == 1"), /no such key: missing/);
  assert.equal(run("request.user == 'bob' && request.extra['missing'].size() == 1"), false);
  assert.equal(run("request.extra['missing'].size() == 1 || request.user == 'alice'"), true);
  assert.throws(() => run('1 / 0 == 1'), /division by zero/);
});

test('compile errors: syntax, unknown names and fields, and non-bool results', () => {
  assert.throws(() => compileCel('request.user ==', vars), (e: Error) => e instanceof CelCompileError && /ERROR: <input>:1:15: Syntax error/.test(e.message));
  assert.throws(() => compileCel('foo == 1', vars), /undeclared reference to 'foo'/);
  assert.throws(() => compileCel('request.usr == "x"', vars), /undefined field 'usr'/);
  assert.throws(() => compileCel('request.user', vars, { wantBool: true }), /must evaluate to bool but got string/);
  assert.throws(() => compileCel("'unterminated", vars), /unterminated string/);
});

test('string and list extensions', () => {
  const dyn = { o: T.dyn };
  const ev = (expr: string, o: unknown) => compileCel(expr, dyn).evaluate({ o });
  assert.equal(ev("o.substring(1, 3) + o.substring(4) + o.charAt(0)", 'abcdef'), 'bcefa');
  assert.throws(() => ev('o.substring(4, 2)', 'abcdef'), /invalid substring range. start: 4, end: 2/);
  assert.equal(ev("o.find('[0-9]+')", 'ab12cd345'), '12');
  assert.deepEqual(ev("o.findAll('[0-9]+')", 'ab12cd345'), ['12', '345']);
  assert.deepEqual([ev('o.indexOf(2)', [1, 2, 2]), ev('o.lastIndexOf(2)', [1, 2, 2]), ev('o.indexOf(9)', [1])], [1, 2, -1]);
  assert.deepEqual([ev('o.isSorted()', [1, 2, 2]), ev('o.isSorted()', ['b', 'a'])], [true, false]);
  assert.deepEqual([ev('o.sum()', [1, 2, 3]), ev('o.min()', [3, 1, 2]), ev("o.max()", ['a', 'c', 'b'])], [6, 1, 'c']);
  assert.throws(() => ev('o.min()', []), /min\(list\) argument must not be empty/);
});

test('host objects: typed methods and fields, evaluation errors, and answers awaited by evaluateAsync', async () => {
  const Decision = T.opaque('Decision', {}, { allowed: T.bool, reason: T.string });
  const Checker = T.opaque('Checker', {}, { check: Decision });
  Checker.fields.self = Checker;
  const answers = new Map<string, boolean>();
  let asked = 0;
  const decision = (ok: boolean) => ({ celTypeName: 'Decision', celCall: (m: string) => (m === 'allowed' ? ok : 'because') });
  const checker = {
    celTypeName: 'Checker',
    celField: (f: string) => { if (f === 'self') return checker; throw new Error(`no such field: ${f}`); },
    celCall(m: string, args: unknown[]) {
      const verb = String(args[0]);
      if (verb === 'boom') throw new Error('the check failed');
      if (!answers.has(verb)) {
        asked++;
        throw new CelPending(new Promise((r) => setTimeout(() => { answers.set(verb, verb === 'get'); r(undefined); }, 1)));
      }
      return decision(answers.get(verb)!);
    },
  };
  const vars = { checker: Checker };
  const p = compileCel("checker.check('get').allowed() && !checker.self.check('delete').allowed() && checker.check('get').reason() == 'because'", vars, { wantBool: true });
  assert.equal(await p.evaluateAsync({ checker }), true);
  assert.equal(asked, 2);
  assert.throws(() => compileCel("checker.check('x').denied()", vars), /found no matching overload for 'denied' applied to 'Decision.\(\)'/);
  assert.throws(() => compileCel('checker.other', vars), /undefined field 'other'/);
  await assert.rejects(compileCel("checker.check('boom').allowed()", vars).evaluateAsync({ checker }), /the check failed/);
});
