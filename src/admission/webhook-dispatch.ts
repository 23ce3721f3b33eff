// Calling the webhooks of one admission request, as Kubernetes' mutating and validating dispatchers do.
// Mutating webhooks run one after another (configurations by name, then webhook order); each may answer a
// JSON patch of the object in the version it asked for, which is converted back and becomes the object the
// next one sees. When a webhook changes the object, the earlier ones with reinvocationPolicy IfNeeded are
// called once more afterwards. Validating webhooks are called together, on the final object; the first
// denial or failure (in webhook order) is the request's error.
import { randomUUID } from 'node:crypto';
import type { ApiObject } from '../apis/meta/v1.ts';
import { apiVersionOf, type KindDefinition, type ViewSubresource } from '../apis/kind.ts';
import type { Attributes, Decision } from '../auth/authz/types.ts';
import { userInfoJson } from '../auth/user.ts';
import * as status from '../machinery/status.ts';
import { applyDefaults } from '../machinery/schema/defaults.ts';
import { decodeObject } from '../machinery/schema/decode.ts';
import { deepClone, deepEqual } from '../machinery/schema/walk.ts';
import { applyJsonPatch, decodeJsonPatch } from '../machinery/patch/json-patch.ts';
import type { ServedResource } from '../server/apis.ts';
import type { AdmissionAttributes } from './chain.ts';
import { addAnnotation } from './audit-annotations.ts';
import { addFailedOpenAnnotation, MutationAnnotator } from './webhook-annotations.ts';
import { decodeReviewResponse, reviewRequestBody, reviewVersionFor, verifyReviewResponse, type AdmissionAnswer, type AdmissionRequest } from './admission-review.ts';
import type { CompiledWebhook } from './webhook-configurations.ts';
import { AuthorizationChecks, celAuthorizer, evaluateMatchConditions } from './webhook-conditions.ts';
import { WebhookClientError, type WebhookClient } from './webhook-client.ts';
import { denied, dryRunUnsupported, failedClosed, WebhookCallError } from './webhook-errors.ts';
import { goQuote as quote } from '../machinery/go-format.ts';
import { matchingResource, type Equivalents } from './webhook-rules.ts';
import { namespaceSelectorMatches, objectSelectorMatches, type NamespaceLookup } from './webhook-selectors.ts';

export interface DispatchDeps {
  equivalents: Equivalents;
  client: WebhookClient;
  namespaces: NamespaceLookup;
  authorize(attrs: Attributes): Promise<Decision>;
}

const SIDE_EFFECT_FREE = ['None', 'NoneOnDryRun'];

function viewOf(def: KindDefinition, subresource: string): ViewSubresource | undefined {
  return subresource ? def.views?.find((v) => v.name === subresource) : undefined;
}

function storageSchemaOf(def: KindDefinition) {
  return def.storedAs?.schema ?? def.versions.find((v) => v.name === def.storageVersion)!.schema;
}

/** Replaces `target`'s contents with `source`'s (the handlers hold `target`). */
function replaceContents(target: ApiObject, source: ApiObject): void {
  for (const k of Object.keys(target)) if (!(k in source)) delete target[k];
  Object.assign(target, source);
}

interface Versioned { object: ApiObject | null; oldObject: ApiObject | null }

/** One admission request as webhooks see it: its objects in each version asked for, and the review fields. */
export class WebhookRequest {
  readonly attrs: AdmissionAttributes;
  readonly deps: DispatchDeps;
  /** Objects are not final yet (mutating webhooks): they are shown defaulted, as Kubernetes decodes them. */
  private readonly mutating: boolean;
  readonly namespaceObject: boolean;
  /** The request's namespace: a Namespace's own name when the request is for one. */
  readonly namespace: string;
  private readonly versions = new Map<ServedResource, Versioned>();
  private checks: AuthorizationChecks | undefined;

  constructor(attrs: AdmissionAttributes, deps: DispatchDeps, mutating: boolean) {
    this.attrs = attrs;
    this.deps = deps;
    this.mutating = mutating;
    const def = attrs.served.def;
    this.namespaceObject = def.group === '' && def.plural === 'namespaces';
    this.namespace = this.namespaceObject ? attrs.name || (attrs.object?.metadata?.name ?? '') : attrs.namespace;
  }

  get subresource(): string {
    return this.attrs.ctx.subresource;
  }

  /** The objects in `inv`'s version (or as its view, for a view sub-resource such as scale). */
  versioned(inv: ServedResource): Versioned {
    let v = this.versions.get(inv);
    if (!v) {
      v = { object: this.convert(this.attrs.object, inv, this.mutating), oldObject: this.convert(this.attrs.oldObject, inv, false) };
      this.versions.set(inv, v);
    }
    return v;
  }

  private convert(obj: ApiObject | undefined, inv: ServedResource, defaulted: boolean): ApiObject | null {
    if (!obj) return null;
    const view = viewOf(inv.def, this.subresource);
    // A sub-resource's create (an eviction) carries the view's own kind; a view of a stored object is read from it.
    if (view) return view.create ? deepClone(obj) as ApiObject : view.get ? deepClone(view.get(obj)) as ApiObject : null;
    const def = this.attrs.served.def;
    let copy = deepClone(obj) as ApiObject;
    if (copy.metadata === null || typeof copy.metadata !== 'object') copy.metadata = {};
    // Go's ObjectMeta always encodes its creation time: an object not yet stored shows it as null.
    if (copy.metadata.creationTimestamp === undefined) (copy.metadata as Record<string, unknown>).creationTimestamp = null;
    // The namespace is the request's before admission, as Kubernetes sets it (1.24+).
    if (def.namespaced && this.attrs.namespace && this.attrs.operation === 'CREATE') copy.metadata.namespace = this.attrs.namespace;
    if (defaulted) {
      applyDefaults(copy, storageSchemaOf(def));
      def.defaults?.(copy);
    }
    if (inv.version.fromStorage) copy = inv.version.fromStorage(copy);
    copy.apiVersion = apiVersionOf(inv.def.group, inv.version.name);
    copy.kind = inv.def.kind;
    return copy;
  }

  /** Takes a webhook's patched object (in `inv`'s version) as the request's object. */
  replaceObject(inv: ServedResource, patched: ApiObject): void {
    const target = this.attrs.object!;
    const view = viewOf(inv.def, this.subresource);
    let next: ApiObject;
    if (view) {
      next = view.create ? deepClone(patched) as ApiObject : view.update!(deepClone(target) as ApiObject, deepClone(patched) as ApiObject);
    } else {
      const copy = deepClone(patched) as ApiObject;
      next = inv.version.toStorage ? inv.version.toStorage(copy) : copy;
      next.apiVersion = target.apiVersion;
      next.kind = target.kind;
    }
    replaceContents(target, next);
    const oldObject = this.versions.get(inv)?.oldObject ?? null;
    this.versions.clear();
    this.versions.set(inv, { object: patched, oldObject });
  }

  private kindOf(inv: ServedResource): AdmissionRequest['kind'] {
    const view = viewOf(inv.def, this.subresource);
    return view ? { group: view.group, version: view.version, kind: view.kind } : { group: inv.def.group, version: inv.version.name, kind: inv.def.kind };
  }

  /** The AdmissionRequest for a webhook called for `inv`, without objects (match conditions see this). */
  request(inv: ServedResource, uid = ''): AdmissionRequest {
    const a = this.attrs;
    const served = a.served;
    const sub = this.subresource;
    // Go's omitempty, in the field order of the JSON Kubernetes writes.
    return {
      uid, kind: this.kindOf(inv), resource: { group: inv.def.group, version: inv.version.name, resource: inv.def.plural }, ...(sub ? { subResource: sub } : {}),
      requestKind: this.kindOf(served), requestResource: { group: served.def.group, version: served.version.name, resource: served.def.plural },
      ...(sub ? { requestSubResource: sub } : {}), ...(a.name ? { name: a.name } : {}), ...(this.namespace ? { namespace: this.namespace } : {}),
      operation: a.operation, userInfo: userInfoJson(a.ctx.user), object: null, oldObject: null, dryRun: a.ctx.dryRun, options: a.options ?? null,
    };
  }

  /** Variables of the webhook's match conditions. */
  conditionVariables(inv: ServedResource): Record<string, unknown> {
    const v = this.versioned(inv);
    const served = this.attrs.served;
    this.checks ??= new AuthorizationChecks(this.deps.authorize);
    // Kubernetes' matcher builds it from the request's resource but the invoked kind.
    const request = { ...this.request(served), kind: this.kindOf(inv) };
    return {
      object: v.object, oldObject: v.oldObject, request,
      authorizer: celAuthorizer(this.attrs.ctx.user, this.checks, {
        group: served.def.group, resource: served.def.plural, subresource: this.subresource, namespace: this.namespace, name: this.attrs.name,
      }),
    };
  }

  /** A webhook's auditAnnotations, as `<webhook name>/<key>`; a key of the wrong format is dropped (Kubernetes
   *  logs it), and one already set keeps its first value. */
  addWebhookAnnotations(webhookName: string, annotations: Record<string, string>): void {
    for (const [k, v] of Object.entries(annotations)) addAnnotation(this.attrs, `${webhookName}/${k}`, v);
  }

  addWarnings(warnings: string[]): void {
    const out = this.attrs.ctx.warnings;
    for (const w of warnings) if (w && !out.includes(w)) out.push(w);
  }
}

/** The resource the webhook is to be called for, or undefined when it does not apply (Kubernetes' ShouldCallHook). */
async function shouldCall(hook: CompiledWebhook, req: WebhookRequest): Promise<ServedResource | undefined> {
  const a = req.attrs;
  const inv = matchingResource(hook.rules, hook.matchPolicy, a.operation, a.served, req.subresource, req.deps.equivalents);
  if (!inv) return undefined;
  const v = req.versioned(inv);
  const selectorRequest = { namespaceObject: req.namespaceObject, operation: a.operation, subresource: req.subresource, namespace: req.namespace, object: v.object };
  if (!await namespaceSelectorMatches(hook.namespaceSelector, selectorRequest, req.deps.namespaces)) return undefined;
  if (!objectSelectorMatches(hook.objectSelector, v.object, v.oldObject)) return undefined;
  if (hook.matchConditions.length) {
    const outcome = await evaluateMatchConditions(hook, req.conditionVariables(inv));
    if ('error' in outcome) {
      if (hook.failurePolicy === 'Ignore') return undefined;
      throw status.forbidden(a.served.store.gr, a.name, outcome.error);
    }
    if (!outcome.matches) return undefined;
  }
  return inv;
}

/** Calls one webhook and answers its checked answer; throws WebhookCallError, a denial, or the dry-run refusal. */
async function callWebhook(hook: CompiledWebhook, inv: ServedResource, req: WebhookRequest, mutating: boolean): Promise<AdmissionAnswer> {
  if (req.attrs.ctx.dryRun) {
    if (!hook.sideEffects) throw new WebhookCallError(hook.name, 'Webhook SideEffects is nil');
    if (!SIDE_EFFECT_FREE.includes(hook.sideEffects)) throw dryRunUnsupported(hook.name);
  }
  const version = reviewVersionFor(hook.admissionReviewVersions);
  if (!version) throw new WebhookCallError(hook.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
  const uid = randomUUID();
  const v = req.versioned(inv);
  const body = reviewRequestBody(version, { ...req.request(inv, uid), object: v.object, oldObject: v.oldObject });
  let raw: unknown;
  try {
    raw = await req.deps.client.post(hook.clientConfig, body, hook.timeoutSeconds);
  } catch (err) {
    if (err instanceof WebhookClientError) throw new WebhookCallError(hook.name, err.message);
    throw err;
  }
  let decoded;
  try {
    decoded = decodeReviewResponse(raw);
  } catch (err) {
    throw new WebhookCallError(hook.name, `failed to call webhook: ${(err as Error).message}`);
  }
  let answer: AdmissionAnswer;
  try {
    answer = verifyReviewResponse(version, uid, mutating, decoded);
  } catch (err) {
    throw new WebhookCallError(hook.name, `received invalid webhook response: ${(err as Error).message}`);
  }
  req.addWebhookAnnotations(hook.name, answer.auditAnnotations);
  req.addWarnings(answer.warnings);
  if (!answer.allowed) throw denied(hook.name, answer.result);
  return answer;
}

/** Applies a mutating webhook's patch; answers whether the object changed. */
function applyPatch(hook: CompiledWebhook, inv: ServedResource, req: WebhookRequest, answer: AdmissionAnswer, annotator: MutationAnnotator): boolean {
  if (!answer.patch) return false;
  let ops;
  try {
    ops = decodeJsonPatch(answer.patch, 'Ignore');
  } catch (err) {
    throw new WebhookCallError(hook.name, `received undecodable patch in webhook response: ${(err as Error).message}`);
  }
  if (!ops.operations.length) return false;
  const current = req.versioned(inv).object;
  if (!current || !req.attrs.object) {
    throw status.internalError(new Error(`admission webhook ${quote(hook.name)} attempted to modify the object, which is not supported for this operation`));
  }
  if (answer.patchType !== 'JSONPatch') throw new WebhookCallError(hook.name, `unsupported patch type ${quote(answer.patchType ?? '')}`);
  let patched: ApiObject;
  try {
    patched = applyJsonPatch(current, ops);
  } catch (err) {
    const cause = err instanceof status.StatusError ? err.details?.causes?.[0]?.message ?? err.message : (err as Error).message;
    throw status.internalError(new Error(cause));
  }
  if (!viewOf(inv.def, req.subresource)) {
    // Decoded into the kind, as Kubernetes decodes the patched JSON (unknown fields dropped), then defaulted.
    const decoded = decodeObject<ApiObject>(patched, inv.version.schema, { kind: inv.def.kind, apiVersion: apiVersionOf(inv.def.group, inv.version.name) });
    if (decoded.typeError) throw status.internalError(new Error(decoded.typeError));
    patched = decoded.object;
    if (patched.metadata === null || typeof patched.metadata !== 'object') patched.metadata = {};
    // Decoding drops a null creationTimestamp, which Go's ObjectMeta keeps (as the object was shown).
    if (patched.metadata.creationTimestamp === undefined) (patched.metadata as Record<string, unknown>).creationTimestamp = null;
  }
  const changed = !deepEqual(current, patched);
  annotator.patched(ops.operations);
  if (!viewOf(inv.def, req.subresource)) applyDefaults(patched, inv.version.schema);
  req.replaceObject(inv, patched);
  return changed;
}

/** Runs the mutating webhooks over the request's object (changed in place). */
export async function dispatchMutating(hooks: readonly CompiledWebhook[], attrs: AdmissionAttributes, deps: DispatchDeps): Promise<void> {
  const req = new WebhookRequest(attrs, deps, true);
  // Webhooks with reinvocationPolicy IfNeeded called since the object last changed, and those to call again.
  let previouslyInvoked = new Set<string>();
  const reinvoke = new Set<string>();
  for (let round = 0; round < 2; round++) {
    if (round === 1 && !reinvoke.size) return;
    for (const [index, hook] of hooks.entries()) {
      if (round === 1 && !reinvoke.has(hook.uid)) continue;
      const inv = await shouldCall(hook, req);
      if (!inv) continue;
      const annotator = new MutationAnnotator(attrs, round, index, hook);
      let changed = false;
      let error: unknown;
      try {
        changed = applyPatch(hook, inv, req, await callWebhook(hook, inv, req, true), annotator);
      } catch (err) {
        error = err;
      }
      // Every call is recorded, whatever its outcome.
      annotator.called(changed);
      if (changed) {
        for (const uid of previouslyInvoked) reinvoke.add(uid);
        previouslyInvoked = new Set();
      }
      if (hook.reinvocationPolicy === 'IfNeeded') previouslyInvoked.add(hook.uid);
      if (error === undefined) continue;
      if (error instanceof WebhookCallError) {
        if (hook.failurePolicy === 'Ignore') { annotator.failedOpen(); continue; }
        throw failedClosed(error);
      }
      throw error;
    }
  }
}

/** Calls the validating webhooks that apply, together; throws the first refusal in webhook order. */
export async function dispatchValidating(hooks: readonly CompiledWebhook[], attrs: AdmissionAttributes, deps: DispatchDeps): Promise<void> {
  const req = new WebhookRequest(attrs, deps, false);
  const calls: [CompiledWebhook, ServedResource][] = [];
  for (const hook of hooks) {
    const inv = await shouldCall(hook, req);
    if (inv) calls.push([hook, inv]);
  }
  if (!calls.length) return;
  const outcomes = await Promise.all(calls.map(async ([hook, inv], index) => {
    try {
      await callWebhook(hook, inv, req, false);
      return undefined;
    } catch (err) {
      if (!(err instanceof WebhookCallError)) return err;
      if (hook.failurePolicy !== 'Ignore') return failedClosed(err);
      // Numbered among the webhooks called, as Kubernetes numbers them.
      addFailedOpenAnnotation(attrs, 'validating', 0, index, hook.name);
      return undefined;
    }
  }));
  const first = outcomes.find((e) => e !== undefined);
  if (first !== undefined) throw first;
}
