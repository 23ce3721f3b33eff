// Content negotiation: which representation an `Accept` header asks for, parsed as HTTP defines it
// (lists, q values, wildcards, media type parameters).
import * as status from '../machinery/status.ts';

export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

export function parseAccept(header: string | undefined): MediaRange[] {
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
  // Stable sort: higher q first; among equals, keep the client's order.
  return out.map((m, i) => ({ m, i })).sort((a, b) => b.m.q - a.m.q || a.i - b.i).map((x) => x.m);
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

/** What the response body should be. */
export interface Representation {
  mediaType: 'application/json' | 'application/yaml';
  /** `Table` (server-side printing), `APIGroupDiscoveryList` (aggregated discovery), or plain. */
  as: '' | 'Table' | 'APIGroupDiscoveryList' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  /** The group the client named for `as` (meta.k8s.io or meta.svc.io ...), echoed in the answer. */
  group: string;
  version: string;
}

const SERVED = ['application/json', 'application/yaml'];

/** Picks the first acceptable representation among those `allowedAs` lists for this endpoint. */
export function negotiate(accept: string | undefined, allowedAs: Representation['as'][] = ['']): Representation {
  for (const m of parseAccept(accept)) {
    const full = `${m.type}/${m.subtype}`;
    let mediaType: Representation['mediaType'] | undefined;
    if (full === 'application/json' || full === 'application/*' || full === '*/*') mediaType = 'application/json';
    else if (full === 'application/yaml') mediaType = 'application/yaml';
    if (!mediaType) continue;
    const as = (m.params.as ?? '') as Representation['as'];
    if (!as) {
      if (allowedAs.includes('')) return { mediaType, as: '', group: '', version: '' };
      continue;
    }
    if (!allowedAs.includes(as)) continue;
    const g = m.params.g ?? '';
    const v = m.params.v ?? '';
    if (as === 'Table' && (g === 'meta.k8s.io' || g === 'meta.svc.io') && (v === 'v1' || v === 'v1beta1')) return { mediaType, as, group: g, version: v };
    if (as === 'APIGroupDiscoveryList' && (g === 'apidiscovery.k8s.io' || g === 'apidiscovery.svc.io') && (v === 'v2' || v === 'v2beta1')) return { mediaType, as, group: g, version: v };
    if ((as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') && (g === 'meta.k8s.io' || g === 'meta.svc.io') && (v === 'v1' || v === 'v1beta1')) return { mediaType, as, group: g, version: v };
  }
  throw status.notAcceptable(SERVED);
}

/** The media type of a request body, without parameters. */
export function contentTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}
