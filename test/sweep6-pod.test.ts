// End-to-end sweep of pod and pod template validation against Kubernetes v1.32 (renamed): the checks every
// container gets (image, termination message policy, their order), relaxed environment variable names, the
// OS-specific security rules, the sleep handler's message, overhead paths, host-namespace sysctls, the
// annotations a pod's validation reads, and node selectors added to a pod still gated from scheduling.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

type Obj = Record<string, any>;
const MERGE = { 'content-type': 'application/merge-patch+json' };

describe('sweep 6: pods and pod templates', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    // The API tests run without the service account controller; pods need the default account.
    await s.request('POST', '/api/v1/namespaces/default/serviceaccounts', { body: JSON.stringify({ metadata: { name: 'default' } }) });
  });
  after(async () => { await s.stop(); });

  const pods = '/api/v1/namespaces/default/pods';
  const deployments = '/apis/apps/v1/namespaces/default/deployments';
  const post = (path: string, body: unknown) => s.request('POST', path, { body: JSON.stringify(body) });
  const patch = (path: string, body: unknown) => s.request('PATCH', path, { body: JSON.stringify(body), headers: MERGE });
  const pod = (name: string, spec: Obj, metadata: Obj = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec });
  const deployment = (name: string, spec: Obj) => ({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec } },
  });
  const causes = (r: { json(): any }) => r.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);

  it('a pod template needs an image too, reported right after the container name', async () => {
    const r = await post(deployments, deployment('no-image', { containers: [{ name: 'Web' }] }));
    assert.equal(r.status, 422);
    assert.equal(r.json().message, `Deployment.apps "no-image" is invalid: [spec.template.spec.containers[0].name: Invalid value: "Web": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.template.spec.containers[0].image: Required value]`);
  });

  it('termination message policy: not supported, checked before ports and the pull policy', async () => {
    const r = await post(pods, pod('tmp', { containers: [{ name: 'a', image: 'x', terminationMessagePolicy: 'Sometimes', imagePullPolicy: 'Maybe', ports: [{ containerPort: 0 }] }] }));
    assert.equal(r.status, 422);
    assert.deepEqual(causes(r), [
      'spec.containers[0].terminationMessagePolicy: Unsupported value: "Sometimes": supported values: "File", "FallbackToLogsOnError"',
      'spec.containers[0].ports[0].containerPort: Required value',
      'spec.containers[0].imagePullPolicy: Unsupported value: "Maybe": supported values: "Always", "IfNotPresent", "Never"',
    ]);
  });

  it('environment variable names are relaxed (RelaxedEnvironmentVariableValidation is on in v1.32)', async () => {
    const ok = await post(pods, pod('env-ok', { containers: [{ name: 'a', image: 'x', env: [{ name: '1-st var' }], envFrom: [{ prefix: '9:', configMapRef: { name: 'c' } }] }] }));
    assert.equal(ok.status, 201, ok.body);
    const r = await post(pods, pod('env-bad', { containers: [{ name: 'a', image: 'x', env: [{ name: '' }, { name: 'A=B' }], envFrom: [{ prefix: 'p=', secretRef: { name: 's' } }] }] }));
    assert.equal(r.status, 422);
    assert.deepEqual(causes(r), [
      'spec.containers[0].env[0].name: Required value',
      "spec.containers[0].env[1].name: Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='",
      "spec.containers[0].envFrom[0].prefix: Invalid value: \"p=\": a valid environment variable name must consist only of printable ASCII characters other than '='",
    ]);
  });

  it('kubectl apply stores a variable name Kubernetes v1.32 accepts (kubectl set env checks the old rule itself)', async () => {
    const manifest = JSON.stringify(deployment('envs', { containers: [{ name: 'web', image: 'nginx:1.27', env: [{ name: '1ST_VAR', value: 'x' }] }] }));
    const applied = await s.kubectl(['apply', '-f', '-'], manifest);
    assert.equal(applied.code, 0, applied.stderr);
    const got = await s.kubectl(['get', 'deployment', 'envs', '-o', 'jsonpath={.spec.template.spec.containers[0].env[0].name}']);
    assert.equal(got.stdout, '1ST_VAR');
  });

  it('a windows pod may not use Linux security settings, a linux pod no Windows options', async () => {
    const win = await post(pods, pod('win', {
      os: { name: 'windows' }, hostPID: true, shareProcessNamespace: false,
      securityContext: { runAsUser: 1000, seLinuxOptions: { user: 'u' }, sysctls: [{ name: 'kernel.msgmax', value: '1' }] },
      initContainers: [{ name: 'i', image: 'x', securityContext: { privileged: false } }],
      containers: [{ name: 'a', image: 'x', securityContext: { capabilities: {}, runAsGroup: 1, windowsOptions: { runAsUserName: 'ContainerUser' } } }],
    }));
    assert.equal(win.status, 422);
    assert.deepEqual(causes(win), [
      'spec.securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod',
      'spec.hostPID: Forbidden: cannot be set for a windows pod',
      'spec.securityContext.sysctls: Forbidden: cannot be set for a windows pod',
      'spec.shareProcessNamespace: Forbidden: cannot be set for a windows pod',
      'spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
      'spec.initContainers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod',
      'spec.containers[0].securityContext.capabilities: Forbidden: cannot be set for a windows pod',
      'spec.containers[0].securityContext.runAsGroup: Forbidden: cannot be set for a windows pod',
    ]);
    const linux = await post(deployments, deployment('linux', {
      os: { name: 'linux' }, securityContext: { windowsOptions: { runAsUserName: 'u' } },
      containers: [{ name: 'a', image: 'x', securityContext: { windowsOptions: { hostProcess: false } } }],
    }));
    assert.equal(linux.status, 422);
    assert.deepEqual(causes(linux), [
      'spec.template.spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
      'spec.template.spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
    ]);
  });

  it('os: an empty name is required, another one is not supported at spec.os', async () => {
    const empty = await post(pods, pod('os-empty', { os: { name: '' }, containers: [{ name: 'a', image: 'x' }] }));
    assert.equal(empty.json().message, 'Pod "os-empty" is invalid: spec.os.name: Required value: cannot be empty');
    const mac = await post(pods, pod('os-mac', { os: { name: 'darwin' }, containers: [{ name: 'a', image: 'x' }] }));
    assert.equal(mac.json().message, 'Pod "os-mac" is invalid: spec.os: Unsupported value: "darwin": supported values: "linux", "windows"');
  });

  it('a sleep handler out of range names the feature gate for zero sleeps', async () => {
    const r = await post(pods, pod('sleep', { terminationGracePeriodSeconds: 10, containers: [{ name: 'a', image: 'x', lifecycle: { preStop: { sleep: { seconds: 0 } } } }] }));
    assert.equal(r.json().message, 'Pod "sleep" is invalid: spec.containers[0].lifecycle.preStop.sleep: Invalid value: 0: must be greater than 0 and less than terminationGracePeriodSeconds (10). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.');
  });

  it('overhead is checked as container limits (spec.overhead.limits[...])', async () => {
    const r = await post(deployments, deployment('overhead', { overhead: { cpu: '-1', gpu: '1' }, containers: [{ name: 'a', image: 'x' }] }));
    assert.equal(r.status, 422);
    assert.deepEqual(causes(r), [
      'spec.template.spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.template.spec.overhead.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
      'spec.template.spec.overhead.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers',
    ]);
  });

  it('namespaced sysctls are refused when the pod shares the host network or IPC namespace', async () => {
    const r = await post(pods, pod('sysctl', {
      hostNetwork: true, hostIPC: true, securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1' }, { name: 'kernel/shm_rmid_forced', value: '1' }, { name: 'kernel.sem', value: '1' }] },
      containers: [{ name: 'a', image: 'x' }],
    }));
    assert.equal(r.status, 422);
    assert.deepEqual(causes(r), [
      "spec.securityContext.sysctls[0].name: Invalid value: \"net.core.somaxconn\": may not be specified when 'hostNetwork' is true",
      "spec.securityContext.sysctls[1].name: Invalid value: \"kernel/shm_rmid_forced\": may not be specified when 'hostIPC' is true",
      "spec.securityContext.sysctls[2].name: Invalid value: \"kernel.sem\": may not be specified when 'hostIPC' is true",
    ]);
  });

  it('pod annotations: mirror pods name their node, deletion costs are int32, seccomp and AppArmor values', async () => {
    const r = await post(pods, pod('annotated', { containers: [{ name: 'a', image: 'x' }] }, {
      annotations: {
        'platform.io/config.mirror': 'hash',
        'controller.platform.io/pod-deletion-cost': '+5',
        'seccomp.security.alpha.platform.io/pod': 'docker/custom',
        'container.apparmor.security.beta.platform.io/b': 'enforce',
      },
    }));
    assert.equal(r.status, 422);
    assert.deepEqual(causes(r), [
      'metadata.annotations[platform.io/config.mirror]: Invalid value: "hash": must set spec.nodeName if mirror pod annotation is set',
      'metadata.annotations[controller.platform.io/pod-deletion-cost]: Invalid value: "+5": must be a 32bit integer',
      'metadata.annotations.seccomp.security.alpha.platform.io/pod: Invalid value: "docker/custom": must be a valid seccomp profile',
      'metadata.annotations[container.apparmor.security.beta.platform.io/b]: Invalid value: "b": container not found',
      'metadata.annotations[container.apparmor.security.beta.platform.io/b]: Invalid value: "enforce": invalid AppArmor profile name: "enforce"',
    ]);
    const big = await post(pods, pod('cost', { containers: [{ name: 'a', image: 'x' }] }, { annotations: { 'controller.platform.io/pod-deletion-cost': '2147483648' } }));
    assert.equal(big.status, 422);
    assert.equal((await post(pods, pod('cost-ok', { containers: [{ name: 'a', image: 'x' }] }, { annotations: { 'controller.platform.io/pod-deletion-cost': '-2147483648' } }))).status, 201);
  });

  it('an update may not add the mirror pod or AppArmor annotations', async () => {
    assert.equal((await post(pods, pod('plain', { containers: [{ name: 'a', image: 'x' }] }))).status, 201);
    const r = await patch(`${pods}/plain`, { metadata: { annotations: { 'platform.io/config.mirror': 'x', 'container.apparmor.security.beta.platform.io/a': 'runtime/default' } } });
    assert.equal(r.status, 422);
    assert.deepEqual(causes(r), [
      'metadata.annotations[platform.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set',
      'metadata.annotations[container.apparmor.security.beta.platform.io/a]: Forbidden: may not add AppArmor annotations',
      'metadata.annotations[platform.io/config.mirror]: Forbidden: may not add mirror pod annotation',
    ]);
  });

  it('a pod gated from scheduling may gain node selectors but not change them', async () => {
    assert.equal((await post(pods, pod('gated', { schedulingGates: [{ name: 'example.com/wait' }], nodeSelector: { zone: 'a' }, containers: [{ name: 'a', image: 'x' }] }))).status, 201);
    const added = await patch(`${pods}/gated`, { spec: { nodeSelector: { disk: 'ssd' } } });
    assert.equal(added.status, 200, added.body);
    assert.deepEqual(added.json().spec.nodeSelector, { zone: 'a', disk: 'ssd' });
    const changed = await patch(`${pods}/gated`, { spec: { nodeSelector: { zone: 'b' } } });
    assert.equal(changed.status, 422);
    assert.equal(changed.json().message, 'Pod "gated" is invalid: spec.nodeSelector: Invalid value: map[string]string{"disk":"ssd", "zone":"b"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)');
  });
});
