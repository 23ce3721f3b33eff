import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { impersonate, impersonationHeaders } from './impersonation.ts';

const admin = { username: 'admin', groups: ['system:masters'] };
const allow = async () => ({ decision: 'allow' as const, reason: '' });

describe('impersonation without a user', () => {
  it('names each request as Go prints an ObjectReference', async () => {
    await assert.rejects(impersonate(admin, { 'impersonate-group': 'g1' }, allow as never), (err: Error & { code?: number }) => {
      assert.equal(err.code, 500);
      assert.equal(err.message, 'Internal error occurred: requested [{Group  g1    }] without impersonating a user');
      return true;
    });
    await assert.rejects(impersonate(admin, { 'impersonate-extra-scopes': 'a', 'impersonate-uid': 'u1' }, allow as never), (err: Error) => {
      assert.equal(err.message, 'Internal error occurred: requested [{UserExtra  a  authentication.svc.io/v1  scopes} {UID  u1  authentication.svc.io/v1  }] without impersonating a user');
      return true;
    });
  });
});

describe('impersonation header lines', () => {
  it('keep a comma inside one value, one entry per line, from headersDistinct or rawHeaders', () => {
    const distinct = impersonationHeaders({
      headers: { 'impersonate-group': 'a,b, c', accept: 'x' },
      headersDistinct: { 'impersonate-group': ['a,b', 'c'], 'impersonate-user': ['u'], accept: ['x'] },
    });
    assert.deepEqual(distinct, { 'impersonate-group': ['a,b', 'c'], 'impersonate-user': ['u'] });
    const raw = impersonationHeaders({
      headers: { 'impersonate-group': 'a,b, c' },
      rawHeaders: [':method', 'GET', 'Impersonate-Group', 'a,b', 'impersonate-group', 'c', 'Impersonate-Extra-Scopes', 'r,w'],
    });
    assert.deepEqual(raw, { 'impersonate-group': ['a,b', 'c'], 'impersonate-extra-scopes': ['r,w'] });
    assert.deepEqual(impersonationHeaders({ headers: { 'impersonate-user': 'u', host: 'h' } }), { 'impersonate-user': ['u'] });
  });

  it('a group or extra value with a comma is one group or value, as Go reads it', async () => {
    const u = await impersonate(admin, { 'impersonate-user': ['bob'], 'impersonate-group': ['a,b', 'c'], 'impersonate-extra-scopes': ['r,w'] }, allow as never);
    assert.deepEqual(u, { username: 'bob', groups: ['a,b', 'c', 'system:authenticated'], extra: { scopes: ['r,w'] } });
  });
});
