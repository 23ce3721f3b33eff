// Endpoints (core v1, namespaced): the addresses and ports that implement a Service, as a list of subsets
// (every address of a subset serves every port of it). Kubernetes' storage strategy for it is plain: no
// status, no generation, PUT may create, and nothing is prepared on create or update (a port's protocol
// defaults to TCP); validation is the same on create and update. The annotations the endpoints controller writes (`endpoints.platform.io/
// last-change-trigger-time`, `endpoints.platform.io/over-capacity`) are informational: nothing checks them.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, ObjectReference } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, required, notSupported, child, index } from '../../machinery/field-errors.ts';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidIP, isValidPortNum } from '../../machinery/validation/strings.ts';
import { withProto, described } from './schema-helpers.ts';
import { PROTOCOLS } from './pod-validation.ts';
import { APP_PROTOCOL_DESCRIPTION, nonSpecialIPErrors } from './service.ts';

type Obj = Record<string, any>;
const list = <T = Obj>(v: unknown): T[] => (Array.isArray(v) ? v : []);

const SUBSETS_DESCRIPTION = 'The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.';

const EndpointAddress = S.object({
  ip: S.string({ proto: 1, description: 'The IP of this endpoint. May not be loopback (127.0.0.0/8 or ::1), link-local (169.254.0.0/16 or fe80::/10), or link-local multicast (224.0.0.0/24 or ff02::/16).' }),
  hostname: S.string({ proto: 3, description: 'The Hostname of this endpoint' }),
  nodeName: S.string({ proto: 4, description: 'Optional: Node hosting this endpoint. This can be used to determine endpoints local to a node.' }),
  targetRef: described(ObjectReference, 2, 'Reference to object providing the endpoint.'),
}, { required: ['ip'], atomic: true, ref: 'core.v1.EndpointAddress', description: 'EndpointAddress is a tuple that describes single IP address.' });

const EndpointPort = S.object({
  name: S.string({ proto: 1, description: "The name of this port.  This must match the 'name' field in the corresponding ServicePort. Must be a DNS_LABEL. Optional only if one port is defined." }),
  port: S.int32({ proto: 2, description: 'The port number of the endpoint.' }),
  protocol: S.string({ proto: 3, default: 'TCP', description: 'The IP protocol for this port. Must be UDP, TCP, or SCTP. Default is TCP.' }),
  appProtocol: S.string({ proto: 4, description: APP_PROTOCOL_DESCRIPTION }),
}, { required: ['port'], atomic: true, ref: 'core.v1.EndpointPort', description: 'EndpointPort is a tuple that describes a single port.' });

const EndpointSubset = S.object({
  addresses: S.list(EndpointAddress, { proto: 1, listType: 'atomic', description: 'IP addresses which offer the related ports that are marked as ready. These endpoints should be considered safe for load balancers and clients to utilize.' }),
  notReadyAddresses: S.list(EndpointAddress, { proto: 2, listType: 'atomic', description: 'IP addresses which offer the related ports but are not currently marked as ready because they have not yet finished starting, have recently failed a readiness check, or have recently failed a liveness check.' }),
  ports: S.list(EndpointPort, { proto: 3, listType: 'atomic', description: 'Port numbers available on the related IP addresses.' }),
}, {
  ref: 'core.v1.EndpointSubset',
  description: 'EndpointSubset is a group of addresses with a common set of ports. The expanded set of endpoints is the Cartesian product of Addresses x Ports. For example, given:\n\n\t{\n\t  Addresses: [{"ip": "10.10.1.1"}, {"ip": "10.10.2.2"}],\n\t  Ports:     [{"name": "a", "port": 8675}, {"name": "b", "port": 309}]\n\t}\n\nThe resulting set of endpoints can be viewed as:\n\n\ta: [ 10.10.1.1:8675, 10.10.2.2:8675 ],\n\tb: [ 10.10.1.1:309, 10.10.2.2:309 ]',
});

export const EndpointsSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  subsets: S.list(EndpointSubset, { proto: 2, listType: 'atomic', description: SUBSETS_DESCRIPTION }),
}, {
  ref: 'core.v1.Endpoints',
  description: 'Endpoints is a collection of endpoints that implement the actual service. Example:\n\n\t Name: "mysvc",\n\t Subsets: [\n\t   {\n\t     Addresses: [{"ip": "10.10.1.1"}, {"ip": "10.10.2.2"}],\n\t     Ports: [{"name": "a", "port": 8675}, {"name": "b", "port": 309}]\n\t   },\n\t   {\n\t     Addresses: [{"ip": "10.10.3.3"}],\n\t     Ports: [{"name": "a", "port": 93}, {"name": "b", "port": 76}]\n\t   },\n\t]',
});

/** One ready or not-ready address: a usable IP (not unspecified, loopback or link-local), a DNS label for a
 *  hostname, a DNS subdomain for a node name. */
function addressErrors(address: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ip = typeof address?.ip === 'string' ? address.ip : '';
  const ipPath = child(path, 'ip');
  for (const m of isValidIP(ip)) errs.push(invalid(ipPath, ip, m));
  if (typeof address?.hostname === 'string' && address.hostname) {
    for (const m of isDNS1123Label(address.hostname)) errs.push(invalid(child(path, 'hostname'), address.hostname, m));
  }
  if (typeof address?.nodeName === 'string') {
    for (const m of isDNS1123Subdomain(address.nodeName)) errs.push(invalid(child(path, 'nodeName'), address.nodeName, m));
  }
  // The special-range checks run whatever the first check said (an unparsable IP is reported twice).
  errs.push(...nonSpecialIPErrors(ip, ipPath));
  return errs;
}

/** One port: a DNS label name (required when the subset has more than one port), a port number, a supported
 *  protocol, and an appProtocol of qualified-name form. Names need not be unique. */
function portErrors(port: Obj, nameRequired: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof port?.name === 'string' ? port.name : '';
  if (nameRequired && !name) errs.push(required(child(path, 'name')));
  else if (name) for (const m of isDNS1123Label(name)) errs.push(invalid(child(path, 'name'), name, m));
  const number = port?.port ?? 0;
  if (typeof number === 'number') for (const m of isValidPortNum(number)) errs.push(invalid(child(path, 'port'), number, m));
  if (!port?.protocol) errs.push(required(child(path, 'protocol')));
  else if (!PROTOCOLS.includes(port.protocol)) errs.push(notSupported(child(path, 'protocol'), port.protocol, PROTOCOLS));
  if (typeof port?.appProtocol === 'string') for (const m of isQualifiedName(port.appProtocol)) errs.push(invalid(child(path, 'appProtocol'), port.appProtocol, m));
  return errs;
}

/** ValidateEndpoints (object metadata is checked by the registry): every subset has an address, ready or not;
 *  ports may be left out (a headless Service's endpoints have none). */
export function validateEndpoints(obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  list(obj.subsets).forEach((subset, i) => {
    const at = index('subsets', i);
    const addresses = list(subset?.addresses), notReady = list(subset?.notReadyAddresses), ports = list(subset?.ports);
    if (addresses.length === 0 && notReady.length === 0) errs.push(required(at, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...addressErrors(a, index(child(at, 'addresses'), j))));
    notReady.forEach((a, j) => errs.push(...addressErrors(a, index(child(at, 'notReadyAddresses'), j))));
    ports.forEach((p, j) => errs.push(...portErrors(p, ports.length > 1, index(child(at, 'ports'), j))));
  });
  return errs;
}

/** `host:port` as Go's net.JoinHostPort writes it (an IPv6 address in brackets). */
const joinHostPort = (host: string, port: unknown) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/**
 * kubectl's ENDPOINTS cell (formatEndpoints): the first three `ip:port` pairs (port by port, address by
 * address; a subset without ports shows its bare IPs), then ` + N more...` for the rest; `<none>` without
 * subsets. Only ready addresses count.
 */
export function endpointsText(obj: ApiObject): string {
  const subsets = list(obj.subsets);
  if (subsets.length === 0) return '<none>';
  const MAX = 3;
  const all: string[] = [];
  for (const subset of subsets) {
    const ips = list(subset?.addresses).map((a) => String(a?.ip ?? ''));
    const ports = list(subset?.ports);
    if (ports.length === 0) all.push(...ips);
    for (const p of ports) all.push(...ips.map((ip) => joinHostPort(ip, p?.port ?? 0)));
  }
  const text = all.slice(0, MAX).join(',');
  return all.length > MAX ? `${text} + ${all.length - MAX} more...` : text;
}

export const endpointsKind: KindDefinition = {
  group: '',
  kind: 'Endpoints',
  listKind: 'EndpointsList',
  plural: 'endpoints',
  singular: 'endpoints',
  namespaced: true,
  shortNames: ['ep'],
  versions: [{ name: 'v1', stability: 'stable', schema: EndpointsSchema }],
  storageVersion: 'v1',
  trackGeneration: false,
  allowCreateOnUpdate: true,

  validate: validateEndpoints,
  // ValidateEndpointsUpdate: the metadata rules, then the same checks as on create (a node name may change).
  validateUpdate: validateEndpoints,

  tableColumns: [
    nameColumn,
    { name: 'Endpoints', type: 'string', description: SUBSETS_DESCRIPTION, cell: endpointsText },
    ageColumn,
  ],
};
