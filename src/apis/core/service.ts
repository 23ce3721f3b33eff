// Service (core v1, namespaced): a stable name and address for a set of pods. What Kubernetes defaults
// (type, session affinity, port protocol and target port, traffic policies, IP family policy), prepares on
// update and validates is here; cluster IPs and node ports are allocated around the registry's writes by
// src/registry/service-allocation/.
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, Condition } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, required, forbidden, notSupported, duplicate, child, index, key } from '../../machinery/field-errors.ts';
import { isValidPortNum, isValidPortName, isQualifiedName, isValidIP, isValidCIDR, ipFamilyOf, isDNS1123Label, isDNS1123Subdomain, nameIsDNS1035Label, parseIP, to4 } from '../../machinery/validation/strings.ts';
import { validateLabels } from '../../machinery/validation/objectmeta.ts';
import { withProto } from './schema-helpers.ts';
import { goQuote, goStruct, goPointer, errorWithGoValue, goStringSlice } from '../../machinery/go-format.ts';
import { dns1123SubdomainErrors } from './volume-validation.ts';
import { PROTOCOLS } from './pod-validation.ts';

type Obj = Record<string, any>;
const list = <T = Obj>(v: unknown): T[] => (Array.isArray(v) ? v : []);
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

export const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const LB_IP_MODES = ['Proxy', 'VIP'];
const DEFAULT_CLIENT_IP_TIMEOUT = 10800;
/** Topology annotations (service.kubernetes.io/... renamed): the deprecated one and its successor must agree. */
const ANNOTATION_TOPOLOGY_AWARE_HINTS = 'service.platform.io/topology-aware-hints';
const ANNOTATION_TOPOLOGY_MODE = 'service.platform.io/topology-mode';
/** The annotation that stood for spec.loadBalancerSourceRanges before the field existed. */
const ANNOTATION_LB_SOURCE_RANGES = 'service.beta.platform.io/load-balancer-source-ranges';
const MAX_CLIENT_IP_TIMEOUT = 86400;

/** A port's appProtocol, as ServicePort and EndpointPort document it. */
export const APP_PROTOCOL_DESCRIPTION = "The application protocol for this port. This is used as a hint for implementations to offer richer behavior for protocols that they understand. This field follows standard label syntax. Valid values are either: * Un-prefixed protocol names - reserved for IANA standard service names (as per RFC-6335 and https://www.iana.org/assignments/service-names). * Platform-defined prefixed names: 'platform.io/h2c', 'platform.io/ws', 'platform.io/wss'. * Other protocols should use implementation-defined prefixed names such as mycompany.com/my-custom-protocol.";
const PORTS_DESCRIPTION = 'The list of ports that are exposed by this service. More info: https://platform.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies';
const CLUSTER_IP_DESCRIPTION = 'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://platform.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies';
const TYPE_DESCRIPTION = 'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://platform.io/docs/concepts/services-networking/service/#publishing-services-service-types';
const EXTERNAL_IPS_DESCRIPTION = 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by the platform.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the platform.';
const SELECTOR_DESCRIPTION = 'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which the platform will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://platform.io/docs/concepts/services-networking/service/';

const ServicePort = S.object({
  name: S.string({ proto: 1, description: "The name of this port within the service. This must be a DNS_LABEL. All ports within a ServiceSpec must have unique names. When considering the endpoints for a Service, this must match the 'name' field in the EndpointPort. Optional if only one ServicePort is defined on this service." }),
  protocol: S.string({ proto: 2, default: 'TCP', description: 'The IP protocol for this port. Supports "TCP", "UDP", and "SCTP". Default is TCP.' }),
  appProtocol: S.string({ proto: 6, description: APP_PROTOCOL_DESCRIPTION }),
  port: S.int32({ proto: 3, description: 'The port that will be exposed by this service.' }),
  targetPort: S.intOrString({ proto: 4, description: "Number or name of the port to access on the pods targeted by the service. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME. If this is a string, it will be looked up as a named port in the target Pod's container ports. If this is not specified, the value of the 'port' field is used (an identity map). This field is ignored for services with clusterIP=None, and should be omitted or set equal to the 'port' field. More info: https://platform.io/docs/concepts/services-networking/service/#defining-a-service" }),
  nodePort: S.int32({ proto: 5, description: 'The port on each node on which this service is exposed when type is NodePort or LoadBalancer.  Usually assigned by the system. If a value is specified, in-range, and not in use it will be used, otherwise the operation will fail.  If not specified, a port will be allocated if this Service requires one.  If this field is specified when creating a Service which does not need it, creation will fail. More info: https://platform.io/docs/concepts/services-networking/service/#type-nodeport' }),
}, { required: ['port'], ref: 'core.v1.ServicePort', description: "ServicePort contains information on service's port." });

const ServiceSpec = S.object({
  ports: S.list(ServicePort, { proto: 1, listType: 'map', listMapKeys: ['port', 'protocol'], patchMergeKey: 'port', patchStrategy: 'merge', description: PORTS_DESCRIPTION }),
  selector: S.map(S.string(), { proto: 2, atomic: true, description: SELECTOR_DESCRIPTION }),
  clusterIP: S.string({ proto: 3, description: CLUSTER_IP_DESCRIPTION }),
  clusterIPs: S.list(S.string(), { proto: 18, listType: 'atomic', description: 'ClusterIPs is a list of IP addresses assigned to this service, and are usually assigned randomly.  If this field is not specified, it will be initialized from the clusterIP field.  If this field is specified, clients must ensure that clusterIPs[0] and clusterIP have the same value. This field may hold a maximum of two entries (dual-stack IPs, in either order). These IPs must correspond to the values of the ipFamilies field. Both clusterIPs and ipFamilies are governed by the ipFamilyPolicy field. More info: https://platform.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies' }),
  type: S.string({ proto: 4, description: TYPE_DESCRIPTION }),
  externalIPs: S.list(S.string(), { proto: 5, listType: 'atomic', description: EXTERNAL_IPS_DESCRIPTION }),
  sessionAffinity: S.string({ proto: 7, description: 'Supports "ClientIP" and "None". Used to maintain session affinity. Enable client IP based session affinity. Must be ClientIP or None. Defaults to None. More info: https://platform.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies' }),
  loadBalancerIP: S.string({ proto: 8, description: 'Only applies to Service Type: LoadBalancer. This feature depends on whether the underlying cloud-provider supports specifying the loadBalancerIP when a load balancer is created. This field will be ignored if the cloud-provider does not support the feature. Deprecated: This field was under-specified and its meaning varies across implementations.' }),
  loadBalancerSourceRanges: S.list(S.string(), { proto: 9, listType: 'atomic', description: 'If specified and supported by the platform, this will restrict traffic through the cloud-provider load-balancer will be restricted to the specified client IPs. This field will be ignored if the cloud-provider does not support the feature.' }),
  externalName: S.string({ proto: 10, description: 'externalName is the external reference that discovery mechanisms will return as an alias for this service (e.g. a DNS CNAME record). No proxying will be involved.  Must be a lowercase RFC-1123 hostname (https://tools.ietf.org/html/rfc1123) and requires `type` to be "ExternalName".' }),
  externalTrafficPolicy: S.string({ proto: 11, description: 'externalTrafficPolicy describes how nodes distribute service traffic they receive on one of the Service\'s "externally-facing" addresses (NodePorts, ExternalIPs, and LoadBalancer IPs). If set to "Local", the proxy will configure the service in a way that assumes that external load balancers will take care of balancing the service traffic between nodes, and so each node will deliver traffic only to the node-local endpoints of the service, without masquerading the client source IP. The default value, "Cluster", uses the standard behavior of routing to all endpoints evenly.' }),
  healthCheckNodePort: S.int32({ proto: 12, description: 'healthCheckNodePort specifies the healthcheck nodePort for the service. This only applies when type is set to LoadBalancer and externalTrafficPolicy is set to Local. If a value is specified, is in-range, and is not in use, it will be used.  If not specified, a value will be automatically allocated. This field cannot be updated once set.' }),
  publishNotReadyAddresses: S.bool({ proto: 13, description: 'publishNotReadyAddresses indicates that any agent which deals with endpoints for this Service should disregard any indications of ready/not-ready. The primary use case for setting this field is for a StatefulSet\'s Headless Service to propagate SRV DNS records for its Pods for the purpose of peer discovery.' }),
  sessionAffinityConfig: S.object({
    clientIP: S.object({
      timeoutSeconds: S.int32({ proto: 1, description: 'timeoutSeconds specifies the seconds of ClientIP type session sticky time. The value must be >0 && <=86400(for 1 day) if ServiceAffinity == "ClientIP". Default value is 10800(for 3 hours).' }),
    }, { proto: 1, ref: 'core.v1.ClientIPConfig', description: 'ClientIPConfig represents the configurations of Client IP based session affinity.' }),
  }, { proto: 14, ref: 'core.v1.SessionAffinityConfig', description: 'SessionAffinityConfig represents the configurations of session affinity.' }),
  ipFamilies: S.list(S.string(), { proto: 19, listType: 'atomic', description: 'IPFamilies is a list of IP families (e.g. IPv4, IPv6) assigned to this service. This field is usually assigned automatically based on cluster configuration and the ipFamilyPolicy field. This field is conditionally mutable: it allows for adding or removing a secondary IP family, but it does not allow changing the primary IP family of the Service. Valid values are "IPv4" and "IPv6".  This field only applies to Services of types ClusterIP, NodePort, and LoadBalancer, and does apply to "headless" services. This field will be wiped when updating a Service to type ExternalName.' }),
  ipFamilyPolicy: S.string({ proto: 17, description: 'IPFamilyPolicy represents the dual-stack-ness requested or required by this Service. If there is no value provided, then this field will be set to SingleStack. Services can be "SingleStack" (a single IP family), "PreferDualStack" (two IP families on dual-stack configured clusters or a single IP family on single-stack clusters), or "RequireDualStack" (two IP families on dual-stack configured clusters, otherwise fail). The ipFamilies and clusterIPs fields depend on the value of this field. This field will be wiped when updating a service to type ExternalName.' }),
  allocateLoadBalancerNodePorts: S.bool({ proto: 20, description: 'allocateLoadBalancerNodePorts defines if NodePorts will be automatically allocated for services with type LoadBalancer.  Default is "true". It may be set to "false" if the cluster load-balancer does not rely on NodePorts.  If the caller requests specific NodePorts (by specifying a value), those requests will be respected, regardless of this field. This field may only be set for services with type LoadBalancer and will be cleared if the type is changed to any other type.' }),
  loadBalancerClass: S.string({ proto: 21, description: 'loadBalancerClass is the class of the load balancer implementation this Service belongs to. If specified, the value of this field must be a label-style identifier, with an optional prefix, e.g. "internal-vip" or "example.com/internal-vip". Unprefixed names are reserved for end-users. This field can only be set when the Service type is \'LoadBalancer\'. Once set, it can not be changed. This field will be wiped when a service is updated to a non \'LoadBalancer\' type.' }),
  internalTrafficPolicy: S.string({ proto: 22, description: 'InternalTrafficPolicy describes how nodes distribute service traffic they receive on the ClusterIP. If set to "Local", the proxy will assume that pods only want to talk to endpoints of the service on the same node as the pod, dropping the traffic if there are no local endpoints. The default value, "Cluster", uses the standard behavior of routing to all endpoints evenly (possibly modified by topology and other features).' }),
  trafficDistribution: S.string({ proto: 23, description: 'TrafficDistribution offers a way to express preferences for how traffic is distributed to Service endpoints. Implementations can use this field as a hint, but are not required to guarantee strict adherence. If the field is not set, the implementation will apply its default routing strategy. If set to "PreferClose", implementations should prioritize endpoints that are topologically close (e.g., same zone). This is a beta field and requires enabling ServiceTrafficDistribution feature.' }),
}, { ref: 'core.v1.ServiceSpec', description: 'ServiceSpec describes the attributes that a user creates on a service.' });

const PortStatus = S.object({
  port: S.int32({ proto: 1, description: 'Port is the port number of the service port of which status is recorded here' }),
  protocol: S.string({ proto: 2, description: 'Protocol is the protocol of the service port of which status is recorded here The supported values are: "TCP", "UDP", "SCTP"' }),
  error: S.string({ proto: 3, description: 'Error is to record the problem with the service port The format of the error shall comply with the following rules: - built-in error values shall be specified in this file and those shall use CamelCase names - cloud provider specific error values must have names that comply with the format foo.example.com/CamelCase.' }),
}, { required: ['port', 'protocol'], ref: 'core.v1.PortStatus', description: 'PortStatus represents the error condition of a service port' });

export const LoadBalancerStatus = S.object({
  ingress: S.list(S.object({
    ip: S.string({ proto: 1, description: 'IP is set for load-balancer ingress points that are IP based (typically GCE or OpenStack load-balancers)' }),
    hostname: S.string({ proto: 2, description: 'Hostname is set for load-balancer ingress points that are DNS based (typically AWS load-balancers)' }),
    ipMode: S.string({ proto: 3, description: 'IPMode specifies how the load-balancer IP behaves, and may only be specified when the ip field is specified. Setting this to "VIP" indicates that traffic is delivered to the node with the destination set to the load-balancer\'s IP and port. Setting this to "Proxy" indicates that traffic is delivered to the node or pod with the destination set to the node\'s IP and node port or the pod\'s IP and port. Service implementations may use this information to adjust traffic routing.' }),
    ports: S.list(PortStatus, { proto: 4, listType: 'atomic', description: 'Ports is a list of records of service ports If used, every port defined in the service should have an entry in it' }),
  }, { ref: 'core.v1.LoadBalancerIngress', description: 'LoadBalancerIngress represents the status of a load-balancer ingress point: traffic intended for the service should be sent to an ingress point.' }), { proto: 1, listType: 'atomic', description: 'Ingress is a list containing ingress points for the load-balancer. Traffic intended for the service should be sent to these ingress points.' }),
}, { ref: 'core.v1.LoadBalancerStatus', description: 'LoadBalancerStatus represents the status of a load-balancer.' });

export const ServiceSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: withProto(ServiceSpec, 2),
  status: S.object({
    loadBalancer: withProto(LoadBalancerStatus, 1),
    conditions: S.list(Condition, { proto: 2, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: 'Current service state' }),
  }, { proto: 3, ref: 'core.v1.ServiceStatus', description: 'ServiceStatus represents the current status of a service.' }),
}, { ref: 'core.v1.Service', description: 'Service is a named abstraction of software service (for example, mysql) consisting of local port (for example 3306) that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.' });

const specOf = (o: ApiObject) => (o.spec ?? {}) as Obj;

/** LoadBalancer or NodePort, or ClusterIP with external IPs (service.ExternallyAccessible). */
function externallyAccessible(spec: Obj): boolean {
  return spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && list(spec.externalIPs).length > 0);
}

/** A headless Service: clusterIPs is exactly ["None"] (validation refuses "None" beside an address). */
export function isHeadless(spec: Obj): boolean {
  const ips = list<string>(spec.clusterIPs);
  return ips.length === 1 && ips[0] === 'None';
}

/** SetDefaults_Service. */
function defaultService(obj: ApiObject): void {
  const spec = (obj.spec ??= {}) as Obj;
  spec.sessionAffinity ||= 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && typeof spec.sessionAffinityConfig?.clientIP?.timeoutSeconds !== 'number') {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_TIMEOUT } };
  }
  spec.type ||= 'ClusterIP';
  for (const p of list(spec.ports)) {
    p.protocol ||= 'TCP';
    if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if (externallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type)) spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
  // ServiceStatus and its load balancer status are structs in Go: always written.
  const status = (obj.status ??= {}) as Obj;
  status.loadBalancer ??= {};
  // A load balancer's ingress IP without a mode is a virtual IP (LoadBalancerIPMode).
  if (spec.type === 'LoadBalancer') for (const ing of list(status.loadBalancer?.ingress)) if (ing.ip && ing.ipMode == null) ing.ipMode = 'VIP';
}

/** What the service REST layer settles on create: clusterIPs from clusterIP, the IP family policy and families. */
function initIPFields(spec: Obj): void {
  if (spec.clusterIP && list(spec.clusterIPs).length === 0) spec.clusterIPs = [spec.clusterIP];
  if (spec.type === 'ExternalName') return;
  const headlessNoSelector = spec.clusterIP === 'None' && Object.keys(spec.selector ?? {}).length === 0;
  if (!spec.ipFamilyPolicy) spec.ipFamilyPolicy = headlessNoSelector ? 'RequireDualStack' : 'SingleStack';
  if (list(spec.ipFamilies).length === 0) {
    const fams = list<string>(spec.clusterIPs).filter((ip) => ip !== 'None').map(ipFamilyOf).filter((f): f is 'IPv4' | 'IPv6' => !!f);
    spec.ipFamilies = fams.length ? fams : ['IPv4'];
  }
}

function servicePortGoValue(p: Obj): string {
  return goStruct('core.ServicePort', [
    ['Name', goQuote('')], ['Protocol', goQuote(p.protocol ?? '')], ['AppProtocol', goPointer('string', false)], ['Port', String(p.port ?? 0)],
    ['TargetPort', 'intstr.IntOrString{Type:0, IntVal:0, StrVal:""}'], ['NodePort', '0'],
  ]);
}

function portErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const ports = list(spec.ports);
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const at = index('spec.ports', i);
    if (ports.length > 1 && !p.name) errs.push(required(child(at, 'name')));
    else if (p.name) {
      errs.push(...isDNS1123Label(p.name).map((m) => invalid(child(at, 'name'), p.name, m)));
      if (names.has(p.name)) errs.push(duplicate(child(at, 'name'), p.name));
      else names.add(p.name);
    }
    // An absent port is Go's zero, and so is the target port it defaulted to.
    const port = p.port ?? 0;
    if (typeof port === 'number') for (const m of isValidPortNum(port)) errs.push(invalid(child(at, 'port'), port, m));
    if (!p.protocol) errs.push(required(child(at, 'protocol')));
    else if (!PROTOCOLS.includes(p.protocol)) errs.push(notSupported(child(at, 'protocol'), p.protocol, PROTOCOLS));
    const targetPort = p.targetPort ?? 0;
    if (typeof targetPort === 'number') for (const m of isValidPortNum(targetPort)) errs.push(invalid(child(at, 'targetPort'), targetPort, m));
    else if (typeof targetPort === 'string') for (const m of isValidPortName(targetPort)) errs.push(invalid(child(at, 'targetPort'), targetPort, m));
    if (typeof p.appProtocol === 'string') for (const m of isQualifiedName(p.appProtocol)) errs.push(invalid(child(at, 'appProtocol'), p.appProtocol, m));
  });
  return errs;
}

/** ValidateServiceClusterIPsRelatedFields: what the allocator checks before it looks at the IPs. */
export function clusterIPErrors(spec: Obj): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ips = list<string>(spec.clusterIPs);
  const ipsPath = 'spec.clusterIPs';
  if (spec.clusterIP) {
    if (ips.length === 0) errs.push(required(ipsPath));
    else if (ips[0] !== spec.clusterIP) errs.push(errorWithGoValue('FieldValueInvalid', ipsPath, ips, goStringSlice(ips), 'first value must match `clusterIP`'));
  } else if (ips.length !== 0) {
    errs.push(errorWithGoValue('FieldValueInvalid', ipsPath, ips, goStringSlice(ips), 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  list<string>(spec.ipFamilies).forEach((f, i) => {
    if (!IP_FAMILIES.includes(f)) errs.push(notSupported(index('spec.ipFamilies', i), f, IP_FAMILIES));
    if (seen.has(f)) errs.push(duplicate(index('spec.ipFamilies', i), f));
    seen.add(f);
  });
  if (spec.ipFamilyPolicy !== undefined && !IP_FAMILY_POLICIES.includes(spec.ipFamilyPolicy)) errs.push(notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, IP_FAMILY_POLICIES));
  let badIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) errs.push(errorWithGoValue('FieldValueInvalid', ipsPath, ips, goStringSlice(ips), "'None' must be the first and only value"));
      return;
    }
    const msgs = isValidIP(ip);
    if (msgs.length) badIPs = true;
    for (const m of msgs) errs.push(invalid(index(ipsPath, i), ip, m));
  });
  if (ips.length > 2) errs.push(errorWithGoValue('FieldValueInvalid', ipsPath, ips, goStringSlice(ips), 'may only hold up to 2 values'));
  if (badIPs) return errs;
  if (ips.length > 1 && new Set(ips.map(ipFamilyOf)).size !== ips.length) {
    errs.push(errorWithGoValue('FieldValueInvalid', ipsPath, ips, goStringSlice(ips), 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(spec)) {
    const fams = list<string>(spec.ipFamilies);
    ips.forEach((ip, i) => {
      if (i >= fams.length) return;
      const fam = ipFamilyOf(ip);
      if (fams[i] === 'IPv4' && fam === 'IPv6') errs.push(invalid(index(ipsPath, i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (fams[i] === 'IPv6' && fam !== 'IPv6') errs.push(invalid(index(ipsPath, i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** ValidateNonSpecialIP: external IPs may not be unspecified, loopback or link-local (unicast or multicast). */
export function nonSpecialIPErrors(ip: string, path: string): FieldError[] {
  const b = parseIP(ip);
  if (!b) return [invalid(path, ip, 'must be a valid IP address')];
  const v4 = to4(b);
  const errs: FieldError[] = [];
  const zero = (bytes: Uint8Array) => bytes.every((x) => x === 0);
  if (v4 ? zero(v4) : zero(b)) errs.push(invalid(path, ip, `may not be unspecified (${ip})`));
  if (v4 ? v4[0] === 127 : zero(b.subarray(0, 15)) && b[15] === 1) errs.push(invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (v4 ? v4[0] === 169 && v4[1] === 254 : b[0] === 0xfe && (b[1] & 0xc0) === 0x80) errs.push(invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (v4 ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0 : b[0] === 0xff && (b[1] & 0x0f) === 0x02) errs.push(invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

/** ValidateLoadBalancerStatus: ingress points only for LoadBalancer services, an IP mode only beside an IP. */
function loadBalancerStatusErrors(obj: ApiObject): FieldError[] {
  const ingress = list((obj.status as Obj | undefined)?.loadBalancer?.ingress);
  const at = 'status.loadBalancer.ingress';
  if (specOf(obj).type !== 'LoadBalancer' && ingress.length) return [forbidden(at, "may only be used when `spec.type` is 'LoadBalancer'")];
  const errs: FieldError[] = [];
  ingress.forEach((ing, i) => {
    const path = index(at, i);
    if (ing.ip) for (const m of isValidIP(ing.ip)) errs.push(invalid(child(path, 'ip'), ing.ip, m));
    if (ing.ipMode == null) {
      if (ing.ip) errs.push(required(child(path, 'ipMode'), 'must be specified when `ip` is set'));
    } else if (!ing.ip) errs.push(forbidden(child(path, 'ipMode'), 'may not be specified when `ip` is not set'));
    else if (!LB_IP_MODES.includes(ing.ipMode)) errs.push(notSupported(child(path, 'ipMode'), ing.ipMode, LB_IP_MODES));
    if (ing.hostname) {
      for (const m of isDNS1123Subdomain(ing.hostname)) errs.push(invalid(child(path, 'hostname'), ing.hostname, m));
      if (parseIP(ing.hostname)) errs.push(invalid(child(path, 'hostname'), ing.hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

/** ValidateService (without what needs allocation: node ports and health check ports are not assigned here). */
export function validateService(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const errs: FieldError[] = [];
  const annotations = (obj.metadata?.annotations ?? {}) as Record<string, string>;
  const hints = annotations[ANNOTATION_TOPOLOGY_AWARE_HINTS], mode = annotations[ANNOTATION_TOPOLOGY_MODE];
  if (hints !== undefined && mode !== undefined && hints !== mode) {
    errs.push(invalid(key('metadata.annotations', ANNOTATION_TOPOLOGY_MODE), mode, `must match annotations[${ANNOTATION_TOPOLOGY_AWARE_HINTS}] when both are specified`));
  }
  const ports = list(spec.ports);
  if (ports.length === 0 && !isHeadless(spec) && spec.type !== 'ExternalName') errs.push(required('spec.ports'));
  if ((spec.type === 'LoadBalancer' || spec.type === 'NodePort') && isHeadless(spec)) {
    errs.push(invalid('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${spec.type} services`));
  }
  if (spec.type === 'ExternalName') {
    if (list(spec.clusterIPs).length > 0) errs.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (list(spec.ipFamilies).length > 0) errs.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy !== undefined) errs.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    const cname = String(spec.externalName ?? '').replace(/\.$/, '');
    if (cname) errs.push(...dns1123SubdomainErrors(cname, 'spec.externalName'));
    else errs.push(required('spec.externalName'));
  }
  errs.push(...portErrors(spec));
  if (isObj(spec.selector)) errs.push(...validateLabels(spec.selector, 'spec.selector'));
  if (!spec.sessionAffinity) errs.push(required('spec.sessionAffinity'));
  else if (!SESSION_AFFINITIES.includes(spec.sessionAffinity)) errs.push(notSupported('spec.sessionAffinity', spec.sessionAffinity, SESSION_AFFINITIES));
  if (spec.sessionAffinity === 'ClientIP') {
    const t = spec.sessionAffinityConfig?.clientIP?.timeoutSeconds;
    if (typeof t === 'number' && (t <= 0 || t > MAX_CLIENT_IP_TIMEOUT)) errs.push(invalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', t, `must be greater than 0 and less than ${MAX_CLIENT_IP_TIMEOUT}`));
  } else if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig !== undefined) {
    errs.push(forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...clusterIPErrors(spec));
  list<string>(spec.externalIPs).forEach((ip, i) => {
    const msgs = isValidIP(ip);
    if (msgs.length) for (const m of msgs) errs.push(invalid(index('spec.externalIPs', i), ip, m));
    else errs.push(...nonSpecialIPErrors(ip, index('spec.externalIPs', i)));
  });
  if (!spec.type) errs.push(required('spec.type'));
  else if (!SERVICE_TYPES.includes(spec.type)) errs.push(notSupported('spec.type', spec.type, SERVICE_TYPES));
  if (spec.type === 'ClusterIP') ports.forEach((p, i) => { if (p.nodePort) errs.push(forbidden(child(index('spec.ports', i), 'nodePort'), "may not be used when `type` is 'ClusterIP'")); });
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (!p.nodePort) return;
    const id = `${p.protocol}/${p.nodePort}`;
    if (nodePorts.has(id)) errs.push(duplicate(child(index('spec.ports', i), 'nodePort'), p.nodePort));
    nodePorts.add(id);
  });
  const seenPorts = new Set<string>();
  ports.forEach((p, i) => {
    const id = `${p.protocol}/${p.port}`;
    if (seenPorts.has(id)) errs.push(errorWithGoValue('FieldValueDuplicate', index('spec.ports', i), p, servicePortGoValue(p)));
    seenPorts.add(id);
  });
  const ranges = list<string>(spec.loadBalancerSourceRanges);
  if (ranges.length) {
    if (spec.type !== 'LoadBalancer') errs.push(forbidden('spec.LoadBalancerSourceRanges', "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((r, i) => { const v = r.trim(); for (const m of isValidCIDR(v)) errs.push(invalid(index('spec.LoadBalancerSourceRanges', i), v, m)); });
  } else if (annotations[ANNOTATION_LB_SOURCE_RANGES] !== undefined) {
    const at = key('metadata.annotations', ANNOTATION_LB_SOURCE_RANGES);
    if (spec.type !== 'LoadBalancer') errs.push(forbidden(at, "may only be used when `type` is 'LoadBalancer'"));
    const value = annotations[ANNOTATION_LB_SOURCE_RANGES].trim();
    if (value) for (const r of value.split(',')) { const v = r.trim(); for (const m of isValidCIDR(v)) errs.push(invalid(at, v, m)); }
  }
  if (!externallyAccessible(spec)) {
    if (spec.externalTrafficPolicy) errs.push(invalid('spec.externalTrafficPolicy', spec.externalTrafficPolicy, 'may only be set for externally-accessible services'));
  } else if (!spec.externalTrafficPolicy) errs.push(required('spec.externalTrafficPolicy'));
  else if (!TRAFFIC_POLICIES.includes(spec.externalTrafficPolicy)) errs.push(notSupported('spec.externalTrafficPolicy', spec.externalTrafficPolicy, TRAFFIC_POLICIES));
  const needsHealthCheck = spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
  if (!needsHealthCheck && spec.healthCheckNodePort) {
    errs.push(invalid('spec.healthCheckNodePort', spec.healthCheckNodePort, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (needsHealthCheck && spec.healthCheckNodePort) {
    for (const m of isValidPortNum(spec.healthCheckNodePort)) errs.push(invalid('spec.healthCheckNodePort', spec.healthCheckNodePort, m));
  }
  if (spec.internalTrafficPolicy === undefined) {
    if (['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type)) errs.push(required('spec.internalTrafficPolicy'));
  } else if (!TRAFFIC_POLICIES.includes(spec.internalTrafficPolicy)) {
    errs.push(notSupported('spec.internalTrafficPolicy', spec.internalTrafficPolicy, TRAFFIC_POLICIES));
  }
  if (spec.trafficDistribution !== undefined && spec.trafficDistribution !== 'PreferClose') errs.push(notSupported('spec.trafficDistribution', spec.trafficDistribution, ['PreferClose']));
  if (spec.loadBalancerClass !== undefined) {
    if (spec.type !== 'LoadBalancer') errs.push(forbidden('spec.loadBalancerClass', 'may only be used when `type` is \'LoadBalancer\''));
    else for (const m of isQualifiedName(spec.loadBalancerClass)) errs.push(invalid('spec.loadBalancerClass', spec.loadBalancerClass, m));
  }
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.type !== 'LoadBalancer') {
    errs.push(forbidden('spec.allocateLoadBalancerNodePorts', 'may only be used when `type` is \'LoadBalancer\''));
  }
  return errs;
}

/** `%#v` of a []core.IPFamily. */
const goFamilies = (fams: string[] | undefined) => (fams === undefined ? '[]core.IPFamily(nil)' : '[]core.IPFamily{' + fams.map(goQuote).join(', ') + '}');
const optList = (v: unknown) => (Array.isArray(v) ? (v as string[]) : undefined);

/** validateUpgradeDowngradeClusterIPs: a secondary address may come or go; the primary stays. */
function clusterIPsUpdateErrors(spec: Obj, oldSpec: Obj): FieldError[] {
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  if (isHeadless(spec) && isHeadless(oldSpec)) return [];
  const ips = list<string>(spec.clusterIPs), oldIPs = list<string>(oldSpec.clusterIPs);
  const value = goStringSlice(optList(spec.clusterIPs));
  const changed = (i: number) => errorWithGoValue('FieldValueInvalid', index('spec.clusterIPs', i), ips, value, 'may not change once set');
  const errs: FieldError[] = [];
  if (oldIPs.length === ips.length) {
    oldIPs.forEach((ip, i) => { if (ip !== ips[i]) errs.push(changed(i)); });
  } else if (oldIPs.length > ips.length) {
    if (ips.length === 0) errs.push(errorWithGoValue('FieldValueInvalid', 'spec.clusterIPs[0]', ips, value, 'primary clusterIP can not be unset'));
    if (oldIPs.length && ips.length && ips[0] !== oldIPs[0]) errs.push(changed(0));
    if (ips.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (oldIPs.length && ips[0] !== oldIPs[0]) {
    errs.push(changed(0));
  }
  return errs;
}

/** validateUpgradeDowngradeIPFamilies: the primary family stays (headless services aside). */
function ipFamiliesUpdateErrors(spec: Obj, oldSpec: Obj): FieldError[] {
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  if (isHeadless(spec) || isHeadless(oldSpec)) return [];
  const fams = list<string>(spec.ipFamilies), oldFams = list<string>(oldSpec.ipFamilies);
  const at = 'spec.ipFamilies[0]';
  // Kubernetes shows the families here, but the cluster IPs in the other two cases.
  const famValue = goFamilies(optList(spec.ipFamilies)), ipsValue = goStringSlice(optList(spec.clusterIPs));
  const errs: FieldError[] = [];
  if (oldFams.length === fams.length) {
    oldFams.forEach((f, i) => { if (f !== fams[i]) errs.push(errorWithGoValue('FieldValueInvalid', at, fams, famValue, 'may not change once set')); });
  } else if (oldFams.length > fams.length) {
    if (list(spec.clusterIPs).length === 0) errs.push(errorWithGoValue('FieldValueInvalid', at, fams, famValue, 'primary ipFamily can not be unset'));
    if (fams.length && fams[0] !== oldFams[0]) errs.push(errorWithGoValue('FieldValueInvalid', at, spec.clusterIPs, ipsValue, 'may not change once set'));
    if (fams.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (oldFams.length && fams.length && fams[0] !== oldFams[0]) {
    errs.push(errorWithGoValue('FieldValueInvalid', at, spec.clusterIPs, ipsValue, 'may not change once set'));
  }
  return errs;
}

/** ValidateServiceUpdate's own rules (ValidateService follows them). */
function validateServiceUpdate(obj: ApiObject, old: ApiObject): FieldError[] {
  const spec = specOf(obj), oldSpec = specOf(old);
  const errs = [...clusterIPsUpdateErrors(spec, oldSpec), ...ipFamiliesUpdateErrors(spec, oldSpec)];
  // A LoadBalancer keeps its class, set or unset, while it stays a LoadBalancer.
  if (oldSpec.type === 'LoadBalancer' && spec.type === 'LoadBalancer' && (spec.loadBalancerClass ?? null) !== (oldSpec.loadBalancerClass ?? null)) {
    errs.push(invalid('spec.loadBalancerClass', spec.loadBalancerClass ?? null, 'may not change once set'));
  }
  if (needsHealthCheckNodePort(oldSpec) && needsHealthCheckNodePort(spec) && (spec.healthCheckNodePort ?? 0) !== (oldSpec.healthCheckNodePort ?? 0)) {
    errs.push(forbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  return errs;
}

/**
 * The service REST layer's preparation of an update: allocated values the client left out are kept
 * (patchAllocatedValues), clusterIP and clusterIPs are brought in line (normalizeClusterIPs), and values a
 * type change leaves without use are dropped unless the client changed them (dropTypeDependentFields; the
 * allocator gives them back once the update is written).
 */
function prepareServiceUpdate(obj: ApiObject, old: ApiObject): void {
  const spec = specOf(obj), oldSpec = specOf(old);
  patchAllocatedValues(spec, oldSpec);
  normalizeClusterIPs(spec, oldSpec);
  dropTypeDependentFields(spec, oldSpec);
  if (spec.type !== 'LoadBalancer') ((obj.status ??= {}) as Obj).loadBalancer = {};
  if (spec.type !== 'ExternalName') initIPFields(spec);
}

const needsClusterIP = (spec: Obj) => spec.type !== 'ExternalName';
/** Whether a Service of this spec's type has node ports (kept or allocated). */
export const needsNodePort = (spec: Obj) => spec.type === 'NodePort' || spec.type === 'LoadBalancer';
/** Whether this spec has a health check node port: a LoadBalancer with traffic policy Local. */
export const needsHealthCheckNodePort = (spec: Obj) => spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
const sameStrings = (a: unknown, b: unknown) => { const x = list<string>(a), y = list<string>(b); return x.length === y.length && x.every((v, i) => v === y[i]); };
const nodePortsOf = (spec: Obj) => list(spec.ports).map((p) => p.nodePort ?? 0);

function patchAllocatedValues(spec: Obj, old: Obj): void {
  if (needsClusterIP(old) && needsClusterIP(spec)) {
    if (!spec.clusterIP && old.clusterIP) spec.clusterIP = old.clusterIP;
    if (list(spec.clusterIPs).length === 0 && list(old.clusterIPs).length) spec.clusterIPs = [...old.clusterIPs];
  }
  if (needsNodePort(old) && needsNodePort(spec)) {
    // Ports whose node port the client kept cannot lend it to another; the others find theirs by name.
    const kept = new Set(nodePortsOf(old).filter((n) => n && nodePortsOf(spec).includes(n)));
    const byName = new Map(list(old.ports).map((p) => [p.name ?? '', p.nodePort ?? 0] as const));
    for (const p of list(spec.ports)) {
      if (p.nodePort) continue;
      const previous = byName.get(p.name ?? '') ?? 0;
      if (previous && !kept.has(previous)) p.nodePort = previous;
    }
  }
  if (needsHealthCheckNodePort(old) && needsHealthCheckNodePort(spec) && !spec.healthCheckNodePort && old.healthCheckNodePort) {
    spec.healthCheckNodePort = old.healthCheckNodePort;
  }
}

function normalizeClusterIPs(spec: Obj, old: Obj): void {
  // An old client that knows only clusterIP left clusterIPs out.
  if (list(old.clusterIPs).length && list(spec.clusterIPs).length === 0 && (old.clusterIP ?? '') === (spec.clusterIP ?? '')) spec.clusterIPs = [...old.clusterIPs];
  if ((old.clusterIP ?? '') === (spec.clusterIP ?? '')) return;
  // A client that changed only clusterIP: clusterIPs follows it (cleared, or the new address alone). One
  // that changed clusterIPs too meant what it wrote, and validation judges it.
  if (!sameStrings(spec.clusterIPs, old.clusterIPs)) return;
  if (spec.clusterIP) spec.clusterIPs = [spec.clusterIP];
  else delete spec.clusterIPs;
}

function dropTypeDependentFields(spec: Obj, old: Obj): void {
  if (needsClusterIP(old) && !needsClusterIP(spec)) {
    if ((spec.clusterIP ?? '') === (old.clusterIP ?? '') && sameStrings(spec.clusterIPs, old.clusterIPs)) { delete spec.clusterIP; delete spec.clusterIPs; }
    if (sameStrings(spec.ipFamilies, old.ipFamilies)) delete spec.ipFamilies;
    if (spec.ipFamilyPolicy === old.ipFamilyPolicy) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(old) && !needsNodePort(spec) && sameStrings(nodePortsOf(spec), nodePortsOf(old))) {
    for (const p of list(spec.ports)) delete p.nodePort;
  }
  if (needsHealthCheckNodePort(old) && !needsHealthCheckNodePort(spec) && spec.healthCheckNodePort === old.healthCheckNodePort) delete spec.healthCheckNodePort;
  if (old.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts === old.allocateLoadBalancerNodePorts) delete spec.allocateLoadBalancerNodePorts;
    if (spec.loadBalancerClass !== undefined && spec.loadBalancerClass === old.loadBalancerClass) delete spec.loadBalancerClass;
  }
  if (externallyAccessible(old) && !externallyAccessible(spec) && spec.externalTrafficPolicy === old.externalTrafficPolicy) delete spec.externalTrafficPolicy;
}

/** LoadBalancer ingress points: IPs or hostnames, comma-separated. */
function loadBalancerText(status: Obj | undefined): string {
  return list(status?.loadBalancer?.ingress).map((i) => i.ip || i.hostname || '').filter(Boolean).join(',');
}

export function externalIPText(obj: ApiObject): string {
  const spec = specOf(obj);
  const external = list<string>(spec.externalIPs);
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerText(obj.status as Obj);
      if (external.length) return [...(lb ? lb.split(',') : []), ...external].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return spec.externalName ?? '';
  }
  return '<unknown>';
}

export function portsText(obj: ApiObject): string {
  const text = list(specOf(obj).ports).map((p) => (p.nodePort > 0 ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`)).join(',');
  return text || '<none>';
}

/** labels.FormatLabels: sorted `k=v` pairs, `<none>` when empty. */
export function formatLabels(m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return keys.length ? keys.map((k) => `${k}=${m![k]}`).join(',') : '<none>';
}

export const serviceKind: KindDefinition = {
  group: '',
  kind: 'Service',
  plural: 'services',
  singular: 'service',
  namespaced: true,
  shortNames: ['svc'],
  nameValidation: nameIsDNS1035Label,
  categories: ['all'],
  versions: [{ name: 'v1', stability: 'stable', schema: ServiceSchema }],
  storageVersion: 'v1',
  status: {},
  trackGeneration: false,
  deleteReturnsObject: true,

  defaults: defaultService,
  prepareForCreate(obj) {
    obj.status = { loadBalancer: {} };
    initIPFields(specOf(obj));
  },
  prepareForUpdate(obj, old, ctx: RequestContext) {
    if (ctx.subresource === 'status') return;
    prepareServiceUpdate(obj, old);
  },
  validate: validateService,
  validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? loadBalancerStatusErrors(obj) : [...validateServiceUpdate(obj, old), ...validateService(obj)]),
  fieldSelectors: {
    'spec.clusterIP': (o) => specOf(o).clusterIP ?? '',
    'spec.type': (o) => specOf(o).type ?? '',
  },

  tableColumns: [
    nameColumn,
    { name: 'Type', type: 'string', description: TYPE_DESCRIPTION, cell: (o) => specOf(o).type ?? '' },
    { name: 'Cluster-IP', type: 'string', description: CLUSTER_IP_DESCRIPTION, cell: (o) => list<string>(specOf(o).clusterIPs)[0] ?? '<none>' },
    { name: 'External-IP', type: 'string', description: EXTERNAL_IPS_DESCRIPTION, cell: externalIPText },
    { name: 'Port(s)', type: 'string', description: PORTS_DESCRIPTION, cell: portsText },
    ageColumn,
    { name: 'Selector', type: 'string', priority: 1, description: SELECTOR_DESCRIPTION, cell: (o) => formatLabels(specOf(o).selector) },
  ],
};

