// DefaultTolerationSeconds (on by default in Kubernetes): a pod, on create and update, that does not already
// tolerate the NoExecute taints `node.platform.io/not-ready` and `node.platform.io/unreachable` gets a
// toleration of each for 300 seconds. A toleration with no key tolerates every key, and one with no
// effect every effect, so either counts.
import type { AdmissionPlugin } from './chain.ts';

const NOT_READY_TAINT = 'node.platform.io/not-ready';
const UNREACHABLE_TAINT = 'node.platform.io/unreachable';
/** Kubernetes' --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds. */
const DEFAULT_TOLERATION_SECONDS = 300;

interface Toleration { key?: string; operator?: string; effect?: string; tolerationSeconds?: number }

/** Whether a toleration covers the NoExecute taint with this key. */
function toleratesNoExecute(t: Toleration, key: string): boolean {
  return (!t.key || t.key === key) && (!t.effect || t.effect === 'NoExecute');
}

/** Adds the default tolerations a pod spec lacks, in Kubernetes' order (not-ready, then unreachable). */
export function addDefaultTolerations(spec: { tolerations?: Toleration[] | null }): void {
  const existing = spec.tolerations ?? [];
  const missing = [NOT_READY_TAINT, UNREACHABLE_TAINT].filter((key) => !existing.some((t) => toleratesNoExecute(t, key)));
  if (missing.length === 0) return;
  spec.tolerations = [...existing, ...missing.map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS }))];
}

export function defaultTolerationSeconds(): AdmissionPlugin {
  return {
    name: 'DefaultTolerationSeconds',
    admit(attrs) {
      const { served, operation, object } = attrs;
      if ((operation !== 'CREATE' && operation !== 'UPDATE') || served.def.group !== '' || served.def.plural !== 'pods') return;
      if (attrs.ctx.subresource || !object) return;
      addDefaultTolerations((object.spec ??= {}) as { tolerations?: Toleration[] | null });
    },
  };
}
