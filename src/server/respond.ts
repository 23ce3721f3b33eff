// Writing answers: objects in the negotiated encoding, and errors as Status objects.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { StatusError, internalError, requestEntityTooLarge, storeUnavailable } from '../machinery/status.ts';
import { StoreUnavailableError } from '../storage/interface.ts';
import { negotiate, type Representation } from './negotiate.ts';
import { encodeJsonTextResponse, encodeResponse } from './codecs/response.ts';
import { gzip, shouldCompress } from './codecs/gzip.ts';
import { isPrettyPrint } from './pretty-print.ts';

export type Request = IncomingMessage | Http2ServerRequest;
export type Response = ServerResponse | Http2ServerResponse;

export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export function readBody(req: Request, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(requestEntityTooLarge(`limit is ${limit}`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) { failed = true; reject(requestEntityTooLarge(`limit is ${limit}`)); return; }
      chunks.push(chunk);
    });
    req.on('end', () => { if (!failed) resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)); });
    req.on('error', (err) => { if (!failed) { failed = true; reject(err); } });
  });
}

type RepresentationLike = Pick<Representation, 'mediaType'> & Partial<Pick<Representation, 'contentType' | 'fallback'>>;

/** Writes a whole body; a get's or list's, or one larger than Kubernetes' threshold, goes gzipped when the client accepts that. */
export function send(res: Response, code: number, contentType: string, body: string | Uint8Array, headers: Record<string, string | string[]> = {}): void {
  if (res.headersSent) return;
  const h: Record<string, string | string[] | number> = { 'content-type': contentType, 'cache-control': 'no-cache, private', ...headers };
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const req = requestOf(res);
  if (shouldCompress(req?.headers['accept-encoding'], size, req?.method === 'GET')) {
    gzip(body).then((zipped) => {
      if (res.headersSent) return;
      h['content-encoding'] = 'gzip';
      h.vary = h.vary === undefined ? 'Accept-Encoding' : `${[h.vary].flat().join(', ')}, Accept-Encoding`;
      h['content-length'] = zipped.length;
      (res as ServerResponse).writeHead(code, h);
      res.end(zipped);
    }, () => res.destroy?.());
    return;
  }
  h['content-length'] = size;
  (res as ServerResponse).writeHead(code, h);
  res.end(body);
}

/** 304 Not Modified with the cache headers of the answer the client already holds, and no body. */
export function sendNotModified(res: Response, headers: Record<string, string | string[] | number>): void {
  (res as ServerResponse).writeHead(304, headers);
  res.end();
}

/** Indented JSON: asked for in the Accept header (`;pretty=1`), or by the request as Kubernetes reads it. */
function prettyFor(res: Response, rep: RepresentationLike): boolean {
  if ((rep as Representation).pretty) return true;
  const req = requestOf(res);
  return !!req && isPrettyPrint(req.url, req.headers);
}

function requestOf(res: Response): Request | undefined {
  return (res as { req?: Request }).req;
}

/** Writes a JSON text (already encoded) in the negotiated media type. */
export function sendJsonText(res: Response, code: number, rep: RepresentationLike, json: string, headers: Record<string, string | string[]> = {}): void {
  const encoded = encodeJsonTextResponse(json, rep, prettyFor(res, rep));
  send(res, code, encoded.contentType, encoded.body, headers);
}

export function sendObject(res: Response, code: number, rep: RepresentationLike, obj: unknown, headers: Record<string, string | string[]> = {}): void {
  const encoded = encodeResponse(obj, rep, prettyFor(res, rep));
  send(res, code, encoded.contentType, encoded.body, headers);
}

export function toStatusError(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  if (err instanceof StoreUnavailableError) return storeUnavailable(err.message);
  return internalError(err);
}

/**
 * Writes an error as a Status, in the representation negotiated from the request's Accept header unless
 * one is given; JSON when the client accepts nothing a Status can be written in (as Kubernetes does).
 */
export function sendError(res: Response, err: unknown, rep?: RepresentationLike): void {
  const e = toStatusError(err);
  const headers: Record<string, string | string[]> = {};
  if (e.details?.retryAfterSeconds) headers['retry-after'] = String(e.details.retryAfterSeconds);
  const body = e.toStatus();
  let encoded;
  try {
    const errorRep = rep ?? errorRepresentation(res);
    encoded = encodeResponse(body, errorRep, prettyFor(res, errorRep));
  } catch {
    encoded = encodeResponse(body, { mediaType: 'application/json' });
  }
  send(res, e.code, encoded.contentType, encoded.body, headers);
}

function errorRepresentation(res: Response): RepresentationLike {
  try {
    return negotiate(requestOf(res)?.headers.accept, [''], { objects: true });
  } catch {
    return { mediaType: 'application/json' };
  }
}

/** The `Warning` header value Kubernetes sends: `299 - "<text>"`. */
export function warningHeader(warnings: string[]): Record<string, string | string[]> {
  if (!warnings.length) return {};
  // Each text once, as Kubernetes' recorder dedupes them; sent as UTF-8 bytes, as Go writes them (Node writes header strings as latin1, and refuses DEL).
  return { warning: [...new Set(warnings)].map((w) => Buffer.from(`299 - ${JSON.stringify(w).replace(/\x7f/g, ' ')}`, 'utf8').toString('latin1')) };
}
