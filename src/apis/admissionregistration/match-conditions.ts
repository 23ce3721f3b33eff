// The CEL environment of a webhook's matchConditions: `object` and `oldObject` (any), `request` (the
// AdmissionRequest without its objects) and `authorizer` (Kubernetes' authorization library). The kind
// compiles expressions against it when a configuration is stored; admission when it calls webhooks.
import { T, type CelType } from '../../machinery/cel.ts';

const GVK = T.message('GroupVersionKind', { group: T.string, version: T.string, kind: T.string });
const GVR = T.message('GroupVersionResource', { group: T.string, version: T.string, resource: T.string });

/** The AdmissionRequest as match conditions see it (Kubernetes leaves `object` and `oldObject` out). */
const ADMISSION_REQUEST_CEL_TYPE = T.message('kubernetes.AdmissionRequest', {
  uid: T.string, kind: GVK, resource: GVR, subResource: T.string, requestKind: GVK, requestResource: GVR, requestSubResource: T.string,
  name: T.string, namespace: T.string, operation: T.string,
  userInfo: T.message('kubernetes.UserInfo', { username: T.string, uid: T.string, groups: T.list(T.string), extra: T.map(T.list(T.string)) }),
  dryRun: T.bool, options: T.dyn,
});

// The types of Kubernetes' authorization library in CEL; admission gives them their values.
export const DECISION = T.opaque('kubernetes.authorization.Decision', {}, { allowed: T.bool, reason: T.string, errored: T.bool, error: T.string });
export const PATH_CHECK = T.opaque('kubernetes.authorization.PathCheck', {}, { check: DECISION });
export const RESOURCE_CHECK = T.opaque('kubernetes.authorization.ResourceCheck', {}, { check: DECISION });
RESOURCE_CHECK.methods.subresource = RESOURCE_CHECK;
RESOURCE_CHECK.methods.namespace = RESOURCE_CHECK;
RESOURCE_CHECK.methods.name = RESOURCE_CHECK;
export const GROUP_CHECK = T.opaque('kubernetes.authorization.GroupCheck', {}, { resource: RESOURCE_CHECK });
export const AUTHORIZER = T.opaque('kubernetes.authorization.Authorizer', { requestResource: RESOURCE_CHECK }, { path: PATH_CHECK, group: GROUP_CHECK });
AUTHORIZER.methods.serviceAccount = AUTHORIZER;

export const MATCH_CONDITION_VARIABLES: Record<string, CelType> = { object: T.dyn, oldObject: T.dyn, request: ADMISSION_REQUEST_CEL_TYPE, authorizer: AUTHORIZER };
