// End-to-end: the workload kinds (Pod, Service, Event in core and events.svc.io, ResourceQuota, Deployment,
// ReplicaSet, HorizontalPodAutoscaler v1 and v2, IngressClass, Ingress, NetworkPolicy) driven by the real
// kubectl against a real Capstan: create and apply from YAML, the columns Kubernetes prints, explain, the
// scale sub-resource, HPA conversion both ways, the default IngressClass and field selectors.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { header, row } from './support/kubectl-table.ts';

const MANIFEST = [
  `apiVersion: v1
kind: Pod
metadata:
  name: web-pod
  labels: {app: web}
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    ports: [{containerPort: 80}]
  volumes:
  - name: config
    configMap: {name: web-config}
  - name: token
    projected:
      sources:
      - serviceAccountToken: {path: token}
`,
  `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - port: 80
    name: http
  - port: 443
    name: https
    targetPort: 8443
`,
  `apiVersion: v1
kind: ResourceQuota
metadata:
  name: compute
spec:
  hard:
    requests.cpu: 1000m
    limits.memory: 2048Mi
    pods: "10"
`,
  `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
`,
  `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: cache
spec:
  replicas: 2
  selector:
    matchLabels: {app: cache}
  template:
    metadata:
      labels: {app: cache}
    spec:
      containers:
      - name: redis
        image: redis:7
`,
  `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
  metrics:
  - type: Resource
    resource:
      name: cpu
      target: {type: Utilization, averageUtilization: 60}
  - type: Pods
    pods:
      metric: {name: requests-per-second}
      target: {type: AverageValue, averageValue: "100"}
`,
  `apiVersion: networking.svc.io/v1
kind: IngressClass
metadata:
  name: platform-default
  annotations:
    ingressclass.platform.io/is-default-class: "true"
spec:
  controller: example.com/ingress-controller
`,
  `apiVersion: networking.svc.io/v1
kind: Ingress
metadata:
  name: web
spec:
  tls:
  - hosts: [web.example.com]
    secretName: web-tls
  rules:
  - host: web.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port: {number: 80}
`,
  `apiVersion: networking.svc.io/v1
kind: NetworkPolicy
metadata:
  name: web
spec:
  podSelector:
    matchLabels: {app: web}
  ingress:
  - from:
    - ipBlock: {cidr: 10.0.0.0/8, except: [10.1.0.0/16]}
    ports:
    - port: 80
  egress:
  - ports:
    - port: 53
      protocol: UDP
`,
  `apiVersion: v1
kind: Event
metadata:
  name: web-pod.pulled
involvedObject: {kind: Pod, name: web-pod, namespace: default}
reason: Pulled
message: Successfully pulled image "nginx:1.27"
type: Normal
source: {component: node-agent, host: node-1}
count: 1
`,
  `apiVersion: events.svc.io/v1
kind: Event
metadata:
  name: web.scaled
eventTime: "2024-05-01T10:00:00.000000Z"
type: Normal
reason: ScalingReplicaSet
action: Scale
reportingController: example.com/deployment-controller
reportingInstance: controller-1
regarding: {apiVersion: apps/v1, kind: Deployment, name: web, namespace: default}
note: Scaled up replica set web-abc to 1
`,
];

describe('workload kinds with kubectl', () => {
  let s: TestServer;
  const kubectl = async (args: string[], input?: string) => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const get = async (path: string) => {
    const r = await s.request('GET', path);
    assert.equal(r.status, 200, r.body);
    return r.json();
  };
  before(async () => {
    s = await startTestServer();
    // The account pods run as (the service account controller is off in API tests).
    await kubectl(['create', 'serviceaccount', 'default']);
  });
  after(async () => { await s.stop(); });

  it('create -f and apply -f from one YAML manifest of every kind', async () => {
    const created = await kubectl(['create', '-f', '-'], MANIFEST.join('---\n'));
    for (const line of ['pod/web-pod', 'service/web', 'resourcequota/compute', 'deployment.apps/web', 'replicaset.apps/cache', 'horizontalpodautoscaler.autoscaling/web',
      'ingressclass.networking.svc.io/platform-default', 'ingress.networking.svc.io/web', 'networkpolicy.networking.svc.io/web', 'event/web-pod.pulled', 'event.events.svc.io/web.scaled']) {
      assert.match(created, new RegExp(`${line.replace(/\./g, '\\.')} created`), created);
    }
    const applied = await kubectl(['apply', '-f', '-'], MANIFEST.join('---\n'));
    for (const line of ['pod/web-pod', 'service/web', 'deployment.apps/web', 'horizontalpodautoscaler.autoscaling/web', 'ingress.networking.svc.io/web', 'networkpolicy.networking.svc.io/web']) {
      assert.match(applied, new RegExp(`${line.replace(/\./g, '\\.')} (configured|unchanged)`), applied);
    }
    // apply again from a changed manifest updates in place.
    const changed = MANIFEST[3]!.replace('image: nginx:1.27', 'image: nginx:1.28');
    assert.match(await kubectl(['apply', '-f', '-'], changed), /deployment\.apps\/web configured/);
    const d = await get('/apis/apps/v1/namespaces/default/deployments/web');
    assert.equal(d.spec.template.spec.containers[0].image, 'nginx:1.28');
    assert.ok(d.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] ?? d.metadata.annotations['kubectl.platform.io/last-applied-configuration']);
  });

  it('pods: defaults, the pod-level volumes, columns and field selectors', async () => {
    const pod = await get('/api/v1/namespaces/default/pods/web-pod');
    assert.deepEqual([pod.spec.restartPolicy, pod.spec.dnsPolicy, pod.spec.serviceAccountName, pod.status.phase, pod.status.qosClass], ['Always', 'ClusterFirst', 'default', 'Pending', 'BestEffort']);
    assert.equal(pod.spec.volumes[0].configMap.defaultMode, 420);
    assert.equal(pod.spec.volumes[1].projected.sources[0].serviceAccountToken.expirationSeconds, 3600);
    const out = await kubectl(['get', 'pods']);
    assert.deepEqual(header(out), ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    assert.deepEqual(row(out, 'web-pod').slice(0, 4), ['web-pod', '0/1', 'Pending', '0']);
    const wide = await kubectl(['get', 'pods', '-o', 'wide']);
    assert.deepEqual(header(wide), ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    assert.deepEqual(row(wide, 'web-pod').slice(5), ['<none>', '<none>', '<none>', '<none>']);
    assert.match(await kubectl(['get', 'pods', '--field-selector', 'status.phase=Pending,spec.restartPolicy=Always']), /web-pod/);
    assert.match(await kubectl(['get', 'po', '--field-selector', 'spec.serviceAccountName=default,spec.hostNetwork=false,spec.schedulerName=default-scheduler']), /web-pod/);
    const none = await s.kubectl(['get', 'pods', '--field-selector', 'spec.nodeName=node-1']);
    assert.match(none.stderr + none.stdout, /No resources found/);
    const bad = await s.kubectl(['get', 'pods', '--field-selector', 'spec.containers=x']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /field label not supported: spec\.containers/);
  });

  it('pods: volume and container rules answer 422 with Kubernetes messages', async () => {
    const tooLong = 'p'.repeat(240);
    const r = await s.kubectl(['create', '-f', '-'], `apiVersion: v1\nkind: Pod\nmetadata: {name: ${tooLong}}\nspec:\n  containers: [{name: c, image: busybox}]\n  volumes:\n  - name: scratch-space\n    ephemeral:\n      volumeClaimTemplate:\n        spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n`);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /spec\.volumes\[0\]\.name: Invalid value: "scratch-space": PVC name "p+-scratch-space": must be no more than 253 characters/);
    const two = await s.kubectl(['create', '-f', '-'], 'apiVersion: v1\nkind: Pod\nmetadata: {name: two}\nspec:\n  containers: [{name: c, image: busybox}]\n  volumes:\n  - name: v\n    emptyDir: {}\n    hostPath: {path: /tmp}\n');
    assert.match(two.stderr, /spec\.volumes\[0\]\.hostPath: Forbidden: may not specify more than 1 volume type/);
    const sat = await s.kubectl(['create', '-f', '-'], 'apiVersion: v1\nkind: Pod\nmetadata: {name: sat}\nspec:\n  containers: [{name: c, image: busybox}]\n  volumes:\n  - name: t\n    projected: {sources: [{serviceAccountToken: {path: t, expirationSeconds: 60}}]}\n');
    assert.match(sat.stderr, /expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes/);
    const mode = await s.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'mode' }, spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'v', secret: { secretName: 's', defaultMode: 1000 } }] } }) });
    assert.equal(mode.status, 422);
    assert.deepEqual(mode.json().details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive', field: 'spec.volumes[0].secret.defaultMode' }]);
  });

  it('services: defaults and columns', async () => {
    const svc = await get('/api/v1/namespaces/default/services/web');
    assert.deepEqual([svc.spec.type, svc.spec.sessionAffinity, svc.spec.ipFamilyPolicy, svc.spec.ports[0].protocol, svc.spec.ports[0].targetPort, svc.spec.ports[1].targetPort], ['ClusterIP', 'None', 'SingleStack', 'TCP', 80, 8443]);
    const out = await kubectl(['get', 'svc', '-o', 'wide']);
    assert.deepEqual(header(out), ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', 'SELECTOR']);
    const cells = row(out, 'web');
    assert.deepEqual([cells[1], cells[3], cells[4], cells[6]], ['ClusterIP', '<none>', '80/TCP,443/TCP', 'app=web']);
    assert.match(await kubectl(['get', 'svc', '--field-selector', 'spec.type=ClusterIP']), /^web /m);
  });

  it('events: core and events.svc.io/v1 are the same stored objects, with their columns', async () => {
    const core = await get('/api/v1/namespaces/default/events/web.scaled');
    assert.deepEqual([core.involvedObject.kind, core.message, core.reportingComponent], ['Deployment', 'Scaled up replica set web-abc to 1', 'example.com/deployment-controller']);
    const v1 = await get('/apis/events.svc.io/v1/namespaces/default/events/web-pod.pulled');
    assert.deepEqual([v1.apiVersion, v1.regarding.name, v1.note, v1.deprecatedCount, v1.deprecatedSource.component], ['events.svc.io/v1', 'web-pod', 'Successfully pulled image "nginx:1.27"', 1, 'node-agent']);
    const out = await kubectl(['get', 'events']);
    assert.deepEqual(header(out), ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    assert.deepEqual(row(out, 'pod/web-pod').slice(1), ['Normal', 'Pulled', 'pod/web-pod', 'Successfully pulled image "nginx:1.27"']);
    const viaGroup = await kubectl(['get', 'events.v1.events.svc.io']);
    assert.deepEqual(header(viaGroup), ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    assert.match(viaGroup, /ScalingReplicaSet\s+deployment\/web\s+Scaled up replica set web-abc to 1/);
    assert.match(await kubectl(['get', 'events', '--field-selector', 'involvedObject.kind=Pod,reason=Pulled']), /pod\/web-pod/);
    const strict = await s.kubectl(['create', '-f', '-'], 'apiVersion: events.svc.io/v1\nkind: Event\nmetadata: {name: bad}\neventTime: "2024-05-01T10:00:00.000000Z"\ntype: Info\nreason: R\naction: A\nreportingController: example.com/c\nreportingInstance: i\nregarding: {kind: Pod, name: p, namespace: default}\n');
    assert.notEqual(strict.code, 0);
    assert.match(strict.stderr, /type: Invalid value: "": has invalid value: Info/);
  });

  it('resource quotas: canonical quantities, status through /status, columns', async () => {
    const q = await get('/api/v1/namespaces/default/resourcequotas/compute');
    assert.deepEqual(q.spec.hard, { 'requests.cpu': '1', 'limits.memory': '2Gi', pods: '10' });
    const st = await s.request('PUT', '/api/v1/namespaces/default/resourcequotas/compute/status', { body: JSON.stringify({ ...q, status: { hard: q.spec.hard, used: { 'requests.cpu': '250m', 'limits.memory': '512Mi', pods: '1' } } }) });
    assert.equal(st.status, 200, st.body);
    const out = await kubectl(['get', 'quota']);
    assert.deepEqual(header(out), ['NAME', 'AGE', 'REQUEST', 'LIMIT']);
    const cells = row(out, 'compute');
    assert.deepEqual([cells[2], cells[3]], ['pods: 1/10, requests.cpu: 250m/1', 'limits.memory: 512Mi/2Gi']);
  });

  it('deployments: defaults, columns, validation and the scale sub-resource', async () => {
    const d = await get('/apis/apps/v1/namespaces/default/deployments/web');
    assert.deepEqual([d.spec.replicas, d.spec.revisionHistoryLimit, d.spec.progressDeadlineSeconds, d.spec.strategy], [1, 10, 600, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } }]);
    assert.equal(d.spec.template.spec.terminationGracePeriodSeconds, 30);
    const out = await kubectl(['get', 'deploy']);
    assert.deepEqual(header(out), ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    assert.deepEqual(row(out, 'web').slice(0, 4), ['web', '0/1', '0', '0']);
    const wide = await kubectl(['get', 'deploy', 'web', '-o', 'wide']);
    assert.deepEqual(header(wide), ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    assert.deepEqual(row(wide, 'web').slice(5), ['nginx', 'nginx:1.28', 'app=web']);

    assert.match(await kubectl(['scale', 'deployment', 'web', '--replicas=3']), /deployment\.apps\/web scaled/);
    const scale = await get('/apis/apps/v1/namespaces/default/deployments/web/scale');
    assert.deepEqual([scale.apiVersion, scale.kind, scale.spec, scale.status], ['autoscaling/v1', 'Scale', { replicas: 3 }, { replicas: 0, selector: 'app=web' }]);
    assert.equal((await get('/apis/apps/v1/namespaces/default/deployments/web')).spec.replicas, 3);
    const put = await s.request('PUT', '/apis/apps/v1/namespaces/default/deployments/web/scale', { body: JSON.stringify({ ...scale, spec: { replicas: 2 } }) });
    assert.equal(put.status, 200, put.body);
    assert.equal(put.json().spec.replicas, 2);
    assert.match(await kubectl(['scale', 'rs', 'cache', '--replicas=4']), /replicaset\.apps\/cache scaled/);
    assert.deepEqual((await get('/apis/apps/v1/namespaces/default/replicasets/cache/scale')).spec, { replicas: 4 });

    const zero = await s.kubectl(['create', '-f', '-'], MANIFEST[3]!.replace('name: web', 'name: zero').replace('spec:\n  selector', 'spec:\n  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}\n  selector'));
    assert.notEqual(zero.code, 0);
    assert.match(zero.stderr, /spec\.strategy\.rollingUpdate\.maxUnavailable: Invalid value: intstr\.IntOrString\{Type:0, IntVal:0, StrVal:""\}: may not be 0 when `maxSurge` is 0/);
    const moved = await s.request('PATCH', '/apis/apps/v1/namespaces/default/deployments/web', { body: JSON.stringify({ spec: { selector: { matchLabels: { app: 'web', v: '2' } }, template: { metadata: { labels: { app: 'web', v: '2' } } } } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(moved.status, 422);
    assert.match(moved.json().message, /spec\.selector: Invalid value: v1\.LabelSelector\{.*\}: field is immutable/);
    const rs = await kubectl(['get', 'rs', 'cache']);
    assert.deepEqual(header(rs), ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE']);
    assert.deepEqual(row(rs, 'cache').slice(0, 4), ['cache', '4', '0', '0']);
  });

  it('HPA: v2 read back in v1 and v1 read back in v2, with the columns', async () => {
    const asV1 = await get('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web');
    assert.equal(asV1.apiVersion, 'autoscaling/v1');
    assert.deepEqual(asV1.spec, { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 10, targetCPUUtilizationPercentage: 60 });
    assert.deepEqual(JSON.parse(asV1.metadata.annotations['autoscaling.alpha.platform.io/metrics']), [{ type: 'Pods', pods: { metricName: 'requests-per-second', targetAverageValue: '100' } }]);

    await kubectl(['create', '-f', '-'], 'apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: cache}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: ReplicaSet, name: cache}\n  minReplicas: 2\n  maxReplicas: 6\n  targetCPUUtilizationPercentage: 75\n');
    const asV2 = await get('/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/cache');
    assert.deepEqual(asV2.spec, { scaleTargetRef: { kind: 'ReplicaSet', name: 'cache', apiVersion: 'apps/v1' }, minReplicas: 2, maxReplicas: 6, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 75 } } }] });
    assert.equal(asV2.apiVersion, 'autoscaling/v2');
    assert.equal(asV2.metadata.annotations, undefined);
    const yaml = await kubectl(['get', 'hpa.v2.autoscaling', 'cache', '-o', 'yaml']);
    assert.match(yaml, /apiVersion: autoscaling\/v2/);

    const out = await kubectl(['get', 'hpa']);
    assert.deepEqual(header(out), ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
    assert.deepEqual(row(out, 'web').slice(1, 6), ['Deployment/web', 'cpu: <unknown>/60%, <unknown>/100', '1', '10', '0']);
    assert.deepEqual(row(out, 'cache').slice(1, 6), ['ReplicaSet/cache', 'cpu: <unknown>/75%', '2', '6', '0']);
    const bad = await s.kubectl(['create', '-f', '-'], 'apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: bad}\nspec:\n  scaleTargetRef: {kind: Deployment, name: web}\n  minReplicas: 5\n  maxReplicas: 2\n');
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec\.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`/);
  });

  it('networking: the default IngressClass, ingress and network policy defaults and columns', async () => {
    const ing = await get('/apis/networking.svc.io/v1/namespaces/default/ingresses/web');
    assert.equal(ing.spec.ingressClassName, 'platform-default');
    const out = await kubectl(['get', 'ingress']);
    assert.deepEqual(header(out), ['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE']);
    assert.deepEqual(row(out, 'web').slice(1, 4), ['platform-default', 'web.example.com', '80, 443']);
    const named = await kubectl(['create', '-f', '-'], 'apiVersion: networking.svc.io/v1\nkind: Ingress\nmetadata: {name: other}\nspec:\n  ingressClassName: other-class\n  defaultBackend: {service: {name: web, port: {name: http}}}\n');
    assert.match(named, /ingress\.networking\.svc\.io\/other created/);
    assert.equal((await get('/apis/networking.svc.io/v1/namespaces/default/ingresses/other')).spec.ingressClassName, 'other-class');
    const noType = await s.kubectl(['create', '-f', '-'], 'apiVersion: networking.svc.io/v1\nkind: Ingress\nmetadata: {name: bad}\nspec:\n  rules:\n  - http:\n      paths:\n      - path: /\n        backend: {service: {name: web, port: {number: 80}}}\n');
    assert.notEqual(noType.code, 0);
    assert.match(noType.stderr, /pathType: Required value: pathType must be specified/);

    const classes = await kubectl(['get', 'ingressclass']);
    assert.deepEqual(header(classes), ['NAME', 'CONTROLLER', 'PARAMETERS', 'AGE']);
    assert.deepEqual(row(classes, 'platform-default').slice(1, 3), ['example.com/ingress-controller', '<none>']);
    const ic = await get('/apis/networking.svc.io/v1/ingressclasses/platform-default');
    const changed = await s.request('PUT', '/apis/networking.svc.io/v1/ingressclasses/platform-default', { body: JSON.stringify({ ...ic, spec: { controller: 'example.com/other' } }) });
    assert.equal(changed.status, 422);
    assert.match(changed.json().message, /spec\.controller: Invalid value: "example\.com\/other": field is immutable/);

    const np = await get('/apis/networking.svc.io/v1/namespaces/default/networkpolicies/web');
    assert.deepEqual([np.spec.policyTypes, np.spec.ingress[0].ports[0].protocol, np.spec.egress[0].ports[0].protocol], [['Ingress', 'Egress'], 'TCP', 'UDP']);
    const pols = await kubectl(['get', 'netpol']);
    assert.deepEqual(header(pols), ['NAME', 'POD-SELECTOR', 'AGE']);
    assert.deepEqual(row(pols, 'web').slice(1, 2), ['app=web']);
    const except = await s.kubectl(['create', '-f', '-'], 'apiVersion: networking.svc.io/v1\nkind: NetworkPolicy\nmetadata: {name: bad}\nspec:\n  podSelector: {}\n  ingress:\n  - from:\n    - ipBlock: {cidr: 10.0.0.0/16, except: [10.0.0.0/8]}\n');
    assert.notEqual(except.code, 0);
    assert.match(except.stderr, /ipBlock\.except\[0\]: Invalid value: "10\.0\.0\.0\/8": must be a strict subset of `cidr`/);
  });

  it('get all lists the kinds in the all category', async () => {
    const out = await kubectl(['get', 'all']);
    for (const name of ['pod/web-pod', 'service/web', 'deployment.apps/web', 'replicaset.apps/cache', 'horizontalpodautoscaler.autoscaling/web']) assert.match(out, new RegExp(name.replace(/\./g, '\\.')), out);
    assert.doesNotMatch(out, /ingress|networkpolicy|resourcequota|event/);
  });

  it('explain shows each kind\'s fields', async () => {
    const cases: [string, RegExp][] = [
      ['pod.spec', /FIELD: spec <PodSpec>[\s\S]*containers\s+<\[\]Container> -required-/],
      ['pod.spec.volumes.projected.sources.serviceAccountToken', /expirationSeconds\s+<integer>/],
      ['service.spec', /FIELD: spec <ServiceSpec>[\s\S]*ipFamilyPolicy\s+<string>/],
      ['resourcequota.spec', /scopeSelector\s+<ScopeSelector>/],
      ['deployment.spec', /FIELD: spec <DeploymentSpec>[\s\S]*progressDeadlineSeconds\s+<integer>[\s\S]*selector\s+<LabelSelector> -required-/],
      ['replicaset.spec', /FIELD: spec <ReplicaSetSpec>/],
      ['hpa.spec', /GROUP:\s+autoscaling[\s\S]*VERSION:\s+v2[\s\S]*behavior\s+<HorizontalPodAutoscalerBehavior>/],
      ['ingress.spec', /ingressClassName\s+<string>/],
      ['ingressclass.spec', /controller\s+<string>/],
      ['networkpolicy.spec', /policyTypes\s+<\[\]string>/],
      ['event.involvedObject', /FIELD: involvedObject <ObjectReference>/],
    ];
    for (const [path, re] of cases) assert.match(await kubectl(['explain', path]), re, path);
    assert.match(await kubectl(['explain', 'events.regarding', '--api-version=events.svc.io/v1']), /FIELD: regarding <ObjectReference>/);
    assert.match(await kubectl(['explain', 'hpa.spec', '--api-version=autoscaling/v1']), /targetCPUUtilizationPercentage\s+<integer>/);
  });
});
