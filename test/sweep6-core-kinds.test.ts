// End-to-end sweep of core kinds against Kubernetes v1.32 (renamed): Service validation (name, annotations,
// external IPs, load balancer status, update rules), the namespace lifecycle refusal's cause, and the
// messages of core and events.svc.io Events.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

const MERGE = { 'content-type': 'application/merge-patch+json' };

describe('sweep 6: core kinds', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  const post = (path: string, body: unknown) => s.request('POST', path, { body: JSON.stringify(body) });
  const patch = (path: string, body: unknown) => s.request('PATCH', path, { body: JSON.stringify(body), headers: MERGE });
  const services = '/api/v1/namespaces/default/services';
  const svc = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({ metadata: { name, ...metadata }, spec: { ports: [{ port: 80 }], ...spec } });

  it('a Service name is a DNS-1035 label', async () => {
    const r = await post(services, svc('a.b'));
    assert.equal(r.status, 422);
    assert.equal(r.json().message, `Service "a.b" is invalid: metadata.name: Invalid value: "a.b": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`);
    assert.equal((await post(services, svc('1abc'))).status, 422);
  });

  it('external IPs may not be special addresses; topology annotations must agree', async () => {
    const r = await post(services, svc('ext', { externalIPs: ['0.0.0.0', '127.0.0.1', '169.254.1.1', '224.0.0.1', 'fe80::1', '::1', 'ff02::1', '203.0.113.1'] }, {
      annotations: { 'service.platform.io/topology-mode': 'Auto', 'service.platform.io/topology-aware-hints': 'auto' },
    }));
    assert.equal(r.status, 422);
    assert.deepEqual(r.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`), [
      'metadata.annotations[service.platform.io/topology-mode]: Invalid value: "Auto": must match annotations[service.platform.io/topology-aware-hints] when both are specified',
      'spec.externalIPs[0]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
      'spec.externalIPs[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'spec.externalIPs[2]: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'spec.externalIPs[3]: Invalid value: "224.0.0.1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
      'spec.externalIPs[4]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'spec.externalIPs[5]: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'spec.externalIPs[6]: Invalid value: "ff02::1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
    ]);
    const ok = await post(services, svc('ext', { externalIPs: ['203.0.113.1'] }, { annotations: { 'service.platform.io/topology-mode': 'Auto', 'service.platform.io/topology-aware-hints': 'Auto' } }));
    assert.equal(ok.status, 201, ok.body);
  });

  it('the load-balancer-source-ranges annotation is checked like the field', async () => {
    const r = await post(services, svc('ranges', {}, { annotations: { 'service.beta.platform.io/load-balancer-source-ranges': '10.0.0.0/8, bad' } }));
    assert.equal(r.status, 422);
    assert.equal(r.json().message, 'Service "ranges" is invalid: [metadata.annotations[service.beta.platform.io/load-balancer-source-ranges]: Forbidden: may only be used when `type` is \'LoadBalancer\', metadata.annotations[service.beta.platform.io/load-balancer-source-ranges]: Invalid value: "bad": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)]');
  });

  it('load balancer status: ingress IPs default to mode VIP and are validated; only LoadBalancer services have them', async () => {
    assert.equal((await post(services, svc('lb', { type: 'LoadBalancer' }))).status, 201);
    const ok = await patch(`${services}/lb/status`, { status: { loadBalancer: { ingress: [{ ip: '203.0.113.9' }] } } });
    assert.equal(ok.status, 200, ok.body);
    assert.deepEqual(ok.json().status.loadBalancer.ingress, [{ ip: '203.0.113.9', ipMode: 'VIP' }]);
    const bad = await patch(`${services}/lb/status`, { status: { loadBalancer: { ingress: [{ ip: '1.2.3.4.5', ipMode: 'Foo' }, { hostname: '1.2.3.4', ipMode: 'VIP' }] } } });
    assert.equal(bad.status, 422);
    assert.equal(bad.json().message, 'Service "lb" is invalid: [status.loadBalancer.ingress[0].ip: Invalid value: "1.2.3.4.5": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), status.loadBalancer.ingress[0].ipMode: Unsupported value: "Foo": supported values: "Proxy", "VIP", status.loadBalancer.ingress[1].ipMode: Forbidden: may not be specified when `ip` is not set, status.loadBalancer.ingress[1].hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address]');
    assert.equal((await post(services, svc('plain'))).status, 201);
    const notLb = await patch(`${services}/plain/status`, { status: { loadBalancer: { ingress: [{ ip: '203.0.113.9' }] } } });
    assert.equal(notLb.status, 422);
    assert.equal(notLb.json().message, 'Service "plain" is invalid: status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is \'LoadBalancer\'');
  });

  it('updates: the cluster IPs are shown as a list, a LoadBalancer keeps its class (even unset) and its health check node port', async () => {
    assert.equal((await post(services, svc('moving'))).status, 201);
    const moved = await patch(`${services}/moving`, { spec: { clusterIP: '10.0.0.222', clusterIPs: ['10.0.0.222'] } });
    assert.equal(moved.status, 422);
    assert.equal(moved.json().message, 'Service "moving" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.0.0.222"}: may not change once set');
    assert.equal((await post(services, svc('lb-local', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }))).status, 201);
    const classed = await patch(`${services}/lb-local`, { spec: { loadBalancerClass: 'example.com/lb' } });
    assert.equal(classed.status, 422);
    assert.equal(classed.json().message, 'Service "lb-local" is invalid: spec.loadBalancerClass: Invalid value: "example.com/lb": may not change once set');
    const port = await patch(`${services}/lb-local`, { spec: { healthCheckNodePort: 31999 } });
    assert.equal(port.status, 422);
    assert.equal(port.json().message, 'Service "lb-local" is invalid: spec.healthCheckNodePort: Forbidden: field is immutable');
  });

  it('creating in a terminating namespace is refused with the NamespaceTerminating cause, named by generateName', async () => {
    assert.equal((await post('/api/v1/namespaces', { metadata: { name: 'ending' } })).status, 201);
    assert.equal((await post('/api/v1/namespaces/ending/configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } })).status, 201);
    assert.equal((await s.request('DELETE', '/api/v1/namespaces/ending')).status, 200);
    const r = await post('/api/v1/namespaces/ending/configmaps', { metadata: { generateName: 'gen-' } });
    assert.equal(r.status, 403);
    const st = r.json();
    assert.equal(st.message, 'configmaps "gen-" is forbidden: unable to create new content in namespace ending because it is being terminated');
    assert.deepEqual(st.details, { name: 'gen-', kind: 'configmaps', causes: [{ reason: 'NamespaceTerminating', message: 'namespace ending is being terminated', field: 'metadata.namespace' }] });
    assert.equal((await patch('/api/v1/namespaces/ending/configmaps/held', { metadata: { finalizers: null } })).status, 200);
  });

  it('a core v1 event with an eventTime names its reporter reportingController, as Kubernetes does', async () => {
    const r = await post('/api/v1/namespaces/default/events', {
      metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, eventTime: '2024-01-01T00:00:00.000000Z',
      reportingInstance: 'i', action: 'a', reason: 'r',
    });
    assert.equal(r.status, 422);
    assert.equal(r.json().details.causes[0].field, 'reportingController');
    assert.match(r.json().message, /^Event "e1" is invalid: \[reportingController: Required value, reportingController: Invalid value: "": name part must be non-empty, /);
  });

  it('event limits count bytes, as Go does', async () => {
    const r = await post('/apis/events.svc.io/v1/namespaces/default/events', {
      metadata: { name: 'wide' }, regarding: { kind: 'Pod', name: 'p', namespace: 'default' }, eventTime: '2024-01-01T00:00:00.000000Z',
      reportingController: 'example.com/c', reportingInstance: 'i', action: 'a', reason: 'é'.repeat(65), type: 'Normal',
    });
    assert.equal(r.status, 422);
    assert.equal(r.json().message, 'Event.events.svc.io "wide" is invalid: reason: Invalid value: "": can have at most 128 characters');
  });

  it('events.svc.io/v1 updates show immutable values as Go prints them', async () => {
    const base = {
      metadata: { name: 'e3' }, regarding: { kind: 'Pod', name: 'p', namespace: 'default' }, eventTime: '2024-01-01T00:00:00.000000Z',
      reportingController: 'example.com/c', reportingInstance: 'i', action: 'a', reason: 'r', type: 'Normal', note: 'hi',
    };
    assert.equal((await post('/apis/events.svc.io/v1/namespaces/default/events', base)).status, 201);
    const changed = { ...base, regarding: { kind: 'Pod', name: 'q', namespace: 'default' }, eventTime: '2024-01-02T00:00:00.123400Z', related: { kind: 'Node', name: 'n' } };
    const r = await s.request('PUT', '/apis/events.svc.io/v1/namespaces/default/events/e3', { body: JSON.stringify(changed) });
    assert.equal(r.status, 422);
    assert.equal(r.json().message, 'Event.events.svc.io "e3" is invalid: [involvedObject: Invalid value: core.ObjectReference{Kind:"Pod", Namespace:"default", Name:"q", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable, eventTime: Invalid value: 2024-01-02 00:00:00.1234 +0000 UTC: field is immutable, related: Invalid value: core.ObjectReference{Kind:"Node", Namespace:"", Name:"n", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable]');
  });
});
