// The audit annotations the webhook dispatchers add about each call, as Kubernetes names them: for every
// mutating webhook called, `mutation.webhook.admission.svc.io/round_<r>_index_<i>` ({"configuration",
// "webhook","mutated"}); for a patch applied, `patch.webhook.admission.svc.io/round_<r>_index_<i>` (recorded at
// Request level: the patch may carry the object's data); for a call that failed under failurePolicy Ignore,
// `failed-open.mutation.webhook...` or `failed-open.validating.webhook...` with the webhook's name.
import type { AdmissionAttributes } from './chain.ts';
import { addAnnotation } from './audit-annotations.ts';

export const MUTATION_ANNOTATION_PREFIX = 'mutation.webhook.admission.svc.io/';
export const PATCH_ANNOTATION_PREFIX = 'patch.webhook.admission.svc.io/';
export const VALIDATING_ANNOTATION_PREFIX = 'validating.webhook.admission.svc.io/';

const suffix = (round: number, index: number) => `round_${round}_index_${index}`;

/** Go's encoding/json escapes these inside strings (HTML safety and JavaScript line terminators). */
function goJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A JSON patch as Go marshals jsonpatch.Patch: each operation a map, so its keys sorted. */
function patchJson(operations: readonly unknown[]): unknown[] {
  return operations.map((op) => {
    if (op === null || typeof op !== 'object') return op;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(op).sort()) sorted[k] = (op as Record<string, unknown>)[k];
    return sorted;
  });
}

/** Records that a webhook's call failed and its failurePolicy Ignore let the request go on. */
export function addFailedOpenAnnotation(attrs: AdmissionAttributes, kind: 'mutation' | 'validating', round: number, index: number, webhook: string): void {
  const prefix = kind === 'mutation' ? MUTATION_ANNOTATION_PREFIX : VALIDATING_ANNOTATION_PREFIX;
  addAnnotation(attrs, `failed-open.${prefix}${suffix(round, index)}`, webhook);
}

/** The annotations of one mutating webhook call (`index` is the webhook's place among all mutating webhooks). */
export class MutationAnnotator {
  private readonly attrs: AdmissionAttributes;
  private readonly round: number;
  private readonly index: number;
  private readonly configuration: string;
  private readonly webhook: string;

  constructor(attrs: AdmissionAttributes, round: number, index: number, hook: { name: string; configurationName: string }) {
    this.attrs = attrs;
    this.round = round;
    this.index = index;
    this.configuration = hook.configurationName;
    this.webhook = hook.name;
  }

  called(mutated: boolean): void {
    const value = goJson({ configuration: this.configuration, webhook: this.webhook, mutated });
    addAnnotation(this.attrs, MUTATION_ANNOTATION_PREFIX + suffix(this.round, this.index), value);
  }

  patched(operations: readonly unknown[]): void {
    const value = goJson({ configuration: this.configuration, webhook: this.webhook, patch: patchJson(operations), patchType: 'JSONPatch' });
    addAnnotation(this.attrs, PATCH_ANNOTATION_PREFIX + suffix(this.round, this.index), value, 'Request');
  }

  failedOpen(): void {
    addFailedOpenAnnotation(this.attrs, 'mutation', this.round, this.index, this.webhook);
  }
}
