import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { impersonate } from './impersonation.ts';

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
