// Ingress (networking.svc.io/v1, namespaced): HTTP routing from hosts and paths to services. Every path names
// a pathType; a backend is a service (by port name or number) or a resource, not both; status (load balancer
// addresses) changes only through /status. A new ingress without a class gets the default IngressClass (see
// src/admission/default-ingress-class.ts).
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, required, notSupported, child, index } from '../../machinery/field-errors.ts';
import { isDNS1123Subdomain, isDNS1035Label, isValidPortName, isValidPortNum, isWildcardDNS1123Subdomain, parseIP, isValidIP, isQualifiedName } from '../../machinery/validation/strings.ts';
import { withProto, inlined, described } from '../core/schema-helpers.ts';
import { typedLocalObjectReferenceErrors, GROUP } from './ingressclass.ts';

export const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
/** The annotation older clients name the class with; an ingress carrying it gets no default class. */
export const LEGACY_CLASS_ANNOTATION = 'platform.io/ingress.class';
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];

const TypedLocalObjectReference = S.object({
  apiGroup: S.string({ proto: 1, description: 'APIGroup is the group for the resource being referenced. If APIGroup is not specified, the specified Kind must be in the core API group. For any other third-party types, APIGroup is required.' }),
  kind: S.string({ proto: 2, default: '', description: 'Kind is the type of resource being referenced' }),
  name: S.string({ proto: 3, default: '', description: 'Name is the name of resource being referenced' }),
}, { atomic: true, ref: 'core.v1.TypedLocalObjectReference', description: 'TypedLocalObjectReference contains enough information to let you locate the typed referenced object inside the same namespace.' });

const IngressBackend = S.object({
  service: S.object({
    name: S.string({ proto: 1, description: 'name is the referenced service. The service must exist in the same namespace as the Ingress object.' }),
    port: S.object({
      name: S.string({ proto: 1, description: 'name is the name of the port on the Service. This is a mutually exclusive setting with "Number".' }),
      number: S.int32({ proto: 2, description: 'number is the numerical port number (e.g. 80) on the Service. This is a mutually exclusive setting with "Name".' }),
    }, { proto: 2, atomic: true, ref: 'networking.v1.ServiceBackendPort', description: 'ServiceBackendPort is the service port being referenced.' }),
  }, { proto: 4, required: ['name'], ref: 'networking.v1.IngressServiceBackend', description: 'IngressServiceBackend references a Kubernetes Service as a Backend.' }),
  resource: described(TypedLocalObjectReference, 3, 'resource is an ObjectRef to another Kubernetes resource in the namespace of the Ingress object. If resource is specified, a service.Name and service.Port must not be specified. This is a mutually exclusive setting with "Service".'),
}, { ref: 'networking.v1.IngressBackend', description: 'IngressBackend describes all endpoints for a given service and port.' });

const HTTPIngressPath = S.object({
  path: S.string({ proto: 1, description: 'path is matched against the path of an incoming request. Currently it can contain characters disallowed from the conventional "path" part of a URL as defined by RFC 3986. Paths must begin with a \'/\' and must be present when using PathType with value "Exact" or "Prefix".' }),
  pathType: S.string({ proto: 3, description: 'pathType determines the interpretation of the path matching. PathType can be one of the following values: * Exact: Matches the URL path exactly. * Prefix: Matches based on a URL path prefix split by \'/\'. Matching is done on a path element by element basis. * ImplementationSpecific: Interpretation of the Path matching is up to the IngressClass. Implementations can treat this as a separate PathType or treat it identically to Prefix or Exact path types. Implementations are required to support all path types.' }),
  backend: described(IngressBackend, 2, 'backend defines the referenced service endpoint to which the traffic will be forwarded to.'),
}, { ref: 'networking.v1.HTTPIngressPath', description: 'HTTPIngressPath associates a path with a backend. Incoming urls matching the path are forwarded to the backend.' });

const IngressRule = S.object({
  host: S.string({ proto: 1, description: 'host is the fully qualified domain name of a network host, as defined by RFC 3986. Note the following deviations from the "host" part of the URI as defined in RFC 3986: 1. IPs are not allowed. Currently an IngressRuleValue can only apply to the IP in the Spec of the parent Ingress. 2. The `:` delimiter is not respected because ports are not allowed. Currently the port of an Ingress is implicitly :80 for http and :443 for https. host can be "precise" which is a domain name without the terminating dot of a network host (e.g. "foo.bar.com") or "wildcard", which is a domain name prefixed with a single wildcard label (e.g. "*.foo.com"). The wildcard character \'*\' must appear by itself as the first DNS label and matches only a single label. You cannot have a wildcard label by itself (e.g. Host == "*"). Requests will be matched against the Host field in the following way: 1. If host is precise, the request matches this rule if the http host header is equal to Host. 2. If host is a wildcard, then the request matches this rule if the http host header is to equal to the suffix (removing the first label) of the wildcard rule.' }),
  // http is Go's inlined IngressRuleValue (field 2 of IngressRule).
  http: inlined(S.object({
    paths: S.list(HTTPIngressPath, { proto: 1, listType: 'atomic', description: 'paths is a collection of paths that map requests to backends.' }),
  }, { proto: 1, required: ['paths'], ref: 'networking.v1.HTTPIngressRuleValue', description: "HTTPIngressRuleValue is a list of http selectors pointing to backends. In the example: http://<host>/<path>?<searchpart> -> backend where where parts of the url correspond to RFC 3986, this resource will be used to match against everything after the last '/' and before the first '?' or '#'." }), 2),
}, { ref: 'networking.v1.IngressRule', description: 'IngressRule represents the rules mapping the paths under a specified host to the related backend services. Incoming requests are first evaluated for a host match, then routed to the backend associated with the matching IngressRuleValue.' });

const PortStatus = S.object({
  port: S.int32({ proto: 1, description: 'port is the port number of the ingress port.' }),
  protocol: S.string({ proto: 2, description: 'protocol is the protocol of the ingress port. The supported values are: "TCP", "UDP", "SCTP"' }),
  error: S.string({ proto: 3, description: 'error is to record the problem with the service port The format of the error shall comply with the following rules: - built-in error values shall be specified in this file and those shall use CamelCase names - cloud provider specific error values must have names that comply with the format foo.example.com/CamelCase.' }),
}, { required: ['port', 'protocol'], ref: 'networking.v1.IngressPortStatus', description: 'IngressPortStatus represents the error condition of a service port' });

const ADDRESS_DESCRIPTION = 'Address is a list containing ingress points for the load-balancer';

export const IngressSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    ingressClassName: S.string({ proto: 4, description: 'ingressClassName is the name of an IngressClass cluster resource. Ingress controller implementations use this field to know whether they should be serving this Ingress resource, by a transitive connection (controller -> IngressClass -> Ingress resource). Although the `platform.io/ingress.class` annotation (simple constant name) was never formally defined, it was widely supported by Ingress controllers to create a direct binding between Ingress controller and Ingress resources. Newly created Ingress resources should prefer using the field. However, even though the annotation is officially deprecated, for backwards compatibility reasons, ingress controllers should still honor that annotation if present.' }),
    defaultBackend: described(IngressBackend, 1, 'defaultBackend is the backend that should handle requests that don\'t match any rule. If Rules are not specified, DefaultBackend must be specified. If DefaultBackend is not set, the handling of requests that do not match any of the rules will be up to the Ingress controller.'),
    tls: S.list(S.object({
      hosts: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'hosts is a list of hosts included in the TLS certificate. The values in this list must match the name/s used in the tlsSecret. Defaults to the wildcard host setting for the loadbalancer controller fulfilling this Ingress, if left unspecified.' }),
      secretName: S.string({ proto: 2, description: 'secretName is the name of the secret used to terminate TLS traffic on port 443. Field is left optional to allow TLS routing based on SNI hostname alone. If the SNI host in a listener conflicts with the "Host" header field used by an IngressRule, the SNI host is used for termination and value of the "Host" header is used for routing.' }),
    }, { ref: 'networking.v1.IngressTLS', description: 'IngressTLS describes the transport layer security associated with an ingress.' }), { proto: 2, listType: 'atomic', description: 'tls represents the TLS configuration. Currently the Ingress only supports a single TLS port, 443. If multiple members of this list specify different hosts, they will be multiplexed on the same port according to the hostname specified through the SNI TLS extension, if the ingress controller fulfilling the ingress supports SNI.' }),
    rules: S.list(IngressRule, { proto: 3, listType: 'atomic', description: 'rules is a list of host rules used to configure the Ingress. If unspecified, or no rule matches, all traffic is sent to the default backend.' }),
  }, { proto: 2, ref: 'networking.v1.IngressSpec', description: 'IngressSpec describes the Ingress the user wishes to exist.' }),
  status: S.object({
    loadBalancer: S.object({
      ingress: S.list(S.object({
        ip: S.string({ proto: 1, description: 'ip is set for load-balancer ingress points that are IP based.' }),
        hostname: S.string({ proto: 2, description: 'hostname is set for load-balancer ingress points that are DNS based.' }),
        ports: S.list(PortStatus, { proto: 4, listType: 'atomic', description: 'ports provides information about the ports exposed by this LoadBalancer.' }),
      }, { ref: 'networking.v1.IngressLoadBalancerIngress', description: 'IngressLoadBalancerIngress represents the status of a load-balancer ingress point.' }), { proto: 1, listType: 'atomic', description: 'ingress is a list containing ingress points for the load-balancer.' }),
    }, { proto: 1, ref: 'networking.v1.IngressLoadBalancerStatus', description: 'IngressLoadBalancerStatus represents the status of a load-balancer.' }),
  }, { proto: 3, ref: 'networking.v1.IngressStatus', description: 'IngressStatus describe the current state of the Ingress.' }),
}, { ref: 'networking.v1.Ingress', description: 'Ingress is a collection of rules that allow inbound connections to reach the endpoints defined by a backend. An Ingress can be configured to give services externally-reachable urls, load balance traffic, terminate SSL, offer name based virtual hosting etc.' });

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const specOf = (o: ApiObject) => (o.spec ?? {}) as Obj;

/** validateIngressBackend. */
export function backendErrors(b: Obj, path: string): FieldError[] {
  const hasResource = isObj(b.resource), hasService = isObj(b.service);
  if (hasResource && hasService) return [invalid(path, '', 'cannot set both resource and service backends')];
  if (hasResource) return typedLocalObjectReferenceErrors(b.resource, child(path, 'resource'));
  if (!hasService) return [invalid(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const svc = b.service;
  const namePath = child(child(path, 'service'), 'name');
  if (!svc.name) errs.push(required(namePath));
  else errs.push(...isDNS1035Label(svc.name).map((m) => invalid(namePath, svc.name, m)));
  const portName = String(svc.port?.name ?? ''), portNumber = Number(svc.port?.number ?? 0);
  const portPath = child(child(path, 'service'), 'port');
  if (portName && portNumber) errs.push(invalid(path, '', 'cannot set both port name & port number'));
  else if (portName) errs.push(...isValidPortName(portName).map((m) => invalid(child(portPath, 'name'), portName, m)));
  else if (portNumber) errs.push(...isValidPortNum(portNumber).map((m) => invalid(child(portPath, 'number'), portNumber, m)));
  else errs.push(required(path, 'port name or number is required'));
  return errs;
}

function pathErrors(p: Obj, path: string): FieldError[] {
  const type = p.pathType;
  if (typeof type !== 'string') return [required(child(path, 'pathType'), 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = String(p.path ?? '');
  const at = child(path, 'path');
  if (type === 'Exact' || type === 'Prefix') {
    if (!value.startsWith('/')) errs.push(invalid(at, value, 'must be an absolute path'));
    if (value) {
      for (const seq of INVALID_PATH_SEQUENCES) if (value.includes(seq)) errs.push(invalid(at, value, `must not contain '${seq}'`));
      for (const suffix of INVALID_PATH_SUFFIXES) if (value.endsWith(suffix)) errs.push(invalid(at, value, `cannot end with '${suffix}'`));
    }
  } else if (type === 'ImplementationSpecific') {
    if (value && !value.startsWith('/')) errs.push(invalid(at, value, 'must be an absolute path'));
  } else {
    errs.push(notSupported(child(path, 'pathType'), type, PATH_TYPES));
  }
  errs.push(...backendErrors(isObj(p.backend) ? p.backend : {}, child(path, 'backend')));
  return errs;
}

function rulesErrors(rules: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((rule, i) => {
    const at = index(path, i);
    const host = String(rule.host ?? '');
    if (host) {
      if (parseIP(host)) errs.push(invalid(child(at, 'host'), host, 'must be a DNS name, not an IP address'));
      const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      errs.push(...msgs.map((m) => invalid(child(at, 'host'), host, m)));
    }
    if (isObj(rule.http)) {
      const httpPath = child(at, 'http');
      const paths = Array.isArray(rule.http.paths) ? rule.http.paths : undefined;
      // An absent list is reported by structural validation; an empty one here.
      if (paths && paths.length === 0) errs.push(required(child(httpPath, 'paths')));
      list(paths).forEach((p, j) => errs.push(...pathErrors(p, index(child(httpPath, 'paths'), j))));
    }
  });
  return errs;
}

function tlsErrors(tls: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  tls.forEach((t, i) => {
    const at = index(path, i);
    (Array.isArray(t.hosts) ? t.hosts : []).forEach((host: string, j: number) => {
      const msgs = String(host).includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      errs.push(...msgs.map((m) => invalid(index(child(at, 'hosts'), j), host, m)));
    });
    if (t.secretName) errs.push(...isDNS1123Subdomain(t.secretName).map((m) => invalid(child(at, 'secretName'), t.secretName, m)));
  });
  return errs;
}

/** ValidateIngressSpec. */
function specErrors(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const errs: FieldError[] = [];
  const rules = list(spec.rules);
  if (rules.length === 0 && !isObj(spec.defaultBackend)) {
    const value = Array.isArray(spec.rules) ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)';
    errs.push({ type: 'FieldValueInvalid', field: 'spec', value: spec.rules, hasValue: false, detail: `${value}: either \`defaultBackend\` or \`rules\` must be specified` });
  }
  if (isObj(spec.defaultBackend)) errs.push(...backendErrors(spec.defaultBackend, 'spec.defaultBackend'));
  if (rules.length) errs.push(...rulesErrors(rules, 'spec.rules'));
  const tls = list(spec.tls);
  if (tls.length) errs.push(...tlsErrors(tls, 'spec.tls'));
  if (typeof spec.ingressClassName === 'string') errs.push(...isDNS1123Subdomain(spec.ingressClassName).map((m) => invalid('spec.ingressClassName', spec.ingressClassName, m)));
  return errs;
}

/** ValidateIngressCreate's addition: the legacy class annotation and the class name agree when both are set. */
function classAnnotationErrors(obj: ApiObject): FieldError[] {
  const annotations = obj.metadata.annotations ?? {};
  const className = specOf(obj).ingressClassName;
  if (!Object.hasOwn(annotations, LEGACY_CLASS_ANNOTATION) || typeof className !== 'string') return [];
  const value = annotations[LEGACY_CLASS_ANNOTATION];
  return value === className ? [] : [invalid(`annotations.${LEGACY_CLASS_ANNOTATION}`, value, 'must match `ingressClassName` when both are specified')];
}

/** ValidateIngressLoadBalancerStatus. */
function statusErrors(obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  list((obj.status as Obj | undefined)?.loadBalancer?.ingress).forEach((ing, i) => {
    const at = index('status.loadBalancer.ingress', i);
    if (ing.ip) errs.push(...isValidIP(ing.ip).map((m) => invalid(child(at, 'ip'), ing.ip, m)));
    if (ing.hostname) {
      errs.push(...isDNS1123Subdomain(ing.hostname).map((m) => invalid(child(at, 'hostname'), ing.hostname, m)));
      if (parseIP(ing.hostname)) errs.push(invalid(child(at, 'hostname'), ing.hostname, 'must be a DNS name, not an IP address'));
    }
    list(ing.ports).forEach((p, j) => {
      if (typeof p.error === 'string') errs.push(...isQualifiedName(p.error).map((m) => invalid(child(index(child(at, 'ports'), j), 'error'), p.error, m)));
    });
  });
  return errs;
}

/** formatHosts: up to three hosts, `*` when none. */
function hostsCell(obj: ApiObject): string {
  const rules = list(specOf(obj).rules);
  const hosts: string[] = [];
  let more = false;
  for (const r of rules) {
    if (hosts.length === 3) more = true;
    if (!more && r.host) hosts.push(r.host);
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - 3} more...` : hosts.join(',');
}

function addressCell(obj: ApiObject): string {
  return list((obj.status as Obj | undefined)?.loadBalancer?.ingress).map((i) => i.ip || i.hostname || '').filter(Boolean).join(',');
}

export const ingressKind: KindDefinition = {
  group: GROUP,
  kind: 'Ingress',
  plural: 'ingresses',
  singular: 'ingress',
  namespaced: true,
  shortNames: ['ing'],
  versions: [{ name: 'v1', stability: 'stable', schema: IngressSchema }],
  storageVersion: 'v1',
  status: {},

  defaults(obj) {
    obj.spec ??= {};
    // IngressStatus and its load balancer status are structs in Go: always written.
    const status = (obj.status ??= {}) as Obj;
    status.loadBalancer ??= {};
  },
  prepareForCreate(obj) {
    obj.status = { loadBalancer: {} };
  },
  validate: (obj) => [...specErrors(obj), ...classAnnotationErrors(obj)],
  validateUpdate: (obj, _old, ctx) => (ctx.subresource === 'status' ? statusErrors(obj) : specErrors(obj)),

  tableColumns: [
    nameColumn,
    { name: 'Class', type: 'string', description: 'The name of the IngressClass resource that should be used for additional configuration', cell: (o) => specOf(o).ingressClassName ?? '<none>' },
    { name: 'Hosts', type: 'string', description: 'Hosts that incoming requests are matched against before the ingress rule', cell: hostsCell },
    { name: 'Address', type: 'string', description: ADDRESS_DESCRIPTION, cell: addressCell },
    { name: 'Ports', type: 'string', description: 'Ports of TLS configurations that open', cell: (o) => (list(specOf(o).tls).length ? '80, 443' : '80') },
    ageColumn,
  ],
};
