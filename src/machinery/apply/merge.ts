// Merging an applied configuration onto the live object: the configuration wins on every leaf, granular
// maps and structs merge key by key, associative lists merge item by item on their keys (the configuration's
// order first, live-only items kept where they were), atomic values are replaced whole.
import { fieldElement, pathElementString, type PathElement } from './path.ts';
import { atomFor, fieldType, type Atom, type TypeRef } from './schema-view.ts';
import { listItemElement, typedError } from './tofieldset.ts';
import { isObject } from './value.ts';

/** `live` merged with `config`; neither is modified (unchanged subtrees are shared). */
export function merge(live: unknown, config: unknown, tr: TypeRef): unknown {
  return mergeValue(live, config, tr, []);
}

function mergeValue(lhs: unknown, rhs: unknown, tr: TypeRef, path: PathElement[]): unknown {
  const a = atomFor(tr, lhs === undefined ? rhs : lhs);
  const b = atomFor(tr, rhs === undefined ? lhs : rhs);
  // A free-form value that changes shape is taken from the configuration.
  const atom = a === b ? a : atomFor(tr, rhs);
  const leaf = () => (rhs !== undefined ? rhs : lhs);
  switch (atom.kind) {
    case 'list': {
      const l = Array.isArray(lhs) ? lhs : undefined, r = Array.isArray(rhs) ? rhs : undefined;
      if (atom.atomic || (!l?.length && !r?.length) || a !== b) return leaf();
      return mergeList(atom, l ?? [], r ?? [], path);
    }
    case 'map': {
      const l = isObject(lhs) ? lhs : undefined, r = isObject(rhs) ? rhs : undefined;
      const lEmpty = !l || !Object.keys(l).length, rEmpty = !r || !Object.keys(r).length;
      if (atom.atomic || (lEmpty && rEmpty) || a !== b) return leaf();
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(l ?? {})) {
        if (l![k] === undefined) continue;
        path.push(fieldElement(k));
        const v = mergeValue(l![k], r?.[k], fieldType(atom, k), path);
        path.pop();
        if (v !== undefined) out[k] = v;
      }
      for (const k of Object.keys(r ?? {})) {
        if (r![k] === undefined || (l && Object.hasOwn(l, k) && l[k] !== undefined)) continue;
        path.push(fieldElement(k));
        const v = mergeValue(undefined, r![k], fieldType(atom, k), path);
        path.pop();
        if (v !== undefined) out[k] = v;
      }
      return Object.keys(out).length ? out : undefined;
    }
    default:
      return leaf();
  }
}

interface Indexed {
  pes: PathElement[];
  byId: Map<string, unknown>;
}

function index(atom: Extract<Atom, { kind: 'list' }>, list: unknown[], path: PathElement[], allowDuplicates: boolean): Indexed {
  const pes: PathElement[] = [];
  const byId = new Map<string, unknown>();
  list.forEach((item, i) => {
    const pe = listItemElement(atom, item, i, path);
    if (byId.has(pe.id)) {
      if (!allowDuplicates) throw typedError(path, `duplicate entries for key ${pathElementString(pe)}`);
      // A duplicated live item is not merged with the configuration's.
      byId.set(pe.id, null);
    } else byId.set(pe.id, item);
    pes.push(pe);
  });
  return { pes, byId };
}

function mergeList(atom: Extract<Atom, { kind: 'list' }>, lhs: unknown[], rhs: unknown[], path: PathElement[]): unknown {
  const r = index(atom, rhs, path, false);
  const l = index(atom, lhs, path, true);
  // Items present on both sides, in the configuration's order.
  const shared = r.pes.filter((pe) => l.byId.has(pe.id));
  let nextShared = shared.shift();
  const merged = new Set<string>();
  const out: unknown[] = [];
  const mergeItem = (pe: PathElement, lv: unknown, rv: unknown) => {
    path.push(pe);
    const v = mergeValue(lv, rv, atom.elem, path);
    path.pop();
    if (v !== undefined) out.push(v);
  };
  let li = 0, ri = 0;
  while (li < l.pes.length || ri < r.pes.length) {
    if (li < l.pes.length && ri < r.pes.length) {
      const pe = l.pes[li];
      if (pe.id === r.pes[ri].id) {
        merged.add(pe.id);
        const lv = l.byId.get(pe.id);
        mergeItem(pe, lv === null ? undefined : lv, r.byId.get(pe.id));
        li++; ri++;
        nextShared = shared.shift();
        continue;
      }
      if (r.byId.has(pe.id) && nextShared && nextShared.id !== pe.id) {
        // A shared item, but not the one due now: it comes later, in the configuration's order.
        li++;
        continue;
      }
    }
    if (li < l.pes.length) {
      const pe = l.pes[li];
      if (!r.byId.has(pe.id)) {
        mergeItem(pe, lhs[li], undefined);
        li++;
        continue;
      }
      if (merged.has(pe.id)) { li++; continue; }
    }
    if (ri < r.pes.length) {
      const pe = r.pes[ri];
      merged.add(pe.id);
      const lv = l.byId.get(pe.id);
      mergeItem(pe, lv === null ? undefined : lv, r.byId.get(pe.id));
      ri++;
      if (nextShared && nextShared.id === pe.id) nextShared = shared.shift();
    }
  }
  return out.length ? out : undefined;
}
