// A black-box sweep of unmodified kubectl against Capstan: each test is a place where Capstan answered
// differently from a Kubernetes v1.32 API server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

describe('kubectl sweep', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('kubectl create deployment (protobuf) stores no zero of a non-pointer omitempty field, as Go omits it', async () => {
    const created = await s.kubectl(['create', 'deployment', 'zeros', '--image=nginx', '--replicas=0', '-o', 'json']);
    assert.equal(created.code, 0, created.stderr);
    const d = JSON.parse((await s.kubectl(['get', 'deployment', 'zeros', '-o', 'json'])).stdout);
    assert.equal(d.spec.replicas, 0, 'a pointer field keeps its zero');
    assert.equal('minReadySeconds' in d.spec, false);
    assert.equal('paused' in d.spec, false);
    const pod = d.spec.template.spec;
    for (const f of ['hostNetwork', 'hostPID', 'hostIPC']) assert.equal(f in pod, false, f);
    for (const f of ['stdin', 'stdinOnce', 'tty']) assert.equal(f in pod.containers[0], false, f);
    assert.deepEqual(d.status, {});
  });

  it('kubectl explain describes every kind\'s apiVersion, kind and metadata as Kubernetes\' OpenAPI does', async () => {
    const cm = await s.kubectl(['explain', 'configmap']);
    assert.equal(cm.code, 0, cm.stderr);
    assert.match(cm.stdout, /apiVersion\t<string>\n    APIVersion defines the versioned schema of this representation of an object\.\n/);
    assert.match(cm.stdout, /kind\t<string>\n    Kind is a string value representing the REST resource this object\n/);
    assert.match(cm.stdout, /metadata\t<ObjectMeta>\n    Standard object's metadata\. More info:/);
    assert.doesNotMatch(cm.stdout, /<no description>/);
    const field = await s.kubectl(['explain', 'deployment.metadata']);
    assert.match(field.stdout, /DESCRIPTION:\n    Standard object's metadata\. More info:\n    https:\/\/git\.svc\.io\/community\/contributors\/devel\/sig-architecture\/api-conventions\.md#metadata/);
  });
});
