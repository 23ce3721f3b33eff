// GET /openapi/v2 as kube-openapi's handler answers it: JSON or gnostic protobuf by the Accept header (the
// first range, best first, that names one of them), both with the JSON document's hash as ETag, a 304 for a
// matching If-None-Match, gzip when the client accepts it, and a bare 406 when nothing matches.
import type { ServerResponse } from 'node:http';
import { sendNotModified, type Request, type Response } from '../respond.ts';
import { parseAccept } from '../negotiate.ts';
import { acceptsGzip, gzip } from '../codecs/gzip.ts';
import { openApiHash } from '../openapi.ts';
import { encodeOpenApiV2Protobuf } from '../openapi-v2-protobuf.ts';

export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The older spelling kubectl still asks for; answered with the current content type. */
export const OPENAPI_V2_PROTOBUF_DEPRECATED = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

type Format = 'json' | 'protobuf';

const ACCEPTED: { type: string; subtype: string; format: Format; contentType: string }[] = [
  { type: 'application', subtype: 'json', format: 'json', contentType: 'application/json' },
  { type: 'application', subtype: OPENAPI_V2_PROTOBUF_DEPRECATED.slice('application/'.length), format: 'protobuf', contentType: OPENAPI_V2_PROTOBUF },
  { type: 'application', subtype: OPENAPI_V2_PROTOBUF.slice('application/'.length), format: 'protobuf', contentType: OPENAPI_V2_PROTOBUF },
];

/** One version of the v2 document: its JSON text, and the protobuf and gzipped forms made on first use. */
export class OpenApiV2Representations {
  readonly json: string;
  /** kube-openapi's ETag: the hash of the JSON bytes, shared by both formats (the answer varies by Accept). */
  readonly etag: string;
  readonly lastModified: string;
  private protobuf?: Uint8Array;
  private readonly zipped = new Map<Format, Promise<Buffer>>();
  private readonly document: object;

  constructor(document: object, json = JSON.stringify(document), now = new Date()) {
    this.document = document;
    this.json = json;
    this.etag = `"${openApiHash(json)}"`;
    this.lastModified = now.toUTCString();
  }

  body(format: Format): string | Uint8Array {
    if (format === 'json') return this.json;
    this.protobuf ??= encodeOpenApiV2Protobuf(this.document);
    return this.protobuf;
  }

  gzipped(format: Format): Promise<Buffer> {
    let zipped = this.zipped.get(format);
    if (!zipped) {
      zipped = gzip(this.body(format));
      this.zipped.set(format, zipped);
    }
    return zipped;
  }
}

/** The format an Accept header asks for, as kube-openapi picks it; undefined when it names neither. */
export function negotiateOpenApiV2(accept: string | undefined): (typeof ACCEPTED)[number] | undefined {
  for (const range of parseAccept(accept)) {
    for (const candidate of ACCEPTED) {
      if (range.type !== candidate.type && range.type !== '*') continue;
      if (range.subtype !== candidate.subtype && range.subtype !== '*') continue;
      return candidate;
    }
  }
  return undefined;
}

/** Whether If-None-Match names the ETag (weak comparison, as net/http's ServeContent). */
export function notModified(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (header !== undefined) {
    return header.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t.replace(/^W\//, '') === etag;
    });
  }
  return false;
}

function sinceUnchanged(req: Request, lastModified: string): boolean {
  const header = req.headers['if-modified-since'];
  if (header === undefined || req.headers['if-none-match'] !== undefined) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && Date.parse(lastModified) <= since;
}

export function serveOpenApiV2(doc: OpenApiV2Representations, req: Request, res: Response): void {
  const out = res as ServerResponse;
  const vary = 'Accept, Accept-Encoding';
  const chosen = negotiateOpenApiV2(req.headers.accept);
  if (!chosen) {
    out.writeHead(406, { vary, 'cache-control': 'no-cache, private', 'content-length': 0 });
    out.end();
    return;
  }
  const headers: Record<string, string | string[] | number> = { vary, 'cache-control': 'no-cache, private', etag: doc.etag };
  if (notModified(req, doc.etag) || sinceUnchanged(req, doc.lastModified)) return sendNotModified(res, headers);
  headers['content-type'] = chosen.contentType;
  headers['last-modified'] = doc.lastModified;
  const head = req.method === 'HEAD';
  if (acceptsGzip(req.headers['accept-encoding'])) {
    doc.gzipped(chosen.format).then((zipped) => {
      if (out.headersSent) return;
      out.writeHead(200, { ...headers, 'content-encoding': 'gzip', 'content-length': zipped.length });
      out.end(head ? undefined : zipped);
    }, () => out.destroy());
    return;
  }
  const body = doc.body(chosen.format);
  out.writeHead(200, { ...headers, 'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length });
  out.end(head ? undefined : body);
}
