import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from './requestinfo.ts';

const parse = (method: string, url: string, servingGroup?: (g: string) => string) => {
  const u = new URL(url, 'https://x');
  return parseRequestInfo(method, u.pathname, u.searchParams, servingGroup);
};

describe('parseRequestInfo', () => {
  it('watch is true for every value ListOptions reads as true', () => {
    for (const v of ['1', 'true', 'True', 'TRUE', 't', 'T', 'yes', '']) {
      assert.equal(parse('GET', `/api/v1/namespaces/default/configmaps?watch=${v}`).verb, 'watch', v);
    }
    for (const v of ['0', 'false', 'False', 'f', 'F']) {
      assert.equal(parse('GET', `/api/v1/namespaces/default/configmaps?watch=${v}`).verb, 'list', v);
    }
    assert.equal(parse('GET', '/api/v1/namespaces/default/configmaps').verb, 'list');
    assert.equal(parse('GET', '/api/v1/namespaces/default/configmaps/x?watch=T').verb, 'watch');
    assert.equal(parse('GET', '/api/v1/namespaces/default/configmaps/x?watch=0').verb, 'get');
    assert.equal(parse('GET', '/api/v1/watch/namespaces/default/configmaps').verb, 'watch');
    assert.equal(parse('DELETE', '/api/v1/namespaces/default/configmaps?watch=1').verb, 'deletecollection');
  });

  it('keeps the group the URL names beside the group that serves it', () => {
    const serving = (g: string) => (g === 'rbac.authorization.k8s.io' ? 'rbac.authorization.svc.io' : g);
    const aliased = parse('GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/d/roles/r', serving);
    assert.equal(aliased.apiGroup, 'rbac.authorization.svc.io');
    assert.equal(aliased.clientGroup, 'rbac.authorization.k8s.io');
    assert.deepEqual([aliased.namespace, aliased.resource, aliased.name, aliased.verb], ['d', 'roles', 'r', 'get']);
    const plain = parse('GET', '/apis/apps/v1/deployments', serving);
    assert.deepEqual([plain.apiGroup, plain.clientGroup], ['apps', 'apps']);
    const core = parse('GET', '/api/v1/pods');
    assert.deepEqual([core.apiGroup, core.clientGroup], ['', '']);
    // Discovery paths are not resource requests.
    assert.equal(parse('GET', '/apis/rbac.authorization.k8s.io/v1', serving).isResourceRequest, false);
  });
});
