// What both flow control kinds share: the group, the status condition type, and union markers.
import { S } from '../meta/schema.ts';
import { type FieldError, required, duplicate, index, child } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../meta/v1.ts';

export const GROUP = 'flowcontrol.apiserver.svc.io';

/** `schema` marked as a discriminated union, as Kubernetes publishes it (x-kubernetes-unions). */
export function withUnion<T extends object>(schema: T, discriminator: string, fields: Record<string, string>): T {
  const value = [{ discriminator, 'fields-to-discriminateBy': fields }];
  return { ...schema, 'x-platform-unions': value, 'x-kubernetes-unions': value };
}

export function conditionSchema(ref: string, description: string) {
  return S.object({
    type: S.string({ proto: 1, description: '`type` is the type of the condition. Required.' }),
    status: S.string({ proto: 2, description: '`status` is the status of the condition. Can be True, False, Unknown. Required.' }),
    lastTransitionTime: S.time({ proto: 3, description: '`lastTransitionTime` is the last time the condition transitioned from one status to another.' }),
    reason: S.string({ proto: 4, description: '`reason` is a unique, one-word, CamelCase reason for the condition\'s last transition.' }),
    message: S.string({ proto: 5, description: '`message` is a human-readable message indicating details about last transition.' }),
  }, { ref, description });
}

/** Status conditions: one per type, each with a type. */
export function statusConditionErrors(obj: ApiObject): FieldError[] {
  const conditions = (obj.status as { conditions?: { type?: string }[] } | undefined)?.conditions;
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (Array.isArray(conditions) ? conditions : []).forEach((c, i) => {
    const at = index('status.conditions', i);
    const type = c?.type ?? '';
    if (seen.has(type)) errs.push(duplicate(child(at, 'type'), type));
    seen.add(type);
    if (!type) errs.push(required(child(at, 'type'), 'must not be empty'));
  });
  return errs;
}
