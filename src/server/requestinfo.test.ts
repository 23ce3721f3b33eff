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
    // With a name it stays a get, as Kubernetes' RequestInfo reads it: only the collection turns into a watch.
    assert.equal(parse('GET', '/api/v1/namespaces/default/configmaps/x?watch=T').verb, 'get');
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

  it("decodes the path before splitting it, as Go's URL.Path is: an escaped slash separates segments", () => {
    const escaped = parse('GET', '/api/v1/namespaces/default/configmaps/a%2Fb');
    assert.deepEqual([escaped.resource, escaped.name, escaped.subresource], ['configmaps', 'a', 'b']);
    const spaced = parse('GET', '/api/v1/namespaces/default/configmaps/a%20b');
    assert.equal(spaced.name, 'a b');
    // A stray % is not an escape: the path is read as it is.
    assert.equal(parse('GET', '/api/v1/namespaces/default/configmaps/a%zz').name, 'a%zz');
  });
});
