import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileCel, CelCompileError, T } from './cel.ts';

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
