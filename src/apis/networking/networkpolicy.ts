// NetworkPolicy (networking.svc.io/v1, namespaced): allowed traffic for the pods a selector picks. Ports
// default to TCP, policyTypes by content (Ingress always, Egress when egress rules exist); an ipBlock's
// exceptions lie strictly inside its CIDR; endPort needs a numeric port no greater than it.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, LabelSelector } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, required, forbidden, notSupported, child, index } from '../../machinery/field-errors.ts';
import { isValidPortNum, isValidPortName, isValidCIDR, cidrIsStrictSubset, parseCIDR } from '../../machinery/validation/strings.ts';
import { validateLabelSelector } from '../../machinery/validation/objectmeta.ts';
import { formatLabelSelector } from '../../machinery/labels.ts';
import { withProto, described } from '../core/schema-helpers.ts';
import { GROUP } from './ingressclass.ts';

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];
const POD_SELECTOR_DESCRIPTION = 'podSelector selects the pods to which this NetworkPolicy object applies. The array of rules is applied to any pods selected by this field. An empty selector matches all pods in the policy\'s namespace. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is optional. If it is not specified, it defaults to an empty selector.';

const NetworkPolicyPort = S.object({
  protocol: S.string({ proto: 1, description: 'protocol represents the protocol (TCP, UDP, or SCTP) which traffic must match. If not specified, this field defaults to TCP.' }),
  port: S.intOrString({ proto: 2, description: 'port represents the port on the given protocol. This can either be a numerical or named port on a pod. If this field is not provided, this matches all port names and numbers. If present, only traffic on the specified protocol AND port will be matched.' }),
  endPort: S.int32({ proto: 3, description: 'endPort indicates that the range of ports from port to endPort if set, inclusive, should be allowed by the policy. This field cannot be defined if the port field is not defined or if the port field is defined as a named (string) port. The endPort must be equal or greater than port.' }),
}, { ref: 'networking.v1.NetworkPolicyPort', description: 'NetworkPolicyPort describes a port to allow traffic on' });

const NetworkPolicyPeer = S.object({
  podSelector: described(LabelSelector, 1, "podSelector is a label selector which selects pods. This field follows standard label selector semantics; if present but empty, it selects all pods. If namespaceSelector is also set, then the NetworkPolicyPeer as a whole selects the pods matching podSelector in the Namespaces selected by NamespaceSelector. Otherwise it selects the pods matching podSelector in the policy's own namespace."),
  namespaceSelector: described(LabelSelector, 3, 'namespaceSelector selects namespaces using cluster-scoped labels. This field follows standard label selector semantics; if present but empty, it selects all namespaces. If podSelector is also set, then the NetworkPolicyPeer as a whole selects the pods matching podSelector in the namespaces selected by namespaceSelector. Otherwise it selects all pods in the namespaces selected by namespaceSelector.'),
  ipBlock: S.object({
    cidr: S.string({ proto: 1, description: 'cidr is a string representing the IPBlock Valid examples are "192.168.1.0/24" or "2001:db8::/64"' }),
    except: S.list(S.string(), { proto: 2, listType: 'atomic', description: 'except is a slice of CIDRs that should not be included within an IPBlock Valid examples are "192.168.1.0/24" or "2001:db8::/64" Except values will be rejected if they are outside the cidr range' }),
  }, { proto: 2, ref: 'networking.v1.IPBlock', description: 'IPBlock describes a particular CIDR (Ex. "192.168.1.0/24","2001:db8::/64") that is allowed to the pods matched by a NetworkPolicySpec\'s podSelector. The except entry describes CIDRs that should not be included within this rule.' }),
}, { ref: 'networking.v1.NetworkPolicyPeer', description: 'NetworkPolicyPeer describes a peer to allow traffic to/from. Only certain combinations of fields are allowed' });

export const NetworkPolicySchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    podSelector: described(LabelSelector, 1, POD_SELECTOR_DESCRIPTION),
    ingress: S.list(S.object({
      ports: S.list(NetworkPolicyPort, { proto: 1, listType: 'atomic', description: 'ports is a list of ports which should be made accessible on the pods selected for this rule. Each item in this list is combined using a logical OR. If this field is empty or missing, this rule matches all ports (traffic not restricted by port). If this field is present and contains at least one item, then this rule allows traffic only if the traffic matches at least one port in the list.' }),
      from: S.list(NetworkPolicyPeer, { proto: 2, listType: 'atomic', description: 'from is a list of sources which should be able to access the pods selected for this rule. Items in this list are combined using a logical OR operation. If this field is empty or missing, this rule matches all sources (traffic not restricted by source). If this field is present and contains at least one item, this rule allows traffic only if the traffic matches at least one item in the from list.' }),
    }, { ref: 'networking.v1.NetworkPolicyIngressRule', description: "NetworkPolicyIngressRule describes a particular set of traffic that is allowed to the pods matched by a NetworkPolicySpec's podSelector. The traffic must match both ports and from." }), { proto: 2, listType: 'atomic', description: "ingress is a list of ingress rules to be applied to the selected pods. Traffic is allowed to a pod if there are no NetworkPolicies selecting the pod (and cluster policy otherwise allows the traffic), OR if the traffic source is the pod's local node, OR if the traffic matches at least one ingress rule across all of the NetworkPolicy objects whose podSelector matches the pod. If this field is empty then this NetworkPolicy does not allow any traffic (and serves solely to ensure that the pods it selects are isolated by default)" }),
    egress: S.list(S.object({
      ports: S.list(NetworkPolicyPort, { proto: 1, listType: 'atomic', description: 'ports is a list of destination ports for outgoing traffic. Each item in this list is combined using a logical OR. If this field is empty or missing, this rule matches all ports (traffic not restricted by port). If this field is present and contains at least one item, then this rule allows traffic only if the traffic matches at least one port in the list.' }),
      to: S.list(NetworkPolicyPeer, { proto: 2, listType: 'atomic', description: 'to is a list of destinations for outgoing traffic of pods selected for this rule. Items in this list are combined using a logical OR operation. If this field is empty or missing, this rule matches all destinations (traffic not restricted by destination). If this field is present and contains at least one item, this rule allows traffic only if the traffic matches at least one item in the to list.' }),
    }, { ref: 'networking.v1.NetworkPolicyEgressRule', description: "NetworkPolicyEgressRule describes a particular set of traffic that is allowed out of pods matched by a NetworkPolicySpec's podSelector. The traffic must match both ports and to. This type is beta-level in 1.8" }), { proto: 3, listType: 'atomic', description: 'egress is a list of egress rules to be applied to the selected pods. Outgoing traffic is allowed if there are no NetworkPolicies selecting the pod (and cluster policy otherwise allows the traffic), OR if the traffic matches at least one egress rule across all of the NetworkPolicy objects whose podSelector matches the pod. If this field is empty then this NetworkPolicy limits all outgoing traffic (and serves solely to ensure that the pods it selects are isolated by default). This field is beta-level in 1.8' }),
    policyTypes: S.list(S.string(), { proto: 4, listType: 'atomic', description: 'policyTypes is a list of rule types that the NetworkPolicy relates to. Valid options are ["Ingress"], ["Egress"], or ["Ingress", "Egress"]. If this field is not specified, it will default based on the existence of ingress or egress rules; policies that contain an egress section are assumed to affect egress, and all policies (whether or not they contain an ingress section) are assumed to affect ingress. If you want to write an egress-only policy, you must explicitly specify policyTypes [ "Egress" ]. Likewise, if you want to write a policy that specifies that no egress is allowed, you must specify a policyTypes value that include "Egress" (since such a policy would not include an egress section and would otherwise default to just [ "Ingress" ]). This field is beta-level in 1.8' }),
  }, { proto: 2, ref: 'networking.v1.NetworkPolicySpec', description: 'NetworkPolicySpec provides the specification of a NetworkPolicy' }),
}, { ref: 'networking.v1.NetworkPolicy', description: 'NetworkPolicy describes what network traffic is allowed for a set of Pods' });

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const specOf = (o: ApiObject) => (o.spec ?? {}) as Obj;

/** SetDefaults_NetworkPolicy and SetDefaults_NetworkPolicyPort. */
function defaultPolicy(obj: ApiObject): void {
  const spec = (obj.spec ??= {}) as Obj;
  // A struct in Go: an unset pod selector is the empty (select-all) selector.
  if (!isObj(spec.podSelector)) spec.podSelector = {};
  for (const rule of [...list(spec.ingress), ...list(spec.egress)]) for (const port of list(rule.ports)) port.protocol ||= 'TCP';
  if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
    spec.policyTypes = list(spec.egress).length ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

/** ValidateNetworkPolicyPort. */
export function portErrors(port: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof port.protocol === 'string' && !PROTOCOLS.includes(port.protocol)) errs.push(notSupported(child(path, 'protocol'), port.protocol, PROTOCOLS));
  const hasEnd = typeof port.endPort === 'number';
  if (typeof port.port === 'number') {
    errs.push(...isValidPortNum(port.port).map((m) => invalid(child(path, 'port'), port.port, m)));
    if (hasEnd) {
      if (port.endPort < port.port) errs.push(invalid(child(path, 'endPort'), port.port, 'must be greater than or equal to `port`'));
      errs.push(...isValidPortNum(port.endPort).map((m) => invalid(child(path, 'endPort'), port.endPort, m)));
    }
  } else if (typeof port.port === 'string') {
    if (hasEnd) errs.push(invalid(child(path, 'endPort'), port.endPort, 'may not be specified when `port` is non-numeric'));
    errs.push(...isValidPortName(port.port).map((m) => invalid(child(path, 'port'), port.port, m)));
  } else if (hasEnd) {
    errs.push(invalid(child(path, 'endPort'), port.endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

/** ValidateIPBlock: a valid CIDR, and exceptions that are valid CIDRs strictly inside it. */
export function ipBlockErrors(block: Obj, path: string): FieldError[] {
  const cidr = String(block.cidr ?? '');
  if (!cidr) return [required(child(path, 'cidr'))];
  const errs = isValidCIDR(cidr).map((m) => invalid(child(path, 'cidr'), cidr, m));
  if (!parseCIDR(cidr)) return errs;
  (Array.isArray(block.except) ? block.except : []).forEach((except: string, i: number) => {
    const at = index(child(path, 'except'), i);
    const msgs = isValidCIDR(except);
    errs.push(...msgs.map((m) => invalid(at, except, m)));
    if (!parseCIDR(except)) return;
    if (!cidrIsStrictSubset(cidr, except)) errs.push(invalid(at, except, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

/** ValidateNetworkPolicyPeer: at least one peer field, and an ipBlock alone. */
function peerErrors(peer: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  if (isObj(peer.podSelector)) { count++; errs.push(...validateLabelSelector(peer.podSelector, child(path, 'podSelector'))); }
  if (isObj(peer.namespaceSelector)) { count++; errs.push(...validateLabelSelector(peer.namespaceSelector, child(path, 'namespaceSelector'))); }
  if (isObj(peer.ipBlock)) { count++; errs.push(...ipBlockErrors(peer.ipBlock, child(path, 'ipBlock'))); }
  if (count === 0) errs.push(required(path, 'must specify a peer'));
  else if (count > 1 && isObj(peer.ipBlock)) errs.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

/** ValidateNetworkPolicySpec. */
function specErrors(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const errs = validateLabelSelector(spec.podSelector, 'spec.podSelector');
  for (const [field, peers] of [['ingress', 'from'], ['egress', 'to']] as const) {
    list(spec[field]).forEach((rule, i) => {
      const at = index(`spec.${field}`, i);
      list(rule.ports).forEach((p, j) => errs.push(...portErrors(p, index(child(at, 'ports'), j))));
      list(rule[peers]).forEach((p, j) => errs.push(...peerErrors(p, index(child(at, peers), j))));
    });
  }
  const types = Array.isArray(spec.policyTypes) ? spec.policyTypes : [];
  if (types.length > POLICY_TYPES.length) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.policyTypes', value: types, hasValue: false, detail: `[]networking.PolicyType{${types.map((t: string) => JSON.stringify(t)).join(', ')}}: may not specify more than two policyTypes` });
    return errs;
  }
  types.forEach((t: string, i: number) => { if (!POLICY_TYPES.includes(t)) errs.push(notSupported(index('spec.policyTypes', i), t, POLICY_TYPES)); });
  return errs;
}

export const networkPolicyKind: KindDefinition = {
  group: GROUP,
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  singular: 'networkpolicy',
  namespaced: true,
  shortNames: ['netpol'],
  versions: [{ name: 'v1', stability: 'stable', schema: NetworkPolicySchema }],
  storageVersion: 'v1',

  defaults: defaultPolicy,
  validate: specErrors,
  validateUpdate: specErrors,

  tableColumns: [
    nameColumn,
    { name: 'Pod-Selector', type: 'string', description: POD_SELECTOR_DESCRIPTION, cell: (o) => formatLabelSelector(specOf(o).podSelector ?? {}) },
    ageColumn,
  ],
};
