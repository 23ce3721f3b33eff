// Content negotiation: which representation an `Accept` header asks for, parsed as HTTP defines it
// (lists, q values, wildcards, media type parameters) and ranked as Kubernetes ranks it (q, then the more
// specific range, then the one with more parameters, then the client's order).
import * as status from '../machinery/status.ts';
import { CBOR_SEQ_TYPE, CBOR_TYPE, cborEnabled, isProtobufType, JSON_TYPE, PROTOBUF_TYPE, YAML_TYPE } from './codecs/media-types.ts';

export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

/** Accept headers seen before and their ranges (read-only): clients send the same few again and again. */
const parsedAccept = new Map<string, MediaRange[]>();

/** The ranges of an Accept header, best first. The answer is shared: callers must not change it. */
export function parseAccept(header: string | undefined): MediaRange[] {
  const key = header ?? '';
  let ranges = parsedAccept.get(key);
  if (!ranges) {
    ranges = parseAcceptHeader(header);
    if (parsedAccept.size >= 256) parsedAccept.clear();
    parsedAccept.set(key, ranges);
  }
  return ranges;
}

function parseAcceptHeader(header: string | undefined): MediaRange[] {
  if (!header || !header.trim()) return [{ type: '*', subtype: '*', params: {}, q: 1 }];
  const out: MediaRange[] = [];
  for (const part of splitOutsideQuotes(header, ',')) {
    const [mt, ...paramParts] = splitOutsideQuotes(part, ';').map((s) => s.trim());
    if (!mt) continue;
    const [type, subtype] = mt.toLowerCase().split('/');
    if (!type || subtype === undefined) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      let v = p.slice(eq + 1).trim();
      if (v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
      if (k === 'q') { const n = Number(v); q = Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 0; } else params[k] = v;
    }
    if (q > 0) out.push({ type, subtype, params, q });
  }
  const specificity = (m: MediaRange) => (m.type === '*' ? 0 : m.subtype === '*' ? 1 : 2);
  return out
    .map((m, i) => ({ m, i }))
    .sort((a, b) => b.m.q - a.m.q || specificity(b.m) - specificity(a.m) || Object.keys(b.m.params).length - Object.keys(a.m.params).length || a.i - b.i)
    .map((x) => x.m);
}

function splitOutsideQuotes(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '', quoted = false;
  for (const ch of s) {
    if (ch === '"') quoted = !quoted;
    if (ch === sep && !quoted) { out.push(cur); cur = ''; } else cur += ch;
  }
  out.push(cur);
  return out;
}

export type MediaType = typeof JSON_TYPE | typeof YAML_TYPE | typeof PROTOBUF_TYPE | typeof CBOR_TYPE;

/** What the response body should be. */
export interface Representation {
  mediaType: MediaType;
  /** The Content-Type to answer with: protobuf keeps the name the client asked for. Defaults to mediaType. */
  contentType?: string;
  /** `Table` (server-side printing), `APIGroupDiscoveryList` (aggregated discovery), or plain. */
  as: '' | 'Table' | 'APIGroupDiscoveryList' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  /** The group the client named for `as` (meta.k8s.io or meta.svc.io ...), echoed in the answer. */
  group: string;
  version: string;
  /** `;pretty=1` on the accepted range. */
  pretty?: boolean;
  /**
   * For protobuf: the representation to use for an object that has no protobuf form (a Table, an unknown
   * type), the next one the client accepts; absent when the client accepts nothing else.
   */
  fallback?: Representation;
}

/** What an endpoint can answer besides JSON and YAML. */
export interface Endpoint {
  /** Typed API objects: protobuf is offered, and CBOR while its feature gate is on. */
  objects?: boolean;
  /** A watch stream: JSON, protobuf and CBOR sequences, never YAML (Kubernetes has no YAML stream). */
  watch?: boolean;
}

const OBJECT_TYPES: MediaType[] = [JSON_TYPE, YAML_TYPE, PROTOBUF_TYPE, CBOR_TYPE];

function offered(endpoint: Endpoint): MediaType[] {
  return OBJECT_TYPES.filter((t) => {
    if (t === YAML_TYPE) return !endpoint.watch;
    if (t === PROTOBUF_TYPE) return !!endpoint.objects;
    if (t === CBOR_TYPE) return !!endpoint.objects && cborEnabled();
    return true;
  });
}

/** The media type of `range` among `types`: wildcards pick the first (JSON). */
function matchRange(range: MediaRange, types: MediaType[], endpoint: Endpoint): MediaType | undefined {
  const full = `${range.type}/${range.subtype}`;
  if (full === '*/*' || full === 'application/*') return types[0];
  if (isProtobufType(full)) return types.includes(PROTOBUF_TYPE) ? PROTOBUF_TYPE : undefined;
  if (full === CBOR_SEQ_TYPE) return endpoint.watch && types.includes(CBOR_TYPE) ? CBOR_TYPE : undefined;
  return types.find((t) => t === full);
}

/** Which media types can carry a given `as` transformation. */
function carries(mediaType: MediaType, as: Representation['as']): boolean {
  if (mediaType !== PROTOBUF_TYPE) return true;
  // Table and discovery documents have no protobuf form in Kubernetes; partial metadata has.
  return as === '' || as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList';
}

function validAs(as: Representation['as'], g: string, v: string): boolean {
  switch (as) {
    case 'Table': return (g === 'meta.k8s.io' || g === 'meta.svc.io') && (v === 'v1' || v === 'v1beta1');
    case 'APIGroupDiscoveryList': return (g === 'apidiscovery.k8s.io' || g === 'apidiscovery.svc.io') && (v === 'v2' || v === 'v2beta1');
    case 'PartialObjectMetadata':
    case 'PartialObjectMetadataList': return (g === 'meta.k8s.io' || g === 'meta.svc.io') && (v === 'v1' || v === 'v1beta1');
    default: return false;
  }
}

function pick(ranges: MediaRange[], types: MediaType[], allowedAs: Representation['as'][], endpoint: Endpoint): Representation | undefined {
  for (const m of ranges) {
    const mediaType = matchRange(m, types, endpoint);
    if (!mediaType) continue;
    // `stream=watch` asks for a watch stream: only a watch can give one.
    if (m.params.stream !== undefined && !(endpoint.watch && m.params.stream === 'watch')) continue;
    const as = (m.params.as ?? '') as Representation['as'];
    if (!carries(mediaType, as)) continue;
    const pretty = m.params.pretty === '1' ? { pretty: true } : {};
    const contentType = mediaType === PROTOBUF_TYPE ? `${m.type}/${m.subtype}` : mediaType;
    if (!as) {
      if (allowedAs.includes('')) return { mediaType, contentType, as: '', group: '', version: '', ...pretty };
      continue;
    }
    if (!allowedAs.includes(as)) continue;
    const g = m.params.g ?? '';
    const v = m.params.v ?? '';
    if (validAs(as, g, v)) return { mediaType, contentType, as, group: g, version: v, ...pretty };
  }
  return undefined;
}

/** The media types a 406 lists for this endpoint, in Kubernetes' order. */
export function acceptedMediaTypes(endpoint: Endpoint = {}): string[] {
  const types = offered(endpoint);
  if (!endpoint.watch) return types;
  return types.map((t) => `${t};stream=watch`);
}

/**
 * Picks the first acceptable representation among those `allowedAs` lists for this endpoint; 406 when the
 * client accepts none of them.
 */
export function negotiate(accept: string | undefined, allowedAs: Representation['as'][] = [''], endpoint: Endpoint = {}): Representation {
  const ranges = parseAccept(accept);
  const types = offered(endpoint);
  const rep = pick(ranges, types, allowedAs, endpoint);
  if (!rep) throw status.notAcceptable(acceptedMediaTypes(endpoint));
  if (rep.mediaType === PROTOBUF_TYPE) {
    const fallback = pick(ranges, types.filter((t) => t !== PROTOBUF_TYPE), allowedAs, endpoint);
    if (fallback) rep.fallback = fallback;
  }
  return rep;
}

/** The Content-Type header for a representation (protobuf streams add `;stream=watch`). */
export function contentTypeFor(rep: Pick<Representation, 'mediaType' | 'contentType'>): string {
  return rep.contentType ?? rep.mediaType;
}

/** The media type of a request body, without parameters. */
export function contentTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

