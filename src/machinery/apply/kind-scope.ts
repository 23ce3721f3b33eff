// The field manager's view of a kind and an endpoint: the storage schema, and the fields the endpoint
// resets (which nobody owns through it): the main resource resets the status fields; /status and its
// variants reset everything but the status fields, labels and annotations.
import type { TSchema } from '@sinclair/typebox';
import type { KindDefinition } from '../../apis/kind.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';
import { asSchema, deref, EMPTY_SCOPE } from '../schema/schema-kind.ts';
import { recordUpdate, type FieldManagerScope } from './field-manager.ts';
import { deepClone } from '../schema/walk.ts';
import { FieldSet } from './fieldset.ts';
import { fieldElement } from './path.ts';
import { rootType, type TypeRef } from './schema-view.ts';

/** The schema objects are stored in (a kind may be stored in another group's form). */
export function storageSchemaOf(def: KindDefinition): TSchema {
  const storedAs = (def as { storedAs?: { schema: TSchema } }).storedAs;
  if (storedAs) return storedAs.schema;
  const v = def.versions.find((x) => x.name === def.storageVersion) ?? def.versions[0];
  return v.schema;
}

const types = new WeakMap<KindDefinition, TypeRef>();
const resets = new WeakMap<KindDefinition, Map<string, FieldSet | undefined>>();

function typeOf(def: KindDefinition): TypeRef {
  let t = types.get(def);
  if (!t) { t = rootType(storageSchemaOf(def)); types.set(def, t); }
  return t;
}

/** True for `status` and the sub-resources the kind declares to behave like it. */
export function writesStatusOnly(def: KindDefinition, subresource: string): boolean {
  return subresource === 'status' || (!!subresource && (def.status?.variants?.includes(subresource) ?? false));
}

function resetFieldsOf(def: KindDefinition, subresource: string): FieldSet | undefined {
  let byEndpoint = resets.get(def);
  if (!byEndpoint) { byEndpoint = new Map(); resets.set(def, byEndpoint); }
  if (byEndpoint.has(subresource)) return byEndpoint.get(subresource);
  let set: FieldSet | undefined;
  if (!def.status) set = undefined;
  else if (subresource === '') {
    set = FieldSet.of(...(def.status.mainResetsFields ?? ['status']).map((p) => p.split('.').map(fieldElement)));
  } else if (writesStatusOnly(def, subresource)) {
    const statusFields = new Set(def.status.statusFields ?? ['status']);
    const root = asSchema(deref(storageSchemaOf(def), EMPTY_SCOPE));
    set = new FieldSet();
    for (const name of Object.keys(root.properties ?? {})) {
      if (statusFields.has(name) || name === 'metadata' || name === 'apiVersion' || name === 'kind') continue;
      set.insert([fieldElement(name)]);
    }
    const meta = root.properties?.metadata ? asSchema(deref(root.properties.metadata, EMPTY_SCOPE)) : undefined;
    for (const name of Object.keys(meta?.properties ?? {})) {
      if (name !== 'labels' && name !== 'annotations') set.insert([fieldElement('metadata'), fieldElement(name)]);
    }
  }
  byEndpoint.set(subresource, set);
  return set;
}

/** The scope of a write to `def` through `subresource`, addressed at `version` of the kind's group. */
export function fieldManagerScope(def: KindDefinition, version: string, subresource: string): FieldManagerScope {
  return {
    type: typeOf(def),
    apiVersion: def.group ? `${def.group}/${version}` : version,
    kind: def.kind,
    subresource,
    resetFields: resetFieldsOf(def, subresource),
  };
}

const versionTypes = new WeakMap<TSchema, TypeRef>();

function versionTypeOf(schema: TSchema): TypeRef {
  let t = versionTypes.get(schema);
  if (!t) { t = rootType(schema); versionTypes.set(schema, t); }
  return t;
}

/**
 * The store hook that records a create, update or non-apply patch by `manager`. Kubernetes compares the
 * objects in the request's version, so a version stored in another form (autoscaling/v1 HPAs, events.svc.io
 * Events) records the fields of its own shape (targetCPUUtilizationPercentage, not metrics).
 */
export function updateTracker(def: KindDefinition, version: string, subresource: string, manager: string): (obj: ApiObject, old: ApiObject | undefined) => void {
  const scope = fieldManagerScope(def, version, subresource);
  const converted = def.versions.find((v) => v.name === version);
  const fromStorage = converted?.fromStorage;
  if (!converted || !fromStorage) return (obj, old) => recordUpdate(scope, old, obj, manager);
  const versionScope: FieldManagerScope = { ...scope, type: versionTypeOf(converted.schema) };
  return (obj, old) => {
    const view = fromStorage(deepClone(obj) as ApiObject);
    recordUpdate(versionScope, old ? fromStorage(deepClone(old) as ApiObject) : undefined, view, manager);
    const managed = view.metadata?.managedFields;
    if (managed) obj.metadata.managedFields = managed;
    else delete obj.metadata.managedFields;
  };
}
