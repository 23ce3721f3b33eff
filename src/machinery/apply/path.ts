// Path elements of field paths: a struct or map field (`f:name`), an associative-list item named by its key
// fields (`k:{"name":"nginx"}`), a set item named by its value (`v:"x"`), or a list index (`i:0`). Each
// element carries its FieldsV1 spelling, which doubles as its identity.
import { compareStrings, compareValues, goJson, goJsonString, type Json, valueToString } from './value.ts';

export type KeyField = readonly [name: string, value: Json];

export type PathElement =
  | { readonly t: 'f'; readonly name: string; readonly id: string }
  | { readonly t: 'k'; readonly key: readonly KeyField[]; readonly id: string }
  | { readonly t: 'v'; readonly value: Json; readonly id: string }
  | { readonly t: 'i'; readonly index: number; readonly id: string };

export type Path = readonly PathElement[];

const fieldCache = new Map<string, PathElement>();

export function fieldElement(name: string): PathElement {
  let pe = fieldCache.get(name);
  if (!pe) {
    pe = { t: 'f', name, id: 'f:' + name };
    if (fieldCache.size < 10_000) fieldCache.set(name, pe);
  }
  return pe;
}

/** An associative-list item; key fields are sorted by name, as Kubernetes writes them. */
export function keyElement(fields: readonly KeyField[]): PathElement {
  const key = [...fields].sort((a, b) => compareStrings(a[0], b[0]));
  const id = 'k:{' + key.map(([n, v]) => goJsonString(n) + ':' + goJson(v)).join(',') + '}';
  return { t: 'k', key, id };
}

export function valueElement(value: Json): PathElement {
  return { t: 'v', value, id: 'v:' + goJson(value) };
}

export function indexElement(index: number): PathElement {
  return { t: 'i', index, id: 'i:' + index };
}

const KIND_ORDER = { f: 0, k: 1, v: 2, i: 3 } as const;

/** Kubernetes' order: field names, then keys, then values, then indexes; each compared within its kind. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.t !== b.t) return KIND_ORDER[a.t] < KIND_ORDER[b.t] ? -1 : 1;
  switch (a.t) {
    case 'f': return compareStrings(a.name, (b as typeof a).name);
    case 'k': {
      const ka = a.key, kb = (b as typeof a).key;
      for (let i = 0; i < ka.length && i < kb.length; i++) {
        const c = compareStrings(ka[i][0], kb[i][0]) || compareValues(ka[i][1], kb[i][1]);
        if (c !== 0) return c;
      }
      return ka.length === kb.length ? 0 : ka.length < kb.length ? -1 : 1;
    }
    case 'v': return compareValues(a.value, (b as typeof a).value);
    case 'i': return a.index === (b as typeof a).index ? 0 : a.index < (b as typeof a).index ? -1 : 1;
  }
}

/** The element as field paths print it: `.name`, `[name="nginx"]`, `[="x"]`, `[0]`. */
export function pathElementString(pe: PathElement): string {
  switch (pe.t) {
    case 'f': return '.' + pe.name;
    case 'k': return '[' + pe.key.map(([n, v]) => `${n}=${valueToString(v)}`).join(',') + ']';
    case 'v': return `[=${valueToString(pe.value)}]`;
    case 'i': return `[${pe.index}]`;
  }
}

export function pathString(path: Path): string {
  return path.map(pathElementString).join('');
}

export class PathElementError extends Error {}

/** Reads a FieldsV1 key; undefined for a prefix this version does not know (such keys are dropped). */
export function parsePathElement(s: string): PathElement | undefined {
  if (s.length < 2) throw new PathElementError('key must be 2 characters long:');
  if (s[1] !== ':') return undefined;
  const body = s.slice(2);
  switch (s[0]) {
    case 'f': return fieldElement(body);
    case 'v': return valueElement(parseJson(body));
    case 'k': {
      const v = parseJson(body);
      if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new PathElementError(`expected an object in ${s}`);
      return keyElement(Object.entries(v));
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(body)) throw new PathElementError(`strconv.Atoi: parsing ${JSON.stringify(body)}: invalid syntax`);
      return indexElement(Number(body));
    }
    default: return undefined;
  }
}

function parseJson(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    throw new PathElementError((err as Error).message);
  }
}
