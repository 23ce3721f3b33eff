// Writing answers: objects in the negotiated encoding, and errors as Status objects.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import YAML from 'yaml';
import { StatusError, internalError, requestEntityTooLarge, storeUnavailable } from '../machinery/status.ts';
import { StoreUnavailableError } from '../storage/interface.ts';
import type { Representation } from './negotiate.ts';

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

export function send(res: Response, code: number, contentType: string, body: string | Buffer, headers: Record<string, string | string[]> = {}): void {
  if (res.headersSent) return;
  const h: Record<string, string | string[] | number> = { 'content-type': contentType, 'cache-control': 'no-cache, private', ...headers };
  h['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  (res as ServerResponse).writeHead(code, h);
  res.end(body);
}

/** Writes a JSON text (already encoded) in the negotiated media type. */
export function sendJsonText(res: Response, code: number, rep: Pick<Representation, 'mediaType'>, json: string, headers: Record<string, string | string[]> = {}, pretty = false): void {
  if (rep.mediaType === 'application/yaml') return send(res, code, 'application/yaml', YAML.stringify(JSON.parse(json)), headers);
  send(res, code, 'application/json', pretty ? JSON.stringify(JSON.parse(json), null, 2) + '\n' : json, headers);
}

export function sendObject(res: Response, code: number, rep: Pick<Representation, 'mediaType'>, obj: unknown, headers: Record<string, string | string[]> = {}, pretty = false): void {
  if (rep.mediaType === 'application/yaml') return send(res, code, 'application/yaml', YAML.stringify(obj), headers);
  send(res, code, 'application/json', pretty ? JSON.stringify(obj, null, 2) + '\n' : JSON.stringify(obj), headers);
}

export function toStatusError(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  if (err instanceof StoreUnavailableError) return storeUnavailable(err.message);
  return internalError(err);
}

export function sendError(res: Response, err: unknown, rep: Pick<Representation, 'mediaType'> = { mediaType: 'application/json' }): void {
  const e = toStatusError(err);
  const headers: Record<string, string | string[]> = {};
  if (e.details?.retryAfterSeconds) headers['retry-after'] = String(e.details.retryAfterSeconds);
  sendObject(res, e.code, rep, e.toStatus(), headers);
}

/** The `Warning` header value Kubernetes sends: `299 - "<text>"`. */
export function warningHeader(warnings: string[]): Record<string, string | string[]> {
  if (!warnings.length) return {};
  return { warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`) };
}
