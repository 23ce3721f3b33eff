// VolumeAttachment (storage.svc.io/v1, cluster-scoped): the intent to attach a volume to a node, acted on
// by the external attacher of the named driver. The spec is fixed; status changes through /status.
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { type FieldError, invalid, required, forbidden, tooLong } from '../../machinery/field-errors.ts';
import { nameIsDNSSubdomain, byteLength } from '../../machinery/validation/strings.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { PersistentVolumeSpec, persistentVolumeSpecErrors, type PvSpec } from '../core/persistentvolume.ts';
import { csiDriverNameErrors } from '../core/persistentvolume-sources.ts';
import { GROUP } from './common.ts';

const MAX_METADATA_SIZE = 256 * 1024;
const MAX_ERROR_MESSAGE = 1024;

const ATTACHER_DESCRIPTION = 'attacher indicates the name of the volume driver that MUST handle this request. This is the name returned by GetPluginName().';
const PV_DESCRIPTION = 'persistentVolumeName represents the name of the persistent volume to attach.';
const NODE_DESCRIPTION = 'nodeName represents the node that the volume should be attached to.';
const ATTACHED_DESCRIPTION = 'attached indicates the volume is successfully attached. This field must only be set by the entity completing the attach operation, i.e. the external-attacher.';

const VolumeError = S.object({
  time: S.time({ proto: 1, description: 'time represents the time the error was encountered.' }),
  message: S.string({ proto: 2, description: 'message represents the error encountered during Attach or Detach operation. This string may be logged, so it should not contain sensitive information.' }),
}, { ref: 'storage.v1.VolumeError', description: 'VolumeError captures an error encountered during a volume operation.' });

export const VolumeAttachmentSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    attacher: S.string({ proto: 1, default: '', description: ATTACHER_DESCRIPTION }),
    source: S.object({
      persistentVolumeName: S.string({ proto: 1, description: PV_DESCRIPTION }),
      inlineVolumeSpec: { ...PersistentVolumeSpec, 'x-proto': 2, description: 'inlineVolumeSpec contains all the information necessary to attach a persistent volume defined by a pod\'s inline VolumeSource. This field is populated only for the CSIMigration feature. It contains translated fields from a pod\'s inline VolumeSource to a PersistentVolumeSpec. This field is beta-level and is only honored by servers that enabled the CSIMigration feature.' },
    }, { proto: 2, ref: 'storage.v1.VolumeAttachmentSource', description: 'source represents the volume that should be attached.' }),
    nodeName: S.string({ proto: 3, default: '', description: NODE_DESCRIPTION }),
  }, { proto: 2, ref: 'storage.v1.VolumeAttachmentSpec', description: 'spec represents specification of the desired attach/detach volume behavior. Populated by the API server.' }),
  status: S.object({
    attached: S.bool({ proto: 1, default: false, description: ATTACHED_DESCRIPTION }),
    attachmentMetadata: S.map(S.string(), { proto: 2, description: 'attachmentMetadata is populated with any information returned by the attach operation, upon successful attach, that must be passed into subsequent WaitForAttach or Mount calls. This field must only be set by the entity completing the attach operation, i.e. the external-attacher.' }),
    attachError: { ...VolumeError, 'x-proto': 3, description: 'attachError represents the last error encountered during attach operation, if any. This field must only be set by the entity completing the attach operation, i.e. the external-attacher.' },
    detachError: { ...VolumeError, 'x-proto': 4, description: 'detachError represents the last error encountered during detach operation, if any. This field must only be set by the entity completing the detach operation, i.e. the external-attacher.' },
  }, { proto: 3, ref: 'storage.v1.VolumeAttachmentStatus', description: 'status represents status of the VolumeAttachment request. Populated by the entity completing the attach or detach operation, i.e. the external-attacher.' }),
}, { required: ['spec'], ref: 'storage.v1.VolumeAttachment', description: 'VolumeAttachment captures the intent to attach or detach the specified volume to/from the specified node.\n\nVolumeAttachment objects are non-namespaced.' });

interface Spec { attacher?: string; source?: { persistentVolumeName?: string | null; inlineVolumeSpec?: PvSpec | null }; nodeName?: string }
interface Status { attached?: boolean; attachmentMetadata?: Record<string, string> | null; attachError?: { message?: string } | null; detachError?: { message?: string } | null }
const specOf = (o: ApiObject) => (o.spec ?? {}) as Spec;
const statusOf = (o: ApiObject) => (o.status ?? {}) as Status;

function volumeErrorErrors(e: { message?: string } | null | undefined, path: string): FieldError[] {
  // Kubernetes reports the metadata size limit here too.
  return e && byteLength(e.message ?? '') > MAX_ERROR_MESSAGE ? [tooLong(`${path}.message`, '', MAX_METADATA_SIZE)] : [];
}

/** ValidateVolumeAttachment, then the v1 checks (attacher a driver name, a valid volume name). */
function validate(obj: ApiObject): FieldError[] {
  const spec = specOf(obj), status = statusOf(obj);
  const errs: FieldError[] = [];
  if (!spec.attacher) errs.push(required('spec.attacher', ''));
  const source = spec.source ?? {};
  const pvName = source.persistentVolumeName, inline = source.inlineVolumeSpec;
  const hasName = pvName !== undefined && pvName !== null, hasInline = inline !== undefined && inline !== null;
  if (!hasName && !hasInline) errs.push(required('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (hasName && hasInline) errs.push(forbidden('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (hasName && !pvName) errs.push(required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName'));
  else if (hasInline) errs.push(...persistentVolumeSpecErrors(inline!, '', 'spec.source.inlineVolumeSpec', true));
  for (const msg of nameIsDNSSubdomain(spec.nodeName ?? '', false)) errs.push(invalid('spec.nodeName', spec.nodeName ?? '', msg));
  const size = Object.entries(status.attachmentMetadata ?? {}).reduce((n, [k, v]) => n + byteLength(k) + byteLength(v ?? ''), 0);
  if (size > MAX_METADATA_SIZE) errs.push(tooLong('status.attachmentMetadata', '', MAX_METADATA_SIZE));
  errs.push(...volumeErrorErrors(status.attachError, 'status.attachError'), ...volumeErrorErrors(status.detachError, 'status.detachError'));
  errs.push(...csiDriverNameErrors(spec.attacher ?? '', 'spec.attacher'));
  if (pvName) for (const msg of nameIsDNSSubdomain(pvName, false)) errs.push(invalid('spec.source.persistentVolumeName', pvName, msg));
  return errs;
}

function validateUpdate(obj: ApiObject, old: ApiObject, _ctx: RequestContext): FieldError[] {
  const errs = validate(obj);
  // The spec is read-only.
  if (!deepEqual(obj.spec ?? null, old.spec ?? null)) errs.push(invalid('spec', obj.spec ?? null, 'field is immutable'));
  return errs;
}

export const volumeAttachmentKind: KindDefinition = {
  group: GROUP,
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  singular: 'volumeattachment',
  namespaced: false,
  versions: [{ name: 'v1', stability: 'stable', schema: VolumeAttachmentSchema }],
  storageVersion: 'v1',
  deleteReturnsObject: true,
  status: {},
  trackGeneration: false,
  // An update names the version it read (Kubernetes' strategy refuses an update without one).
  allowUnconditionalUpdate: false,

  defaults(obj) {
    // Go always writes the status struct with its `attached` flag.
    const status = (obj.status ??= {}) as Status;
    status.attached ??= false;
  },
  prepareForCreate(obj) {
    obj.status = { attached: false };
  },
  validate,
  validateUpdate,

  tableColumns: [
    nameColumn,
    { name: 'Attacher', type: 'string', format: 'name', description: ATTACHER_DESCRIPTION, cell: (o) => specOf(o).attacher ?? '' },
    { name: 'PV', type: 'string', description: PV_DESCRIPTION, cell: (o) => specOf(o).source?.persistentVolumeName ?? '' },
    { name: 'Node', type: 'string', description: NODE_DESCRIPTION, cell: (o) => specOf(o).nodeName ?? '' },
    { name: 'Attached', type: 'boolean', description: ATTACHED_DESCRIPTION, cell: (o) => statusOf(o).attached ?? false },
    ageColumn,
  ],
};
