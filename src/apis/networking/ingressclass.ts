// IngressClass (networking.svc.io/v1, cluster-scoped): a class of ingress and the controller that implements
// it. The controller is a domain-prefixed path of at most 250 characters and never changes; a parameters
// reference defaults to Cluster scope and names a namespace exactly when its scope is Namespace.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, required, forbidden, notSupported, tooLong, immutable, child } from '../../machinery/field-errors.ts';
import { isDomainPrefixedPath, isDNS1123Subdomain, isDNS1123Label, isValidPathSegmentName } from '../../machinery/validation/strings.ts';
import { withProto } from '../core/schema-helpers.ts';

export const GROUP = 'networking.svc.io';
/** An IngressClass with this annotation set to "true" is the class of new ingresses that name none. */
export const DEFAULT_CLASS_ANNOTATION = 'ingressclass.platform.io/is-default-class';
export const MAX_CONTROLLER_LENGTH = 250;
const SCOPES = ['Cluster', 'Namespace'];

const CONTROLLER_DESCRIPTION = 'controller refers to the name of the controller that should handle this class. This allows for different "flavors" that are controlled by the same controller. For example, you may have different parameters for the same implementing controller. This should be specified as a domain-prefixed path no more than 250 characters in length, e.g. "acme.io/ingress-controller". This field is immutable.';
const PARAMETERS_DESCRIPTION = 'parameters is a link to a custom resource containing additional configuration for the controller. This is optional if the controller does not require extra parameters.';

export const IngressClassSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    controller: S.string({ proto: 1, description: CONTROLLER_DESCRIPTION }),
    parameters: { ...S.object({
      apiGroup: S.string({ proto: 1, description: 'apiGroup is the group for the resource being referenced. If APIGroup is not specified, the specified Kind must be in the core API group. For any other third-party types, APIGroup is required.' }),
      kind: S.string({ proto: 2, description: 'kind is the type of resource being referenced.' }),
      name: S.string({ proto: 3, description: 'name is the name of resource being referenced.' }),
      scope: S.string({ proto: 4, description: 'scope represents if this refers to a cluster or namespace scoped resource. This may be set to "Cluster" (default) or "Namespace".' }),
      namespace: S.string({ proto: 5, description: 'namespace is the namespace of the resource being referenced. This field is required when scope is set to "Namespace" and must be unset when scope is set to "Cluster".' }),
    }, { proto: 2, required: ['kind', 'name'], ref: 'networking.v1.IngressClassParametersReference', description: 'IngressClassParametersReference identifies an API object. This can be used to specify a cluster or namespace-scoped resource.' }), description: PARAMETERS_DESCRIPTION },
  }, { proto: 2, ref: 'networking.v1.IngressClassSpec', description: 'IngressClassSpec provides information about the class of an Ingress.' }),
}, { ref: 'networking.v1.IngressClass', description: 'IngressClass represents the class of the Ingress, referenced by the Ingress Spec. The `ingressclass.platform.io/is-default-class` annotation can be used to indicate that an IngressClass should be considered default. When a single IngressClass resource has this annotation set to true, new Ingress resources without a class specified will be assigned this default class.' });

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const specOf = (o: ApiObject) => (o.spec ?? {}) as Obj;

/** validateIngressTypedLocalObjectReference: an optional DNS-subdomain group, and kind and name path segments. */
export function typedLocalObjectReferenceErrors(ref: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof ref.apiGroup === 'string') errs.push(...isDNS1123Subdomain(ref.apiGroup).map((m) => invalid(child(path, 'apiGroup'), ref.apiGroup, m)));
  for (const f of ['kind', 'name']) {
    const v = String(ref[f] ?? '');
    if (!v) errs.push(required(child(path, f), `${f} is required`));
    else errs.push(...isValidPathSegmentName(v).map((m) => invalid(child(path, f), v, m)));
  }
  return errs;
}

function parametersErrors(params: unknown, path: string): FieldError[] {
  if (!isObj(params)) return [];
  const errs = typedLocalObjectReferenceErrors(params, path);
  if (params.scope === undefined || params.scope === null) return [...errs, required(child(path, 'scope'))];
  if (!SCOPES.includes(params.scope)) return [...errs, notSupported(child(path, 'scope'), params.scope, SCOPES)];
  const hasNamespace = typeof params.namespace === 'string';
  if (params.scope === 'Namespace') {
    if (!hasNamespace) errs.push(required(child(path, 'namespace'), "`parameters.scope` is set to 'Namespace'"));
    else errs.push(...isDNS1123Label(params.namespace).map((m) => invalid(child(path, 'namespace'), params.namespace, m)));
  }
  if (params.scope === 'Cluster' && hasNamespace) errs.push(forbidden(child(path, 'namespace'), "`parameters.scope` is set to 'Cluster'"));
  return errs;
}

function specErrors(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const controller = String(spec.controller ?? '');
  const errs: FieldError[] = [];
  if (controller.length > MAX_CONTROLLER_LENGTH) errs.push(tooLong('spec.controller', controller, MAX_CONTROLLER_LENGTH));
  errs.push(...isDomainPrefixedPath('spec.controller', controller));
  errs.push(...parametersErrors(spec.parameters, 'spec.parameters'));
  return errs;
}

function parametersCell(obj: ApiObject): string {
  const p = specOf(obj).parameters;
  if (!isObj(p)) return '<none>';
  return `${p.kind ?? ''}${typeof p.apiGroup === 'string' ? `.${p.apiGroup}` : ''}/${p.name ?? ''}`;
}

export const ingressClassKind: KindDefinition = {
  group: GROUP,
  kind: 'IngressClass',
  plural: 'ingressclasses',
  singular: 'ingressclass',
  namespaced: false,
  versions: [{ name: 'v1', stability: 'stable', schema: IngressClassSchema }],
  storageVersion: 'v1',

  defaults(obj) {
    const spec = (obj.spec ??= {}) as Obj;
    if (isObj(spec.parameters)) spec.parameters.scope ??= 'Cluster';
  },
  validate: specErrors,
  validateUpdate(obj, old) {
    const controller = specOf(obj).controller ?? '';
    const errs = controller === (specOf(old).controller ?? '') ? [] : [immutable('spec.controller', controller)];
    return [...errs, ...specErrors(obj)];
  },

  tableColumns: [
    nameColumn,
    { name: 'Controller', type: 'string', description: 'Controller that is responsible for handling this class', cell: (o) => specOf(o).controller ?? '' },
    { name: 'Parameters', type: 'string', description: 'A reference to a resource with additional parameters', cell: parametersCell },
    ageColumn,
  ],
};
