// Schemas of the meta/v1 types that every OpenAPI document references (Status, DeleteOptions, Patch,
// WatchEvent, ListMeta), declared with the same builders as kinds so they convert the same way.
import { S } from '../apis/meta/schema.ts';
import { ListMeta } from '../apis/meta/v1.ts';

const API_VERSION_DESCRIPTION = 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.';
const KIND_DESCRIPTION = 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.';

export const apiVersionField = () => S.string({ description: API_VERSION_DESCRIPTION });
export const kindField = () => S.string({ description: KIND_DESCRIPTION });

export const StatusCause = S.object({
  reason: S.string({ description: 'A machine-readable description of the cause of the error. If this value is empty there is no information available.' }),
  message: S.string({ description: 'A human-readable description of the cause of the error.  This field may be presented as-is to a reader.' }),
  field: S.string({ description: 'The field of the resource that has caused this error, as named by its JSON serialization. May include dot and postfix notation for nested attributes. Arrays are zero-indexed.  Fields may appear more than once in an array of causes due to fields having multiple errors. Optional.\n\nExamples:\n  "name" - the field "name" on the current resource\n  "items[0].name" - the field "name" on the first array entry in "items"' }),
}, { description: 'StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.', ref: 'meta.v1.StatusCause' });

export const StatusDetails = S.object({
  name: S.string({ description: 'The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).' }),
  group: S.string({ description: 'The group attribute of the resource associated with the status StatusReason.' }),
  kind: S.string({ description: 'The kind attribute of the resource associated with the status StatusReason. On some operations may differ from the requested resource Kind.' }),
  uid: S.string({ description: 'UID of the resource. (when there is a single resource which can be described).' }),
  causes: S.list(StatusCause, { description: 'The Causes array includes more details associated with the StatusReason failure. Not all StatusReasons may provide detailed causes.' }),
  retryAfterSeconds: S.int32({ description: 'If specified, the time in seconds before the operation should be retried. Some errors may indicate the client must take an alternate action - for those errors this field may indicate how long to wait before taking the alternate action.' }),
}, { description: 'StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response. The Reason field of a Status object defines what attributes will be set. Clients must ignore fields that do not match the defined type of each attribute, and should assume that any attribute may be empty, invalid, or under defined.', ref: 'meta.v1.StatusDetails' });

export const Status = S.object({
  apiVersion: apiVersionField(),
  kind: kindField(),
  metadata: ListMeta,
  status: S.string({ description: 'Status of the operation. One of: "Success" or "Failure".' }),
  message: S.string({ description: 'A human-readable description of the status of this operation.' }),
  reason: S.string({ description: 'A machine-readable description of why this operation is in the "Failure" status. If this value is empty there is no information available. A Reason clarifies an HTTP status code but does not override it.' }),
  details: StatusDetails,
  code: S.int32({ description: 'Suggested HTTP return code for this status, 0 if not set.' }),
}, { description: 'Status is a return value for calls that don\'t return other objects.', ref: 'meta.v1.Status' });

export const Preconditions = S.object({
  resourceVersion: S.string({ description: 'Specifies the target ResourceVersion' }),
  uid: S.string({ description: 'Specifies the target UID.' }),
}, { description: 'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.', ref: 'meta.v1.Preconditions' });

export const DeleteOptions = S.object({
  apiVersion: apiVersionField(),
  kind: kindField(),
  gracePeriodSeconds: S.int64({ description: 'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.' }),
  preconditions: Preconditions,
  orphanDependents: S.bool({ description: 'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.' }),
  propagationPolicy: S.string({ description: 'Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: \'Orphan\' - orphan the dependents; \'Background\' - allow the garbage collector to delete the dependents in the background; \'Foreground\' - a cascading policy that deletes all dependents in the foreground.' }),
  dryRun: S.list(S.string(), { description: 'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed' }),
  ignoreStoreReadErrorWithClusterBreakingPotential: S.bool({ description: 'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error. A resource is considered corrupt if it can not be retrieved from the underlying storage successfully because of a) its data can not be transformed e.g. decryption failure, or b) it fails to decode into an object. NOTE: unsafe deletion ignores finalizer constraints, skips precondition checks, and removes the object from the storage. WARNING: This may potentially break the cluster if the workload associated with the resource being unsafe-deleted relies on normal deletion flow. Use only if you REALLY know what you are doing. The default value is false, and the user must opt in to enable it' }),
}, { description: 'DeleteOptions may be provided when deleting an API object.', ref: 'meta.v1.DeleteOptions' });

export const Patch = S.object({}, { description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.', ref: 'meta.v1.Patch' });

export const RawExtension = S.object({}, { description: 'RawExtension is used to hold extensions in external versions. It holds an object of any kind, serialized as JSON, with its apiVersion and kind.', ref: 'runtime.RawExtension' });

export const WatchEvent = S.object({
  type: S.string({ description: 'Type of the event. One of: ADDED, MODIFIED, DELETED, BOOKMARK, ERROR.' }),
  object: S.object({}, { description: 'Object is:\n * If Type is Added or Modified: the new state of the object.\n * If Type is Deleted: the state of the object immediately before deletion.\n * If Type is Error: *Status is recommended; other types may make sense\n   depending on context.', ref: 'runtime.RawExtension' }),
}, { description: 'Event represents a single event to a watched resource.', required: ['type', 'object'], ref: 'meta.v1.WatchEvent' });

export { ListMeta };
