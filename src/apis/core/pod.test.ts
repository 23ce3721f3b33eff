import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { podKind as kind, podSummary } from './pod.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const pod = (spec: Obj = {}, name = `pod-${++n}`): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
});
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;
const spec = (o: ApiObject) => o.spec as Obj;
const cells = (o: ApiObject) => kind.tableColumns!.map((c) => c.cell(o));
const props = (s: unknown) => (s as { properties: Record<string, any> }).properties;

test('declaration: core v1 pods, short name po, category all, status sub-resource, columns and field selectors', () => {
  assert.equal(kind.group, '');
  assert.equal(kind.plural, 'pods');
  assert.equal(kind.namespaced, true);
  assert.deepEqual(kind.shortNames, ['po']);
  assert.deepEqual(kind.categories, ['all']);
  assert.deepEqual(kind.status, {});
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.priority ?? 0]), [
    ['Name', 0], ['Ready', 0], ['Status', 0], ['Restarts', 0], ['Age', 0], ['IP', 1], ['Node', 1], ['Nominated Node', 1], ['Readiness Gates', 1],
  ]);
  assert.deepEqual(Object.keys(kind.fieldSelectors!).sort(), [
    'spec.hostNetwork', 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.nominatedNodeName', 'status.phase', 'status.podIP',
  ]);
});

test('protobuf field numbers and merge keys follow generated.proto and the OpenAPI of Kubernetes', () => {
  const root = props(kind.versions[0]!.schema);
  const s = props(root.spec);
  assert.deepEqual(['volumes', 'containers', 'restartPolicy', 'terminationGracePeriodSeconds', 'activeDeadlineSeconds', 'dnsPolicy', 'nodeSelector', 'serviceAccountName', 'serviceAccount', 'nodeName', 'hostNetwork', 'hostPID', 'hostIPC', 'securityContext', 'imagePullSecrets', 'hostname', 'subdomain', 'affinity', 'schedulerName', 'initContainers', 'automountServiceAccountToken', 'tolerations', 'hostAliases', 'priorityClassName', 'priority', 'dnsConfig', 'shareProcessNamespace', 'readinessGates', 'runtimeClassName', 'enableServiceLinks', 'preemptionPolicy', 'overhead', 'topologySpreadConstraints', 'ephemeralContainers', 'setHostnameAsFQDN', 'os', 'hostUsers', 'schedulingGates', 'resourceClaims', 'resources']
    .map((k) => s[k]?.['x-proto']), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40]);
  assert.equal(s.containers['x-platform-patch-merge-key'], 'name');
  assert.equal(s.containers['x-platform-patch-strategy'], 'merge');
  assert.deepEqual(s.volumes['x-platform-patch-strategy'], 'merge,retainKeys');
  assert.deepEqual(s.topologySpreadConstraints['x-platform-list-map-keys'], ['topologyKey', 'whenUnsatisfiable']);
  const container = props(s.containers.items);
  assert.deepEqual(container.ports['x-platform-list-map-keys'], ['containerPort', 'protocol']);
  assert.equal(container.env['x-platform-patch-merge-key'], 'name');
  assert.equal(container.volumeMounts['x-platform-patch-merge-key'], 'mountPath');
  const status = props(root.status);
  assert.deepEqual([status.phase['x-proto'], status.conditions['x-proto'], status.podIP['x-proto'], status.qosClass['x-proto'], status.nominatedNodeName['x-proto']], [1, 2, 6, 9, 11]);
});

test('defaults: DNS, restart, grace period, scheduler, service links, security context, Pending and QoS', async () => {
  const o = await h.create(pod());
  const s = spec(o);
  assert.equal(s.dnsPolicy, 'ClusterFirst');
  assert.equal(s.restartPolicy, 'Always');
  assert.equal(s.terminationGracePeriodSeconds, 30);
  assert.equal(s.schedulerName, 'default-scheduler');
  // The account is named by ServiceAccount admission (src/admission/service-account.ts), not by the kind.
  assert.equal(s.serviceAccountName, undefined);
  assert.equal(s.enableServiceLinks, true);
  assert.deepEqual(s.securityContext, {});
  assert.equal((o.status as Obj).phase, 'Pending');
  assert.equal((o.status as Obj).qosClass, 'BestEffort');
});

test('defaults: container pull policy by tag, termination message, port protocol, probe timings and HTTP handler', async () => {
  const o = await h.create(pod({
    containers: [
      { name: 'a', image: 'nginx', ports: [{ containerPort: 80 }], livenessProbe: { httpGet: { port: 80 } } },
      { name: 'b', image: 'nginx:latest' },
      { name: 'c', image: 'nginx:1.27' },
      { name: 'd', image: 'nginx@sha256:' + 'a'.repeat(64) },
    ],
  }));
  const [a, b, c, d] = spec(o).containers;
  assert.deepEqual([a.imagePullPolicy, b.imagePullPolicy, c.imagePullPolicy, d.imagePullPolicy], ['Always', 'Always', 'IfNotPresent', 'IfNotPresent']);
  assert.equal(a.terminationMessagePath, '/dev/termination-log');
  assert.equal(a.terminationMessagePolicy, 'File');
  assert.deepEqual(a.ports, [{ containerPort: 80, protocol: 'TCP' }]);
  assert.deepEqual(a.livenessProbe, { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
});

test('defaults: limits become requests (Guaranteed); hostNetwork copies container ports to host ports', async () => {
  const o = await h.create(pod({ containers: [{ name: 'a', image: 'x:1', resources: { limits: { cpu: '500m', memory: '128Mi' } } }] }));
  assert.deepEqual(spec(o).containers[0].resources.requests, { cpu: '500m', memory: '128Mi' });
  assert.equal((o.status as Obj).qosClass, 'Guaranteed');
  const b = await h.create(pod({ containers: [{ name: 'a', image: 'x:1', resources: { requests: { cpu: '100m' } } }] }));
  assert.equal((b.status as Obj).qosClass, 'Burstable');
  const hn = await h.create(pod({ hostNetwork: true, containers: [{ name: 'a', image: 'x:1', ports: [{ containerPort: 8080 }] }] }));
  assert.equal(spec(hn).containers[0].ports[0].hostPort, 8080);
});

test('a deprecated serviceAccount fills serviceAccountName', async () => {
  const o = await h.create(pod({ serviceAccount: 'robot' }));
  assert.deepEqual([spec(o).serviceAccountName, spec(o).serviceAccount], ['robot', 'robot']);
});

test('containers: at least one, names are unique DNS labels, images required', async () => {
  assert.deepEqual(await causes(pod({ containers: [] })), ['spec.containers: Required value']);
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x' }, { name: 'a', image: 'y' }] })), ['spec.containers[1].name: Duplicate value: "a"']);
  assert.deepEqual(await causes(pod({ containers: [{ name: 'A_b', image: 'x' }] })), [
    'spec.containers[0].name: Invalid value: "A_b": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
  ]);
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a' }] })), ['spec.containers[0].image: Required value']);
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: ' x' }] })), ['spec.containers[0].image: Invalid value: " x": must not have leading or trailing whitespace']);
});

test('ports: range, protocol and unique names', async () => {
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 0 }] }] })), [
    'spec.containers[0].ports[0].containerPort: Required value',
  ]);
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 70000 }] }] })), [
    'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
  ]);
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 80, protocol: 'HTTP' }] }] })), [
    'spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
  ]);
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 80, name: 'web' }, { containerPort: 81, name: 'web' }] }] })), [
    'spec.containers[0].ports[1].name: Duplicate value: "web"',
  ]);
});

test('restart and DNS policies are from their lists', async () => {
  assert.deepEqual(await causes(pod({ restartPolicy: 'Sometimes' })), ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']);
  assert.deepEqual(await causes(pod({ dnsPolicy: 'Google' })), ['spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"']);
});

test('names of the node, service account and hostname; active deadline range', async () => {
  assert.deepEqual(await causes(pod({ nodeName: 'Node_1' })), [
    'spec.nodeName: Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
  ]);
  assert.deepEqual(await causes(pod({ activeDeadlineSeconds: 0 })), ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']);
  assert.deepEqual(await causes(pod({ hostname: 'a.b' })), ['spec.hostname: Invalid value: "a.b": must not contain dots']);
});

test('probes: one handler, positive timings, success threshold 1 for liveness', async () => {
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', livenessProbe: {} }] })), ['spec.containers[0].livenessProbe: Required value: must specify a handler type']);
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', livenessProbe: { exec: { command: ['true'] }, successThreshold: 2 } }] })), [
    'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
  ]);
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', readinessProbe: { exec: { command: ['true'] }, tcpSocket: { port: 80 } } }] })), [
    'spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
  ]);
});

test('resources: requests at most the limits, known resource names (limits defaulted into requests are checked there too)', async () => {
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }] })), [
    'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
  ]);
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', resources: { limits: { gpu: '1' } } }] })), [
    'spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
    'spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers',
    'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
    'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers',
  ]);
});

test('environment: names, one source of a value', async () => {
  // An empty name is only required; with RelaxedEnvironmentVariableValidation (on in v1.32) any printable ASCII but '=' names a variable.
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', env: [{ name: '' }] }] })), ['spec.containers[0].env[0].name: Required value']);
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', env: [{ name: '1A' }, { name: 'A=B' }] }] })), [
    "spec.containers[0].env[1].name: Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='",
  ]);
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', env: [{ name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] }] })), [
    "spec.containers[0].env[0].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty",
  ]);
});

test('volume mounts name an existing volume at a unique path', async () => {
  assert.deepEqual(await causes(pod({ containers: [{ name: 'a', image: 'x', volumeMounts: [{ name: 'missing', mountPath: '/data' }] }] })), [
    'spec.containers[0].volumeMounts[0].name: Not found: "missing"',
  ]);
  assert.deepEqual(await causes(pod({ volumes: [{ name: 'v', emptyDir: {} }], containers: [{ name: 'a', image: 'x', volumeMounts: [{ name: 'v', mountPath: '/d' }, { name: 'v', mountPath: '/d' }] }] })), [
    'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/d": must be unique',
  ]);
});

test('tolerations: Exists takes no value (Kubernetes prints the whole toleration)', async () => {
  assert.deepEqual(await causes(pod({ tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] })), [
    'spec.tolerations[0].operator: Invalid value: core.Toleration{Key:"k", Operator:"Exists", Value:"v", Effect:"", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is \'Exists\'',
  ]);
  assert.deepEqual(await causes(pod({ tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'Sometimes' }] })), [
    'spec.tolerations[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
  ]);
});

test('ephemeral containers and a node name with scheduling gates are refused on create', async () => {
  assert.deepEqual(await causes(pod({ ephemeralContainers: [{ name: 'dbg', image: 'busybox' }] })), ['spec.ephemeralContainers: Forbidden: cannot be set on create']);
  assert.deepEqual(await causes(pod({ nodeName: 'n1', schedulingGates: [{ name: 'example.com/gate' }] })), ['spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared']);
});

test('scheduling gates put a PodScheduled=False condition and show as SchedulingGated', async () => {
  const o = await h.create(pod({ schedulingGates: [{ name: 'example.com/gate' }] }));
  const cond = (o.status as Obj).conditions[0];
  assert.deepEqual([cond.type, cond.status, cond.reason], ['PodScheduled', 'False', 'SchedulingGated']);
  assert.equal(cells(o)[2], 'SchedulingGated');
});

test('updates: images and the active deadline may change, other spec fields not', async () => {
  const o = await h.create(pod({ activeDeadlineSeconds: 100 }));
  const next = structuredClone(o);
  spec(next).containers[0].image = 'nginx:1.28';
  spec(next).activeDeadlineSeconds = 50;
  const u = await h.update(next);
  assert.equal(spec(u).containers[0].image, 'nginx:1.28');
  const longer = structuredClone(u); spec(longer).activeDeadlineSeconds = 60;
  assert.deepEqual((await rejection(h.update(longer))).causes, ['spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value']);
  const other = structuredClone(u); spec(other).restartPolicy = 'Never';
  const r = await rejection(h.update(other));
  assert.equal(r.code, 422);
  assert.equal(r.causes.length, 1);
  assert.ok(r.causes[0]!.startsWith('spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)'));
  const fewer = structuredClone(u); spec(fewer).containers.push({ name: 'b', image: 'x' });
  assert.deepEqual((await rejection(h.update(fewer))).causes, ['spec.containers: Forbidden: pod updates may not add or remove containers']);
  const tol = structuredClone(u); spec(tol).tolerations = [{ key: 'k', operator: 'Exists' }];
  assert.deepEqual(spec(await h.update(tol)).tolerations, [{ key: 'k', operator: 'Exists' }]);
});

test('status is written through /status only; the main resource keeps it', async () => {
  const o = await h.create(pod());
  const withStatus = structuredClone(o);
  withStatus.status = { phase: 'Running', podIP: '10.0.0.5', podIPs: [{ ip: '10.0.0.5' }], nominatedNodeName: 'n2' };
  const ignored = await h.update(withStatus);
  assert.equal((ignored.status as Obj).phase, 'Pending');
  const written = await h.update(withStatus, { subresource: 'status' });
  assert.equal((written.status as Obj).phase, 'Running');
  assert.deepEqual(['status.phase', 'status.podIP', 'status.nominatedNodeName', 'spec.hostNetwork', 'spec.serviceAccountName', 'spec.schedulerName', 'spec.restartPolicy', 'spec.nodeName'].map((f) => kind.fieldSelectors![f]!(written)), [
    'Running', '10.0.0.5', 'n2', 'false', '', 'default-scheduler', 'Always', '',
  ]);
  const bad = structuredClone(written); (bad.status as Obj).nominatedNodeName = 'Bad_Node';
  assert.equal((await rejection(h.update(bad, { subresource: 'status' }))).causes[0]!.startsWith('status.nominatedNodeName: Invalid value: "Bad_Node"'), true);
});

test('table: READY, STATUS and RESTARTS as kubectl prints them; wide columns', () => {
  const base: ApiObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', creationTimestamp: new Date().toISOString() }, spec: { containers: [{ name: 'a' }, { name: 'b' }], nodeName: 'n1' } };
  assert.deepEqual(podSummary({ ...base, status: { phase: 'Pending' } }), { ready: '0/2', status: 'Pending', restarts: '0' });
  const running = { ...base, status: { phase: 'Running', podIP: '10.1.2.3', containerStatuses: [
    { name: 'a', ready: true, restartCount: 0, state: { running: {} } },
    { name: 'b', ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } },
  ] } };
  assert.deepEqual(podSummary(running), { ready: '1/2', status: 'CrashLoopBackOff', restarts: '3' });
  const initializing = { ...base, spec: { ...(base.spec as Obj), initContainers: [{ name: 'init' }] }, status: { phase: 'Pending', initContainerStatuses: [{ name: 'init', restartCount: 0, state: { running: {} } }] } };
  assert.equal(podSummary(initializing).status, 'Init:0/1');
  const row = cells(running);
  assert.deepEqual([row[0], row[1], row[2], row[3], row[5], row[6], row[7], row[8]], ['p', '1/2', 'CrashLoopBackOff', '3', '10.1.2.3', 'n1', '<none>', '<none>']);
  assert.equal(podSummary({ ...base, metadata: { ...base.metadata, deletionTimestamp: new Date().toISOString() }, status: { phase: 'Running' } }).status, 'Terminating');
  const gated = { ...base, spec: { ...(base.spec as Obj), readinessGates: [{ conditionType: 'x/ready' }] }, status: { conditions: [{ type: 'x/ready', status: 'True' }] } };
  assert.equal(cells(gated)[8], '1/1');
});
