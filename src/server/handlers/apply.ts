// Server-side apply (PATCH with application/apply-patch+yaml): the body is the caller's whole intent for the
// fields it manages. It is checked (type, no managedFields), decoded like a create body (fieldValidation),
// merged onto the live object by the field manager (which creates the object when absent), then admitted,
// defaulted, validated and stored like any write.
import type { RequestContext, ViewSubresource } from '../../apis/kind.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';
import * as status from '../../machinery/status.ts';
import { applyObject, checkApplyBody, type ApplyOptions } from '../../machinery/apply/field-manager.ts';
import { convertedScope, fieldManagerScope, writesStatusOnly, type ConvertedScope } from '../../machinery/apply/kind-scope.ts';
import { checkDuplicateKeys, type ApplyBody } from '../../machinery/apply/apply-body.ts';
import { decodeValue } from '../../registry/decode-body.ts';
import { deepClone, deepEqual } from '../../machinery/schema/walk.ts';
import type { ServedResource } from '../apis.ts';
import { apiVersionFromAlias } from '../group-alias.ts';
import type { Representation } from '../negotiate.ts';
import type { QueryParams } from '../params.ts';
import { sendJsonText, sendObject, warningHeader, type Response } from '../respond.ts';
import { checkName, encodeFor, validateWrite, viewAnswer, type ResourceHandlerDeps } from './resources.ts';
import { writeOptions } from '../../admission/operation-options.ts';
import { parentEntriesFromScale, scaleEntriesFromParent, scaleScope } from '../../machinery/apply/scale.ts';

export async function serverSideApply(
  deps: ResourceHandlerDeps, served: ServedResource, res: Response, namespace: string, name: string,
  params: QueryParams, ctx: RequestContext, rep: Representation, body: ApplyBody,
): Promise<void> {
  const { def } = served;
  const sub = ctx.subresource;
  const statusOnly = writesStatusOnly(def, sub);
  if (sub && !statusOnly) {
    const view = def.views?.find((v) => v.name === sub);
    if (view?.name === 'scale' && view.get && view.update) return applyToScale(deps, served, res, namespace, name, params, ctx, rep, body, view);
    // Other views (approval and the like) take the other patch types only.
    throw status.unsupportedMediaType('', ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
  }
  // A version of another shape than the stored one (autoscaling/v1 HPAs, events.svc.io Events) is merged
  // and recorded as the request reads it, as Kubernetes' field manager does, then stored converted.
  const converted = convertedScope(def, served.version.name, sub);
  const scope = converted?.scope ?? fieldManagerScope(def, served.version.name, sub);
  // Typed clients name the group by Kubernetes' name: the configuration is read in the served one.
  if (typeof body.value.apiVersion === 'string') body.value.apiVersion = apiVersionFromAlias(body.value.apiVersion, def.group);
  checkApplyBody(scope, body.value);
  const decoded = decodeValue({ value: deepClone(body.value), duplicates: [] }, def, served.version, params.fieldValidation, JSON.stringify(body.value), !converted);
  ctx.warnings.push(...decoded.warnings);
  const config = decoded.object;
  const manager = params.fieldManager ?? '';
  const force = params.force === true;
  const result = await served.store.update(namespace, async (current) => {
    const obj = converted
      ? applyConverted(converted, current, deepClone(config), { manager, force, rawConfig: body.value })
      : applyObject(scope, current, deepClone(config), { manager, force, rawConfig: body.value });
    checkDuplicateKeys(body, params.fieldValidation, ctx.warnings);
    if (!current && obj.metadata.uid) {
      throw status.conflict(served.store.gr, name, `uid mismatch: the provided object specified uid ${obj.metadata.uid}, and no existing object was found`);
    }
    checkName(obj, name, namespace);
    await deps.admission.admit({ operation: current ? 'UPDATE' : 'CREATE', served, namespace, name, object: obj, oldObject: current, ctx, options: writeOptions(current ? 'UpdateOptions' : 'CreateOptions', params) });
    return obj;
  }, {
    ctx, dryRun: params.dryRun, subresource: statusOnly ? sub : '', allowCreate: !statusOnly, name,
    validateAdmission: validateWrite(deps, served, namespace, name, ctx, params),
  });
  const enc = encodeFor(served, result);
  sendJsonText(res, result.created ? 201 : 200, rep, enc.json, warningHeader(ctx.warnings));
}

/**
 * Applies `config` (in the request's version) onto the stored `current`, read in that version; answers the
 * object to store. An apply that changes nothing but the managers keeps the stored object as it is (a
 * round trip through the request's version need not give back the same stored form).
 */
function applyConverted(converted: ConvertedScope, current: ApiObject | undefined, config: ApiObject, opts: ApplyOptions): ApiObject {
  const live = current ? converted.fromStorage(current) : undefined;
  const obj = applyObject(converted.scope, live, config, opts);
  if (live && current && sameButManagers(live, obj)) {
    const kept = deepClone(current);
    if (obj.metadata.managedFields) kept.metadata.managedFields = obj.metadata.managedFields;
    else delete kept.metadata.managedFields;
    return kept;
  }
  return converted.toStorage(obj);
}

function sameButManagers(a: ApiObject, b: ApiObject): boolean {
  const strip = (o: ApiObject) => ({ ...o, metadata: { ...o.metadata, managedFields: undefined } });
  return deepEqual(strip(a), strip(b));
}

/** Apply to a workload's Scale: ownership of spec.replicas moves between the parent's and the Scale's managers. */
async function applyToScale(
  deps: ResourceHandlerDeps, served: ServedResource, res: Response, namespace: string, name: string,
  params: QueryParams, ctx: RequestContext, rep: Representation, body: ApplyBody, view: ViewSubresource,
): Promise<void> {
  checkApplyBody(scaleScope, body.value);
  const parentApiVersion = fieldManagerScope(served.def, served.version.name, '').apiVersion;
  const config = deepClone(body.value) as ApiObject;
  const manager = params.fieldManager ?? '';
  const force = params.force === true;
  const result = await served.store.update(namespace, async (current) => {
    if (!current) throw status.notFound(served.store.gr, name);
    const live = view.get!(current);
    const liveEntries = scaleEntriesFromParent(current.metadata.managedFields, parentApiVersion);
    if (liveEntries) live.metadata.managedFields = liveEntries;
    const applied = applyObject(scaleScope, live, config, { manager, force, rawConfig: body.value });
    checkDuplicateKeys(body, params.fieldValidation, ctx.warnings);
    const next = view.update!(current, applied);
    const entries = parentEntriesFromScale(current.metadata.managedFields, applied.metadata.managedFields, parentApiVersion);
    if (entries) next.metadata.managedFields = entries; else delete next.metadata.managedFields;
    await deps.admission.admit({ operation: 'UPDATE', served, namespace, name, object: next, oldObject: current, ctx, options: writeOptions('UpdateOptions', params) });
    return next;
  }, {
    ctx, dryRun: params.dryRun, subresource: '', allowCreate: false, name, transformKeepsCurrent: false,
    validateAdmission: validateWrite(deps, served, namespace, name, ctx, params),
  });
  const scale = view.get!(result.object as ApiObject);
  sendObject(res, 200, rep, viewAnswer(served, scale), warningHeader(ctx.warnings));
}
