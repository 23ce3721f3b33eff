// Kubernetes' own names of the renamed groups. Unmodified kubectl and client-go hard-code them
// (`kubectl create role` posts to rbac.authorization.k8s.io, `kubectl create token` sends an
// authentication.k8s.io TokenRequest), so the server reads `<x>.k8s.io` as `<x>.svc.io` wherever it is
// not a group of its own, and writes its answers in the name the client used. Discovery lists only the
// renamed groups (a Kubernetes name asked for directly is answered, see discovery.ts).
import * as status from '../machinery/status.ts';
import { splitApiVersion } from '../machinery/group-version.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

const KUBERNETES_SUFFIX = '.k8s.io';
const RENAMED_SUFFIX = '.svc.io';

/** `rbac.authorization.k8s.io` → `rbac.authorization.svc.io`; undefined for a name that is not Kubernetes'. */
export function renamedGroupOf(group: string): string | undefined {
  return group.endsWith(KUBERNETES_SUFFIX) ? group.slice(0, -KUBERNETES_SUFFIX.length) + RENAMED_SUFFIX : undefined;
}

/** `rbac.authorization.svc.io` → `rbac.authorization.k8s.io`; undefined for a group that was not renamed. */
export function kubernetesGroupOf(group: string): string | undefined {
  return group.endsWith(RENAMED_SUFFIX) ? group.slice(0, -RENAMED_SUFFIX.length) + KUBERNETES_SUFFIX : undefined;
}

/**
 * An apiVersion in Kubernetes' name of `group` read as `group` itself (`rbac.authorization.k8s.io/v1` →
 * `rbac.authorization.svc.io/v1` when `group` is `rbac.authorization.svc.io`); any other is left as it is.
 */
export function apiVersionFromAlias(apiVersion: string, group: string): string {
  const gv = splitApiVersion(apiVersion);
  return gv.group && gv.group !== group && renamedGroupOf(gv.group) === group ? `${group}/${gv.version}` : apiVersion;
}

/**
 * How an answer names the group a client addressed by another name: the served (renamed) group `served`
 * and the group the client asked for `client`. Only apiVersion fields of the answered objects are
 * rewritten (top level, list items, watch event objects), never data inside an object.
 */
export class GroupAlias {
  readonly served: string;
  readonly client: string;

  constructor(served: string, client: string) {
    this.served = served;
    this.client = client;
  }

  apiVersion(apiVersion: string): string {
    const gv = splitApiVersion(apiVersion);
    return gv.group === this.served ? `${this.client}/${gv.version}` : apiVersion;
  }

  /**
   * A shallow copy of `obj` with its apiVersion in the client's group (the same object when it is in another
   * group), and with the fields that name the group itself in the client's name when its kind says which
   * (`references`, a kind's groupReferencesIn).
   */
  object<T>(obj: T, references?: (obj: ApiObject, served: string, client: string) => ApiObject): T {
    const o = obj as Record<string, unknown> | null;
    if (o === null || typeof o !== 'object' || typeof o.apiVersion !== 'string') return obj;
    const apiVersion = this.apiVersion(o.apiVersion);
    if (apiVersion === o.apiVersion) return obj;
    const out = { ...o, apiVersion } as unknown as ApiObject;
    return (references ? references(out, this.served, this.client) : out) as T;
  }

  /**
   * A Status in the client's group, as Kubernetes writes it from the resource the client addressed:
   * `details.group`, and the qualified name at the head of the message (`roles.rbac.authorization.k8s.io "r" not found`).
   */
  error<T>(err: T): T {
    if (!(err instanceof status.StatusError) || err.details?.group !== this.served) return err;
    const resource = err.details.kind ? `${err.details.kind}.` : '';
    const message = err.message.replace(`${resource}${this.served}`, `${resource}${this.client}`);
    const aliased = new status.StatusError(err.code, err.reason, message, { ...err.details, group: this.client });
    aliased.stack = err.stack;
    return aliased as T;
  }
}

/**
 * Serves a request whose path may name the group by Kubernetes' name: `serve` gets the alias to answer in
 * (none when the client used the served name), and what it throws comes back in the client's group.
 */
export async function inClientGroup<T>(info: { apiGroup: string; clientGroup: string }, serve: (alias: GroupAlias | undefined) => Promise<T>): Promise<T> {
  if (info.clientGroup === info.apiGroup) return serve(undefined);
  const alias = new GroupAlias(info.apiGroup, info.clientGroup);
  try {
    return await serve(alias);
  } catch (err) {
    throw alias.error(err);
  }
}
