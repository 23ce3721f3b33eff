// How the watch cache holds an object: its JSON text (what lists, gets and watches write), its place (key,
// namespace, name, revision) and the few metadata fields the server reads of every object (label selectors,
// the garbage collector), and no parsed copy. A parsed object takes about twice the memory of its JSON, and
// most reads never need it; whoever reads `object` gets it parsed from the JSON, and shares it with every
// other reader for as long as any of them holds it.

/** The metadata read without parsing the object. Absent fields are absent from the object. */
export interface CachedMeta {
  labels?: Record<string, string>;
  ownerReferences?: unknown[];
  deletionTimestamp?: string;
  finalizers?: string[];
}

/** The fields of `metadata` kept in a CachedMeta: the same values, or copies of them when the object stays
 *  in someone else's hands (an object being written). */
export function metaOf(metadata: Record<string, unknown> | undefined, copy = false): CachedMeta {
  if (!metadata) return NO_META;
  const meta: CachedMeta = {};
  if (metadata.labels && typeof metadata.labels === 'object') meta.labels = copy ? { ...(metadata.labels as Record<string, string>) } : metadata.labels as Record<string, string>;
  if (Array.isArray(metadata.ownerReferences) && metadata.ownerReferences.length) meta.ownerReferences = copy ? structuredClone(metadata.ownerReferences) : metadata.ownerReferences;
  if (typeof metadata.deletionTimestamp === 'string') meta.deletionTimestamp = metadata.deletionTimestamp;
  if (Array.isArray(metadata.finalizers) && metadata.finalizers.length) meta.finalizers = copy ? [...metadata.finalizers as string[]] : metadata.finalizers as string[];
  return Object.keys(meta).length ? meta : NO_META;
}

/** Most objects have none of these (or labels only): they share one empty digest. */
const NO_META: CachedMeta = Object.freeze({});

/** Namespace names repeat in every object of a namespace: one string each. */
const namespaces = new Map<string, string>();

export function internNamespace(namespace: string): string {
  const known = namespaces.get(namespace);
  if (known !== undefined) return known;
  if (namespaces.size > 100_000) namespaces.clear();
  namespaces.set(namespace, namespace);
  return namespace;
}

/** A cached object kept as JSON; `object` is parsed on first read and shared while someone holds it (`parsed`,
 *  when the caller has the object at hand and it is about to be read, as an event's is). */
export class LeanObject {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly modRevision: number;
  readonly json: string;
  readonly meta: CachedMeta;
  #parsed: WeakRef<Record<string, any>> | undefined;

  constructor(key: string, namespace: string, modRevision: number, json: string, meta: CachedMeta, parsed?: Record<string, any>) {
    this.key = key;
    this.namespace = internNamespace(namespace);
    this.name = key.slice(key.lastIndexOf('/') + 1);
    this.modRevision = modRevision;
    this.json = json;
    this.meta = meta;
    if (parsed) this.#parsed = new WeakRef(parsed);
  }

  get object(): Record<string, any> {
    let parsed = this.#parsed?.deref();
    if (!parsed) {
      parsed = JSON.parse(this.json) as Record<string, any>;
      this.#parsed = new WeakRef(parsed);
    }
    return parsed;
  }
}
