// The field manager's view of a kind and an endpoint: the storage schema, and the fields the endpoint
// resets (which nobody owns through it): the main resource resets the status fields; /status and its
// variants reset everything but the status fields, labels and annotations.
import type { TSchema } from '@sinclair/typebox';
import { apiVersionOf, type KindDefinition } from '../../apis/kind.ts';
import { allKinds } from '../../apis/index.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';
import { asSchema, deref, EMPTY_SCOPE } from '../schema/schema-kind.ts';
import { recordUpdate, type FieldManagerScope } from './field-manager.ts';
import { deepClone } from '../schema/walk.ts';
import { FieldSet } from './fieldset.ts';
import { fieldElement } from './path.ts';
import { rootType, type TypeRef } from './schema-view.ts';
import { VersionConverter, type VersionForm } from './versions.ts';

/** The schema objects are stored in (a kind may be stored in another group's form). */
export function storageSchemaOf(def: KindDefinition): TSchema {
  const storedAs = (def as { storedAs?: { schema: TSchema } }).storedAs;
  if (storedAs) return storedAs.schema;
  const v = def.versions.find((x) => x.name === def.storageVersion) ?? def.versions[0];
  return v.schema;
}

const resets = new WeakMap<KindDefinition, Map<string, FieldSet | undefined>>();

const types = new WeakMap<TSchema, TypeRef>();

/** The field manager's type of objects of `schema`, made once per schema (its atoms are cached by it). */
function typeOfSchema(schema: TSchema): TypeRef {
  let t = types.get(schema);
  if (!t) { t = rootType(schema); types.set(schema, t); }
  return t;
}

function typeOf(def: KindDefinition): TypeRef {
  return typeOfSchema(storageSchemaOf(def));
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

const converters = new WeakMap<KindDefinition, VersionConverter | null>();

/** The apiVersion `def`'s objects are stored in (another group's for a kind stored in its form). */
function storageApiVersionOf(def: KindDefinition): string {
  return def.storedAs ? apiVersionOf(def.storedAs.group, def.storedAs.version) : apiVersionOf(def.group, def.storageVersion);
}

/**
 * The versions `def`'s objects are read in, when some has another shape than the stored one: its own
 * versions, and those of kinds stored in its form (events.svc.io Events are core v1 Events). Undefined
 * when every version reads the stored form as it is.
 */
export function versionConverterOf(def: KindDefinition): VersionConverter | undefined {
  let c = converters.get(def);
  if (c !== undefined) return c ?? undefined;
  const storage = storageApiVersionOf(def);
  const kinds = [def, ...allKinds().filter((d) => d !== def && d.kind === def.kind && storageApiVersionOf(d) === storage)];
  const forms = new Map<string, VersionForm>();
  let shapes = false;
  for (const d of kinds) {
    for (const v of d.versions) {
      const apiVersion = apiVersionOf(d.group, v.name);
      if (forms.has(apiVersion)) continue;
      if (v.fromStorage && v.toStorage) {
        shapes = true;
        forms.set(apiVersion, { type: typeOfSchema(v.schema), toStorage: v.toStorage, fromStorage: v.fromStorage });
      } else {
        forms.set(apiVersion, { type: typeOf(d) });
      }
    }
  }
  if (!forms.has(storage)) forms.set(storage, { type: typeOf(def) });
  c = shapes ? new VersionConverter(forms) : null;
  converters.set(def, c);
  return c ?? undefined;
}

/** The scope of a write to `def` through `subresource`, addressed at `version` of the kind's group, on the stored form. */
export function fieldManagerScope(def: KindDefinition, version: string, subresource: string): FieldManagerScope {
  return {
    type: typeOf(def),
    apiVersion: def.group ? `${def.group}/${version}` : version,
    kind: def.kind,
    subresource,
    resetFields: resetFieldsOf(def, subresource),
    versions: versionConverterOf(def),
  };
}

/** A write in a version read in another shape than the stored one: its scope, and the conversions. */
export interface ConvertedScope {
  scope: FieldManagerScope;
  fromStorage(obj: ApiObject): ApiObject;
  toStorage(obj: ApiObject): ApiObject;
}

/**
 * The scope of a write through `version` when that version has its own shape (autoscaling/v1 HPAs,
 * events.svc.io Events): Kubernetes' field manager works on the object read in the request's version.
 * Undefined when the version reads the stored form as it is.
 */
export function convertedScope(def: KindDefinition, version: string, subresource: string): ConvertedScope | undefined {
  const v = def.versions.find((x) => x.name === version);
  if (!v?.fromStorage || !v.toStorage) return undefined;
  const scope = { ...fieldManagerScope(def, version, subresource), type: typeOfSchema(v.schema) };
  const from = v.fromStorage, to = v.toStorage;
  return {
    scope,
    fromStorage: (obj) => from(deepClone(obj) as ApiObject),
    toStorage: (obj) => to(deepClone(obj) as ApiObject),
  };
}

/**
 * The store hook that records a create, update or non-apply patch by `manager`. Kubernetes compares the
 * objects in the request's version, so a version stored in another form (autoscaling/v1 HPAs, events.svc.io
 * Events) records the fields of its own shape (targetCPUUtilizationPercentage, not metrics).
 */
export function updateTracker(def: KindDefinition, version: string, subresource: string, manager: string): (obj: ApiObject, old: ApiObject | undefined) => void {
  const converted = convertedScope(def, version, subresource);
  if (!converted) {
    const scope = fieldManagerScope(def, version, subresource);
    return (obj, old) => recordUpdate(scope, old, obj, manager);
  }
  return (obj, old) => {
    const view = converted.fromStorage(obj);
    recordUpdate(converted.scope, old ? converted.fromStorage(old) : undefined, view, manager);
    const managed = view.metadata?.managedFields;
    if (managed) obj.metadata.managedFields = managed;
    else delete obj.metadata.managedFields;
  };
}
