// The versions an object of one kind can be read in, for managers recorded in another version than the
// request's. Kubernetes' field manager compares the old and new object in each manager's own version
// (structured-merge-diff's Updater converts both through the kind's hub), so a manager who set
// `targetCPUUtilizationPercentage` through autoscaling/v1 loses or conflicts on it when an autoscaling/v2
// write changes `metrics`, and the other way round.
import { deepClone } from '../schema/walk.ts';
import type { TypeRef } from './schema-view.ts';

/** How a kind is read in one of its versions, relative to its stored form. */
export interface VersionForm {
  type: TypeRef;
  /** This version's object in the stored form; absent when the version is stored as it is. */
  toStorage?(obj: any): any;
  /** The stored form read in this version; absent when the version is stored as it is. */
  fromStorage?(obj: any): any;
}

export class VersionConverter {
  readonly #forms: Map<string, VersionForm>;

  /** `forms` by apiVersion (`autoscaling/v1`, `v1`). */
  constructor(forms: Map<string, VersionForm>) {
    this.#forms = forms;
  }

  /** The object's type in `apiVersion`; undefined for a version the kind is not read in. */
  typeOf(apiVersion: string): TypeRef | undefined {
    return this.#forms.get(apiVersion)?.type;
  }

  /** True when objects read in the two versions have different shapes. */
  differ(from: string, to: string): boolean {
    if (from === to) return false;
    const f = this.#forms.get(from), t = this.#forms.get(to);
    return !!f && !!t && (!!f.toStorage || !!t.fromStorage);
  }

  /**
   * `obj`, read in `from`, as `to` reads it (through the stored form); `obj` is not changed. Undefined when
   * a version is unknown or the conversion fails (an empty object: the live side of a create).
   */
  convert(obj: unknown, from: string, to: string): unknown {
    if (from === to) return obj;
    const f = this.#forms.get(from), t = this.#forms.get(to);
    if (!f || !t) return undefined;
    if (!f.toStorage && !t.fromStorage) return obj;
    if (obj === null || typeof obj !== 'object' || isEmptyObject(obj as Record<string, unknown>)) return obj;
    try {
      let out = deepClone(obj) as Record<string, unknown>;
      if (f.toStorage) out = f.toStorage(out);
      if (t.fromStorage) out = t.fromStorage(out);
      return out;
    } catch {
      return undefined;
    }
  }
}

/** `{metadata: {}}` and the like: nothing a conversion would move. */
function isEmptyObject(obj: Record<string, unknown>): boolean {
  for (const k in obj) {
    const v = obj[k];
    if (k === 'metadata' && v !== null && typeof v === 'object' && Object.keys(v).length === 0) continue;
    return false;
  }
  return true;
}
