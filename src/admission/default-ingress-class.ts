// DefaultIngressClass: a new Ingress that names no class (neither spec.ingressClassName nor the legacy
// `platform.io/ingress.class` annotation) gets the IngressClass annotated
// `ingressclass.platform.io/is-default-class: "true"`; with several such classes, the newest one.
import type { AdmissionPlugin } from './chain.ts';
import type { ResourceStore } from '../registry/store.ts';
import type { Storage } from '../storage/interface.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { syncToStorage } from '../registry/list.ts';
import { GROUP, DEFAULT_CLASS_ANNOTATION } from '../apis/networking/ingressclass.ts';
import { LEGACY_CLASS_ANNOTATION } from '../apis/networking/ingress.ts';

/** The default class among these IngressClasses: the newest of those annotated as default. */
export function defaultIngressClass(classes: ApiObject[]): ApiObject | undefined {
  let best: ApiObject | undefined;
  let bestTime = -Infinity;
  for (const c of classes) {
    if (c.metadata.annotations?.[DEFAULT_CLASS_ANNOTATION] !== 'true') continue;
    const t = Date.parse(c.metadata.creationTimestamp ?? '') || 0;
    // Created in the same second: the name decides, so the answer does not depend on listing order.
    if (!best || t > bestTime || (t === bestTime && (c.metadata.name ?? '') > (best.metadata.name ?? ''))) {
      best = c;
      bestTime = t;
    }
  }
  return best;
}

/** `ingressClasses` is the IngressClass store, read up to date with `storage` before each decision. */
export function defaultIngressClassPlugin(ingressClasses: () => ResourceStore | undefined, storage: Storage): AdmissionPlugin {
  const choose = async (store: ResourceStore, spec: { ingressClassName?: string | null }): Promise<void> => {
    await syncToStorage(store, storage);
    const chosen = defaultIngressClass(store.cache.list(store.listPrefix('')).map((c) => c.object as ApiObject));
    if (chosen?.metadata.name) spec.ingressClassName = chosen.metadata.name;
  };
  return {
    name: 'DefaultIngressClass',
    // Anything but a new Ingress without a class answers at once (no promise).
    admit(attrs) {
      const { served, operation, object } = attrs;
      if (operation !== 'CREATE' || served.def.group !== GROUP || served.def.plural !== 'ingresses' || !object) return;
      const spec = (object.spec ??= {}) as { ingressClassName?: string | null };
      if (spec.ingressClassName !== undefined && spec.ingressClassName !== null) return;
      if (object.metadata.annotations && Object.hasOwn(object.metadata.annotations, LEGACY_CLASS_ANNOTATION)) return;
      const store = ingressClasses();
      if (!store) return;
      return choose(store, spec);
    },
  };
}
