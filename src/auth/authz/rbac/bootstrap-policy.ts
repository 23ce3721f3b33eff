// The default roles and bindings the server creates on start and keeps reconciled: Kubernetes' bootstrap
// policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy), with the groups renamed.
import type { PolicyRule } from '../types.ts';
import { RBAC_GROUP, type ClusterRole, type Role, type RoleBinding, type Subject } from './types.ts';

export const BOOTSTRAP_LABEL = 'platform.io/bootstrapping';
export const BOOTSTRAP_LABEL_VALUE = 'rbac-defaults';
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.platform.io/autoupdate';
export const AGGREGATE_TO_ADMIN = 'rbac.authorization.platform.io/aggregate-to-admin';
export const AGGREGATE_TO_EDIT = 'rbac.authorization.platform.io/aggregate-to-edit';
export const AGGREGATE_TO_VIEW = 'rbac.authorization.platform.io/aggregate-to-view';

const legacy = '';
const apps = 'apps';
const autoscaling = 'autoscaling';
const batch = 'batch';
const extensions = 'extensions';
const policy = 'policy';
const networking = 'networking.svc.io';
const storage = 'storage.svc.io';
const certificates = 'certificates.svc.io';
const coordination = 'coordination.svc.io';
const discovery = 'discovery.svc.io';
const authentication = 'authentication.svc.io';
const authorization = 'authorization.svc.io';
const events = 'events.svc.io';
const nodeGroup = 'node.svc.io';
const admissionregistration = 'admissionregistration.svc.io';
const apiextensions = 'apiextensions.svc.io';
const flowcontrol = 'flowcontrol.apiserver.svc.io';
const scheduling = 'scheduling.svc.io';

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const READ_WRITE = [...READ, ...WRITE];

/** A rule builder in Kubernetes' field order: verbs, apiGroups, resources, resourceNames, nonResourceURLs. */
function rule(verbs: string[], groups: string[], resources: string[], names?: string[]): PolicyRule {
  const r: PolicyRule = { verbs: [...verbs], apiGroups: [...groups], resources: [...resources] };
  if (names?.length) r.resourceNames = [...names];
  return r;
}
function urls(verbs: string[], paths: string[]): PolicyRule {
  return { verbs: [...verbs], nonResourceURLs: [...paths] };
}
const eventsRule = () => rule(['create', 'update', 'patch'], [legacy, events], ['events']);

export function nodeRules(): PolicyRule[] {
  return [
    rule(['create'], [authentication], ['tokenreviews']),
    rule(['create'], [authorization], ['subjectaccessreviews', 'localsubjectaccessreviews']),
    rule(READ, [legacy], ['services']),
    rule(['create', 'get', 'list', 'watch'], [legacy], ['nodes']),
    rule(['update', 'patch'], [legacy], ['nodes/status']),
    rule(['update', 'patch'], [legacy], ['nodes']),
    rule(['create', 'update', 'patch'], [legacy], ['events']),
    rule(READ, [legacy], ['pods']),
    rule(['create', 'delete'], [legacy], ['pods']),
    rule(['update', 'patch'], [legacy], ['pods/status']),
    rule(['create'], [legacy], ['pods/eviction']),
    rule(['get', 'list', 'watch'], [legacy], ['secrets', 'configmaps']),
    rule(['get'], [legacy], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], [legacy], ['endpoints']),
    rule(['create', 'get', 'list', 'watch'], [certificates], ['certificatesigningrequests']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [coordination], ['leases']),
    rule(['get'], [storage], ['volumeattachments']),
    rule(['create'], [legacy], ['serviceaccounts/token']),
    rule(['get', 'update', 'patch'], [legacy], ['persistentvolumeclaims/status']),
    rule(['get', 'watch', 'list'], [storage], ['csidrivers']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [storage], ['csinodes']),
    rule(['get', 'list', 'watch'], [nodeGroup], ['runtimeclasses']),
  ];
}

function clusterRole(name: string, rules: PolicyRule[], o: { labels?: Record<string, string>; aggregateFrom?: string } = {}): ClusterRole {
  const role: ClusterRole = { metadata: { name, ...(o.labels ? { labels: o.labels } : {}) } };
  // Aggregated roles get their rules from the aggregation controller.
  if (rules.length || !o.aggregateFrom) role.rules = rules;
  if (o.aggregateFrom) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [o.aggregateFrom]: 'true' } }] };
  return role;
}

export function clusterRoles(): ClusterRole[] {
  const roles: ClusterRole[] = [
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
    clusterRole('system:discovery', [urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'])]),
    clusterRole('system:monitoring', [urls(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'])]),
    clusterRole('system:basic-user', [
      rule(['create'], [authorization], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], [authentication], ['selfsubjectreviews']),
      // The catalogue lets every authenticated user, service accounts included, read trust bundles (pods
      // may mount them); this role is the one bound to all of them.
      rule(READ, [certificates], ['clustertrustbundles']),
    ]),
    clusterRole('system:public-info-viewer', [urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])]),
    clusterRole('admin', [], { aggregateFrom: AGGREGATE_TO_ADMIN }),
    clusterRole('edit', [], { labels: { [AGGREGATE_TO_ADMIN]: 'true' }, aggregateFrom: AGGREGATE_TO_EDIT }),
    clusterRole('view', [], { labels: { [AGGREGATE_TO_EDIT]: 'true' }, aggregateFrom: AGGREGATE_TO_VIEW }),
    clusterRole('system:aggregate-to-admin', [
      rule(['create'], [authorization], ['localsubjectaccessreviews']),
      rule(READ_WRITE, [RBAC_GROUP], ['roles', 'rolebindings']),
    ], { labels: { [AGGREGATE_TO_ADMIN]: 'true' } }),
    clusterRole('system:aggregate-to-edit', [
      rule(READ, [legacy], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
      rule(['impersonate'], [legacy], ['serviceaccounts']),
      rule(WRITE, [legacy], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
      rule(['create'], [legacy], ['pods/eviction']),
      rule(WRITE, [legacy], ['replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events']),
      rule(['create'], [legacy], ['serviceaccounts/token']),
      rule(WRITE, [apps], ['statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale']),
      rule(WRITE, [autoscaling], ['horizontalpodautoscalers']),
      rule(WRITE, [batch], ['jobs', 'cronjobs']),
      rule(WRITE, [extensions], ['daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies']),
      rule(WRITE, [policy], ['poddisruptionbudgets']),
      rule(WRITE, [networking], ['networkpolicies', 'ingresses']),
      rule(READ_WRITE, [coordination], ['leases']),
    ], { labels: { [AGGREGATE_TO_EDIT]: 'true' } }),
    clusterRole('system:aggregate-to-view', [
      rule(READ, [legacy], ['pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps']),
      rule(READ, [legacy], ['limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log']),
      rule(READ, [legacy], ['namespaces']),
      rule(READ, [discovery], ['endpointslices']),
      rule(READ, [apps], ['controllerrevisions', 'statefulsets', 'statefulsets/status', 'statefulsets/scale', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/status', 'deployments/scale', 'replicasets', 'replicasets/status', 'replicasets/scale']),
      rule(READ, [autoscaling], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(READ, [batch], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
      rule(READ, [extensions], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale', 'networkpolicies']),
      rule(READ, [policy], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(READ, [networking], ['networkpolicies', 'ingresses', 'ingresses/status']),
    ], { labels: { [AGGREGATE_TO_VIEW]: 'true' } }),
    clusterRole('system:heapster', [
      rule(READ, [legacy], ['events', 'pods', 'nodes', 'namespaces']),
      rule(READ, [extensions], ['deployments']),
    ]),
    clusterRole('system:node', nodeRules()),
    clusterRole('system:node-problem-detector', [
      rule(['get'], [legacy], ['nodes']),
      rule(['patch'], [legacy], ['nodes/status']),
      eventsRule(),
    ]),
    clusterRole('system:kubelet-api-admin', [
      rule(['get', 'list', 'watch'], [legacy], ['nodes']),
      rule(['proxy'], [legacy], ['nodes']),
      rule(['*'], [legacy], ['nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log']),
    ]),
    clusterRole('system:node-bootstrapper', [rule(['create', 'get', 'list', 'watch'], [certificates], ['certificatesigningrequests'])]),
    clusterRole('system:auth-delegator', [
      rule(['create'], [authentication], ['tokenreviews']),
      rule(['create'], [authorization], ['subjectaccessreviews']),
    ]),
    clusterRole('system:kube-aggregator', [rule(READ, [legacy], ['services', 'endpoints'])]),
    clusterRole('system:kube-controller-manager', [
      eventsRule(),
      rule(['create'], [coordination], ['leases']),
      rule(['get', 'update'], [coordination], ['leases'], ['kube-controller-manager']),
      rule(['create'], [legacy], ['secrets', 'serviceaccounts']),
      rule(['delete'], [legacy], ['secrets']),
      rule(['get'], [legacy], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
      rule(['update'], [legacy], ['secrets', 'serviceaccounts']),
      rule(['create'], [authentication], ['tokenreviews']),
      rule(['create'], [authorization], ['subjectaccessreviews']),
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], [legacy], ['serviceaccounts/token']),
    ]),
    clusterRole('system:kube-dns', [
      rule(['list', 'watch'], [legacy], ['endpoints', 'services']),
      rule(['list', 'watch'], [discovery], ['endpointslices']),
    ]),
    clusterRole('system:persistent-volume-provisioner', [
      rule(['get', 'list', 'watch', 'create', 'delete'], [legacy], ['persistentvolumes']),
      rule(['get', 'list', 'watch', 'update'], [legacy], ['persistentvolumeclaims']),
      rule(READ, [storage], ['storageclasses']),
      rule(['watch', 'create', 'update', 'patch'], [legacy, events], ['events']),
    ]),
    clusterRole('system:kube-scheduler', [
      eventsRule(),
      rule(['create'], [coordination], ['leases']),
      rule(['get', 'update'], [coordination], ['leases'], ['kube-scheduler']),
      rule(READ, [legacy], ['nodes']),
      rule(['get', 'list', 'watch', 'delete'], [legacy], ['pods']),
      rule(['create'], [legacy], ['pods/binding', 'bindings']),
      rule(['patch', 'update'], [legacy], ['pods/status']),
      rule(READ, [legacy], ['replicationcontrollers', 'services']),
      rule(READ, [apps, extensions], ['replicasets']),
      rule(READ, [apps], ['statefulsets']),
      rule(READ, [policy], ['poddisruptionbudgets']),
      rule(READ, [legacy], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['create'], [authentication], ['tokenreviews']),
      rule(['create'], [authorization], ['subjectaccessreviews']),
      rule(READ, [storage], ['csinodes']),
      rule(READ, [legacy], ['namespaces']),
      rule(READ, [storage], ['csidrivers']),
      rule(READ, [storage], ['csistoragecapacities']),
    ]),
    clusterRole('system:volume-scheduler', [
      rule(['get', 'list', 'watch', 'update'], [legacy], ['persistentvolumes']),
      rule(READ, [storage], ['storageclasses']),
      rule(['get', 'list', 'watch', 'update', 'patch'], [legacy], ['persistentvolumeclaims']),
    ]),
    clusterRole('system:node-proxier', [
      rule(['list', 'watch'], [legacy], ['services', 'endpoints']),
      rule(['get', 'list', 'watch'], [legacy], ['nodes']),
      eventsRule(),
      rule(['list', 'watch'], [discovery], ['endpointslices']),
    ]),
    clusterRole('system:service-account-issuer-discovery', [urls(['get'], ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'])]),
    clusterRole('system:certificates.svc.io:kube-apiserver-client-approver', [rule(['approve'], [certificates], ['signers'], ['platform.io/apiserver-client'])]),
    clusterRole('system:certificates.svc.io:kube-apiserver-client-kubelet-approver', [rule(['approve'], [certificates], ['signers'], ['platform.io/apiserver-client-nodeagent'])]),
    clusterRole('system:certificates.svc.io:kubelet-serving-approver', [rule(['approve'], [certificates], ['signers'], ['platform.io/nodeagent-serving'])]),
    clusterRole('system:certificates.svc.io:legacy-unknown-approver', [rule(['approve'], [certificates], ['signers'], ['platform.io/legacy-unknown'])]),
    clusterRole('system:certificates.svc.io:certificatesigningrequests:nodeclient', [rule(['create'], [certificates], ['certificatesigningrequests/nodeclient'])]),
    clusterRole('system:certificates.svc.io:certificatesigningrequests:selfnodeclient', [rule(['create'], [certificates], ['certificatesigningrequests/selfnodeclient'])]),
    // Roles of the controllers this server runs, bound to their service accounts in kube-system.
    clusterRole('system:controller:namespace-controller', [
      rule(['get', 'list', 'watch', 'delete'], [legacy], ['namespaces']),
      rule(['update'], [legacy], ['namespaces/finalize', 'namespaces/status']),
      rule(['get', 'list', 'delete', 'deletecollection'], ['*'], ['*']),
    ]),
    clusterRole('system:controller:clusterrole-aggregation-controller', [rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [RBAC_GROUP], ['clusterroles'])]),
    clusterRole('system:controller:generic-garbage-collector', [rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']), eventsRule()]),
    clusterRole('system:controller:certificate-controller', [
      rule(['get', 'list', 'watch', 'delete'], [certificates], ['certificatesigningrequests']),
      rule(['update'], [certificates], ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
      rule(['approve'], [certificates], ['signers'], ['platform.io/apiserver-client-nodeagent']),
      rule(['sign'], [certificates], ['signers'], ['platform.io/legacy-unknown', 'platform.io/apiserver-client', 'platform.io/apiserver-client-nodeagent', 'platform.io/nodeagent-serving']),
      rule(['create'], [authorization], ['subjectaccessreviews']),
      eventsRule(),
    ]),
    clusterRole('system:controller:resourcequota-controller', [
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['update'], [legacy], ['resourcequotas/status']),
      eventsRule(),
    ]),
    clusterRole('system:controller:service-account-controller', [rule(['create'], [legacy], ['serviceaccounts']), eventsRule()]),
    clusterRole('system:controller:deployment-controller', [
      rule(['get', 'list', 'watch', 'update'], [extensions, apps], ['deployments']),
      rule(['update'], [extensions, apps], ['deployments/finalizers', 'deployments/status']),
      rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], [extensions, apps], ['replicasets']),
      rule(['get', 'list', 'watch', 'update'], [legacy], ['pods']),
      eventsRule(),
    ]),
    clusterRole('system:controller:replicaset-controller', [
      rule(['get', 'list', 'watch', 'update'], [apps, extensions], ['replicasets']),
      rule(['update'], [apps, extensions], ['replicasets/status']),
      rule(['update'], [apps, extensions], ['replicasets/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], [legacy], ['pods']),
      eventsRule(),
    ]),
    clusterRole('system:controller:persistent-volume-binder', [
      rule(['get', 'list', 'watch', 'update', 'create', 'delete'], [legacy], ['persistentvolumes']),
      rule(['update'], [legacy], ['persistentvolumes/status']),
      rule(['get', 'list', 'watch', 'update'], [legacy], ['persistentvolumeclaims']),
      rule(['update'], [legacy], ['persistentvolumeclaims/status']),
      rule(['list', 'watch', 'get', 'create', 'delete'], [legacy], ['pods']),
      rule(['get', 'list', 'watch'], [storage], ['storageclasses']),
      rule(['get', 'create', 'update', 'delete'], [legacy], ['endpoints']),
      rule(['get', 'create', 'delete'], [legacy], ['services']),
      rule(['get'], [legacy], ['secrets']),
      rule(['get', 'list'], [legacy], ['nodes']),
      rule(['watch'], [legacy], ['events']),
      eventsRule(),
    ]),
    clusterRole('system:controller:ephemeral-volume-controller', [
      rule(['get', 'list', 'watch'], [legacy], ['pods']),
      rule(['update'], [legacy], ['pods/finalizers']),
      rule(['get', 'list', 'watch', 'create'], [legacy], ['persistentvolumeclaims']),
      eventsRule(),
    ]),
    clusterRole('system:controller:pvc-protection-controller', [
      rule(['get', 'list', 'watch', 'update'], [legacy], ['persistentvolumeclaims']),
      rule(['list', 'watch', 'get'], [legacy], ['pods']),
      eventsRule(),
    ]),
    clusterRole('system:controller:root-ca-cert-publisher', [rule(['create', 'update'], [legacy], ['configmaps']), eventsRule()]),
    clusterRole('system:controller:pv-protection-controller', [
      rule(['get', 'list', 'watch', 'update'], [legacy], ['persistentvolumes']),
      eventsRule(),
    ]),
    clusterRole('system:controller:horizontal-pod-autoscaler', [
      rule(['get', 'list', 'watch'], [autoscaling], ['horizontalpodautoscalers']),
      rule(['update'], [autoscaling], ['horizontalpodautoscalers/status']),
      rule(['get', 'update'], ['*'], ['*/scale']),
      rule(['list'], [legacy], ['pods']),
      rule(['list'], ['metrics.svc.io'], ['pods']),
      rule(['get', 'list'], ['custom.metrics.svc.io'], ['*']),
      rule(['get', 'list'], ['external.metrics.svc.io'], ['*']),
      eventsRule(),
    ]),
  ];
  for (const r of roles) label(r);
  return roles;
}

function binding(name: string, roleKind: 'ClusterRole' | 'Role', roleName: string, subjects: Subject[], namespace?: string): RoleBinding {
  const b: RoleBinding = {
    metadata: { name, ...(namespace ? { namespace } : {}) },
    roleRef: { apiGroup: RBAC_GROUP, kind: roleKind, name: roleName },
  };
  if (subjects.length) b.subjects = subjects;
  return label(b);
}
const group = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });
const user = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC_GROUP, name });
const sa = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

export function clusterRoleBindings(): RoleBinding[] {
  return [
    binding('cluster-admin', 'ClusterRole', 'cluster-admin', [group('system:masters')]),
    binding('system:monitoring', 'ClusterRole', 'system:monitoring', [group('system:monitoring')]),
    binding('system:discovery', 'ClusterRole', 'system:discovery', [group('system:authenticated')]),
    binding('system:basic-user', 'ClusterRole', 'system:basic-user', [group('system:authenticated')]),
    binding('system:public-info-viewer', 'ClusterRole', 'system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
    binding('system:node-proxier', 'ClusterRole', 'system:node-proxier', [user('system:kube-proxy')]),
    binding('system:kube-controller-manager', 'ClusterRole', 'system:kube-controller-manager', [user('system:kube-controller-manager')]),
    binding('system:kube-dns', 'ClusterRole', 'system:kube-dns', [sa('kube-system', 'kube-dns')]),
    binding('system:kube-scheduler', 'ClusterRole', 'system:kube-scheduler', [user('system:kube-scheduler')]),
    binding('system:volume-scheduler', 'ClusterRole', 'system:volume-scheduler', [user('system:kube-scheduler')]),
    // Kept without subjects, as Kubernetes keeps it: the Node authorizer gives nodes their permissions.
    binding('system:node', 'ClusterRole', 'system:node', []),
    binding('system:service-account-issuer-discovery', 'ClusterRole', 'system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
    // Each controller's service account in kube-system holds its role of the same name.
    ...[
      'namespace-controller', 'clusterrole-aggregation-controller', 'generic-garbage-collector',
      'certificate-controller', 'resourcequota-controller', 'service-account-controller',
      'deployment-controller', 'replicaset-controller', 'persistent-volume-binder',
      'ephemeral-volume-controller', 'pvc-protection-controller', 'pv-protection-controller',
      'horizontal-pod-autoscaler', 'root-ca-cert-publisher',
    ].map((name) => binding(`system:controller:${name}`, 'ClusterRole', `system:controller:${name}`, [sa('kube-system', name)])),
  ];
}

export function namespaceRoles(): Role[] {
  const roles: Role[] = [
    { metadata: { name: 'extension-apiserver-authentication-reader', namespace: 'kube-system' }, rules: [rule(['get', 'list', 'watch'], [legacy], ['configmaps'], ['extension-apiserver-authentication'])] },
    { metadata: { name: 'system:controller:bootstrap-signer', namespace: 'kube-system' }, rules: [rule(['get', 'list', 'watch'], [legacy], ['secrets'])] },
    { metadata: { name: 'system:controller:token-cleaner', namespace: 'kube-system' }, rules: [rule(['delete', 'get', 'list', 'watch'], [legacy], ['secrets']), eventsRule()] },
    {
      metadata: { name: 'system::leader-locking-kube-controller-manager', namespace: 'kube-system' },
      rules: [rule(['watch'], [legacy], ['configmaps']), rule(['get', 'update'], [legacy], ['configmaps'], ['kube-controller-manager'])],
    },
    {
      metadata: { name: 'system::leader-locking-kube-scheduler', namespace: 'kube-system' },
      rules: [rule(['watch'], [legacy], ['configmaps']), rule(['get', 'update'], [legacy], ['configmaps'], ['kube-scheduler'])],
    },
    {
      metadata: { name: 'system:controller:bootstrap-signer', namespace: 'kube-public' },
      rules: [rule(['get', 'list', 'watch'], [legacy], ['configmaps']), rule(['update'], [legacy], ['configmaps'], ['cluster-info']), eventsRule()],
    },
    // The cluster-info ConfigMap may be read without credentials (bootstrap token discovery).
    { metadata: { name: 'system:bootstrap-signer-clusterinfo', namespace: 'kube-public' }, rules: [rule(['get'], [legacy], ['configmaps'], ['cluster-info'])] },
  ];
  for (const r of roles) label(r);
  return roles;
}

export function namespaceRoleBindings(): RoleBinding[] {
  return [
    binding('system::extension-apiserver-authentication-reader', 'Role', 'extension-apiserver-authentication-reader', [user('system:kube-controller-manager'), user('system:kube-scheduler')], 'kube-system'),
    binding('system::leader-locking-kube-controller-manager', 'Role', 'system::leader-locking-kube-controller-manager', [user('system:kube-controller-manager'), sa('kube-system', 'kube-controller-manager')], 'kube-system'),
    binding('system::leader-locking-kube-scheduler', 'Role', 'system::leader-locking-kube-scheduler', [user('system:kube-scheduler'), sa('kube-system', 'kube-scheduler')], 'kube-system'),
    binding('system:controller:bootstrap-signer', 'Role', 'system:controller:bootstrap-signer', [sa('kube-system', 'bootstrap-signer')], 'kube-system'),
    binding('system:controller:token-cleaner', 'Role', 'system:controller:token-cleaner', [sa('kube-system', 'token-cleaner')], 'kube-system'),
    binding('system:controller:bootstrap-signer', 'Role', 'system:controller:bootstrap-signer', [sa('kube-system', 'bootstrap-signer')], 'kube-public'),
    binding('system:bootstrap-signer-clusterinfo', 'Role', 'system:bootstrap-signer-clusterinfo', [user('system:anonymous')], 'kube-public'),
  ];
}

function label<T extends { metadata: { labels?: Record<string, string>; annotations?: Record<string, string> } }>(o: T): T {
  o.metadata.labels = { ...(o.metadata.labels ?? {}), [BOOTSTRAP_LABEL]: BOOTSTRAP_LABEL_VALUE };
  o.metadata.annotations = { ...(o.metadata.annotations ?? {}), [AUTOUPDATE_ANNOTATION]: 'true' };
  return o;
}
