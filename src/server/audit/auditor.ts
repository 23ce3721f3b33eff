// The audit stage of the filter chain: each request gets an audit ID (the `Audit-ID` response header), the
// policy picks its level from the authenticated user and the request, and events are written at the stages
// Kubernetes writes them: RequestReceived, ResponseStarted (watches only), ResponseComplete, or Panic. Bodies
// are read only at the levels that record them: the request at Request and RequestResponse, the response at
// RequestResponse (a Secret's data is in the log at those levels, as in Kubernetes).
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { isIP } from 'node:net';
import type { AdmitTrace } from '../../auth/access-control.ts';
import YAML from '../../machinery/yaml.ts';
import type { Request, Response } from '../respond.ts';
import type { RequestInfo } from '../requestinfo.ts';
import { auditUser, microTime, type AuditEvent, type ObjectRef, type ResponseStatus } from './event.ts';
import type { AuditSink } from './log-backend.ts';
import { AUDIT_API_VERSION, evaluatePolicy, levelIncludes, type AuditPolicy, type Level, type RequestAuditConfig, type Stage } from './policy.ts';
import { rememberRequestAudit, type AuditAnnotationSink } from './request-context.ts';

export type { AdmitTrace };

export interface AuditorOptions {
  policy: AuditPolicy;
  sink: AuditSink;
  /** The apiVersion events are written in (--audit-log-version): `audit.svc.io/v1`, or Kubernetes' name. */
  apiVersion?: string;
  log?(line: string): void;
}

export const DECISION_ANNOTATION = 'authorization.svc.io/decision';
export const REASON_ANNOTATION = 'authorization.svc.io/reason';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class Auditor {
  readonly options: AuditorOptions;
  #failedWrites = 0;

  constructor(options: AuditorOptions) {
    this.options = options;
  }

  /** Starts the audit of one request: call start() once authentication and authorization are done. */
  begin(req: Request, res: Response, info: RequestInfo): RequestAudit {
    const audit = new RequestAudit(this, req, res, info);
    // Admission finds the event through the request (see request-context.ts).
    rememberRequestAudit(req, audit);
    return audit;
  }

  write(event: AuditEvent): void {
    try {
      this.options.sink.write(event);
    } catch (err) {
      // As Kubernetes' blocking mode: a failed write is logged and the request goes on.
      if (this.#failedWrites++ === 0) this.options.log?.(`audit log write failed: ${(err as Error).message}`);
    }
  }

  close(): void {
    this.options.sink.close();
  }
}

/** The client's Audit-ID, or a new one. */
export function auditIdOf(req: Request): string {
  const given = req.headers['audit-id'];
  return typeof given === 'string' && given ? given : randomUUID();
}

/** A microsecond clock for event timestamps. */
function now(): number {
  return performance.timeOrigin + performance.now();
}

export class RequestAudit implements AuditAnnotationSink {
  readonly trace: AdmitTrace = {};
  readonly auditID: string;
  readonly #auditor: Auditor;
  readonly #req: Request;
  readonly #res: Response;
  readonly #info: RequestInfo;
  readonly #received = now();
  readonly #annotations: Record<string, string> = {};
  #config: RequestAuditConfig | undefined;
  #requestBody: Buffer[] | undefined;
  #responseBody: Buffer[] | undefined;
  #done = false;

  constructor(auditor: Auditor, req: Request, res: Response, info: RequestInfo) {
    this.#auditor = auditor;
    this.#req = req;
    this.#res = res;
    this.#info = info;
    this.auditID = auditIdOf(req);
    res.setHeader('Audit-ID', this.auditID);
  }

  /** Adds an annotation to the events still to come. As Kubernetes' audit context, a key already set keeps
   *  its first value. */
  annotate(key: string, value: string): void {
    if (!(key in this.#annotations)) this.#annotations[key] = value;
  }

  /** The level the policy chose (None until start()). */
  get level(): Level {
    return this.#config?.level ?? 'None';
  }

  /** Authentication (and authorization) are done, or failed: the policy decides, RequestReceived is written. */
  start(): void {
    if (this.#config) return;
    const info = this.#info;
    const user = this.trace.user;
    this.#config = evaluatePolicy(this.#auditor.options.policy, {
      user: user ? { username: user.username, groups: user.groups } : undefined,
      verb: info.verb, isResourceRequest: info.isResourceRequest, path: info.path,
      namespace: info.namespace, apiGroup: info.apiGroup, resource: info.resource, subresource: info.subresource, name: info.name,
    });
    if (this.#config.level === 'None') return;
    this.#emit('RequestReceived', false);
    if (this.trace.decision) {
      this.annotate(DECISION_ANNOTATION, this.trace.decision);
      this.annotate(REASON_ANNOTATION, this.trace.reason ?? '');
    }
    this.#tapRequest();
    this.#tapResponse();
    this.#res.once('close', () => this.#complete());
  }

  /** The handler failed unexpectedly: a Panic event takes the place of ResponseComplete. */
  panic(err: unknown): void {
    if (!this.#config || this.#config.level === 'None' || this.#done) return;
    this.#done = true;
    const e = this.#event('Panic', true);
    e.responseStatus = { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${(err as Error)?.message ?? String(err)}`, reason: 'InternalError', code: 500 };
    this.#write(e);
  }

  #records(level: Level): boolean {
    return levelIncludes(this.#config!.level, level);
  }

  /** Keeps the request body as the handler reads it (at Request level, or for a create or update's name). */
  #tapRequest(): void {
    const info = this.#info;
    if (!info.isResourceRequest || !BODY_METHODS.has(this.#req.method ?? '')) return;
    if (!this.#records('Request') && info.verb !== 'create' && info.verb !== 'update') return;
    const chunks: Buffer[] = [];
    this.#requestBody = chunks;
    const req = this.#req as unknown as { emit(event: string | symbol, ...args: unknown[]): boolean };
    const emit = req.emit;
    req.emit = function (this: unknown, event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'data') chunks.push(Buffer.from(args[0] as Uint8Array));
      return emit.call(this, event, ...args);
    };
  }

  /** Keeps the response body (errors always, for their Status; everything at RequestResponse) and marks a watch's start. */
  #tapResponse(): void {
    const res = this.#res as unknown as { statusCode: number; end(...a: unknown[]): unknown; write(...a: unknown[]): unknown; writeHead(...a: unknown[]): unknown };
    const longRunning = this.#info.verb === 'watch';
    if (longRunning) {
      const writeHead = res.writeHead;
      let started = false;
      const audit = this;
      res.writeHead = function (this: unknown, ...args: unknown[]): unknown {
        const out = writeHead.apply(this, args);
        if (!started) {
          started = true;
          audit.#started(args[0] as number);
        }
        return out;
      };
      return;
    }
    const chunks: Buffer[] = [];
    this.#responseBody = chunks;
    const keep = (chunk: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      if (!this.#records('RequestResponse') && res.statusCode < 400) return;
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk as Uint8Array));
    };
    const write = res.write;
    res.write = function (this: unknown, ...args: unknown[]): unknown {
      keep(args[0]);
      return write.apply(this, args);
    };
    const end = res.end;
    res.end = function (this: unknown, ...args: unknown[]): unknown {
      keep(args[0]);
      return end.apply(this, args);
    };
  }

  #started(code: number): void {
    if (this.#config!.omitStages.has('ResponseStarted')) return;
    const e = this.#event('ResponseStarted', true);
    e.responseStatus = { metadata: {}, code };
    this.#write(e);
  }

  #complete(): void {
    if (this.#done) return;
    this.#done = true;
    this.#emit('ResponseComplete', true);
  }

  #emit(stage: Stage, withAnnotations: boolean): void {
    if (this.#config!.omitStages.has(stage)) return;
    const e = this.#event(stage, withAnnotations);
    if (stage === 'ResponseComplete') this.#addResponse(e);
    this.#write(e);
  }

  #write(e: AuditEvent): void {
    if (this.#config!.omitStages.has(e.stage)) return;
    this.#auditor.write(e);
  }

  #event(stage: Stage, withAnnotations: boolean): AuditEvent {
    const info = this.#info;
    const req = this.#req;
    const e: AuditEvent = {
      kind: 'Event',
      apiVersion: this.#auditor.options.apiVersion ?? AUDIT_API_VERSION,
      level: this.#config!.level,
      auditID: this.auditID,
      stage,
      requestURI: req.url ?? '/',
      verb: info.verb,
      user: auditUser(this.trace.user),
      impersonatedUser: this.trace.impersonatedUser ? auditUser(this.trace.impersonatedUser) : undefined,
      sourceIPs: sourceIPs(req),
      userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
      objectRef: info.isResourceRequest ? this.#objectRef() : undefined,
      requestReceivedTimestamp: microTime(this.#received),
      stageTimestamp: microTime(now()),
      annotations: withAnnotations ? { ...this.#annotations } : undefined,
    };
    if (stage !== 'RequestReceived' && info.isResourceRequest && this.#records('Request')) e.requestObject = this.#requestObject();
    return e;
  }

  #objectRef(): ObjectRef {
    const info = this.#info;
    const ref: ObjectRef = { resource: info.resource };
    let namespace = info.namespace;
    let name = info.name;
    let uid = '';
    let resourceVersion = '';
    // A create or update names its object in the body: Kubernetes completes the reference from it.
    if ((info.verb === 'create' || info.verb === 'update') && this.#requestBody?.length) {
      const meta = (this.#requestObject() as { metadata?: Record<string, unknown> } | undefined)?.metadata;
      if (meta && typeof meta === 'object') {
        if (!namespace && typeof meta.namespace === 'string') namespace = meta.namespace;
        if (!name && typeof meta.name === 'string') name = meta.name;
        if (typeof meta.uid === 'string') uid = meta.uid;
        if (typeof meta.resourceVersion === 'string') resourceVersion = meta.resourceVersion;
      }
    }
    if (namespace) ref.namespace = namespace;
    if (name) ref.name = name;
    if (uid) ref.uid = uid;
    if (info.apiGroup) ref.apiGroup = info.apiGroup;
    if (info.apiVersion) ref.apiVersion = info.apiVersion;
    if (resourceVersion) ref.resourceVersion = resourceVersion;
    if (info.subresource) ref.subresource = info.subresource;
    return ref;
  }

  #requestObjectCache: { value: unknown } | undefined;

  #requestObject(): unknown {
    if (!this.#requestBody?.length) return undefined;
    this.#requestObjectCache ??= { value: decodeBody(Buffer.concat(this.#requestBody), contentType(this.#req.headers['content-type']), '', this.#config!.omitManagedFields) };
    return this.#requestObjectCache.value;
  }

  #addResponse(e: AuditEvent): void {
    const res = this.#res as unknown as { statusCode: number; getHeader(name: string): unknown };
    const code = res.statusCode;
    const body = this.#responseBody?.length ? Buffer.concat(this.#responseBody) : undefined;
    const decoded = body ? decodeBody(body, contentType(res.getHeader('content-type')), String(res.getHeader('content-encoding') ?? ''), this.#config!.omitManagedFields) : undefined;
    e.responseStatus = responseStatusOf(decoded, code);
    if (this.#info.isResourceRequest && this.#records('RequestResponse') && decoded !== undefined) e.responseObject = decoded;
  }
}

function contentType(header: unknown): string {
  return typeof header === 'string' ? header.split(';')[0].trim().toLowerCase() : '';
}

/** A JSON or YAML body as an object; undefined for other encodings (protobuf, CBOR) or a body that does not parse. */
function decodeBody(body: Buffer, type: string, encoding: string, omitManagedFields: boolean): unknown {
  try {
    const bytes = encoding === 'gzip' ? gunzipSync(body) : body;
    let value: unknown;
    if (type === '' || type.endsWith('json')) value = JSON.parse(bytes.toString('utf8'));
    else if (type.endsWith('yaml')) value = YAML.parse(bytes.toString('utf8'));
    else return undefined;
    return omitManagedFields ? withoutManagedFields(value) : value;
  } catch {
    return undefined;
  }
}

/** The object, or each item of a list, without metadata.managedFields (omitManagedFields). */
function withoutManagedFields(value: unknown): unknown {
  const strip = (o: unknown) => {
    const meta = (o as { metadata?: Record<string, unknown> } | null)?.metadata;
    if (meta && typeof meta === 'object') delete meta.managedFields;
  };
  strip(value);
  const items = (value as { items?: unknown[] } | null)?.items;
  if (Array.isArray(items)) items.forEach(strip);
  return value;
}

/** The Status fields of an error answer (status, message, reason, details, code, in Kubernetes' order), or just the code. */
function responseStatusOf(body: unknown, code: number): ResponseStatus {
  const s = body as Record<string, unknown> | undefined;
  if (!s || s.kind !== 'Status') return { metadata: {}, code };
  const out: ResponseStatus = { metadata: {} } as ResponseStatus;
  if (typeof s.status === 'string' && s.status) out.status = s.status;
  if (typeof s.message === 'string' && s.message) out.message = s.message;
  if (typeof s.reason === 'string' && s.reason) out.reason = s.reason;
  if (s.details !== undefined) out.details = s.details;
  out.code = typeof s.code === 'number' ? s.code : code;
  return out;
}

/** Kubernetes' SourceIPs: the X-Forwarded-For chain, then X-Real-Ip, then the peer, without repeats. */
function sourceIPs(req: Request): string[] {
  const ips: string[] = [];
  const add = (ip: string | undefined) => { const v = ip?.trim(); if (v && isIP(v) && !ips.includes(v)) ips.push(v); };
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string') for (const ip of forwarded.split(',')) add(ip);
  const real = req.headers['x-real-ip'];
  if (typeof real === 'string') add(real);
  add(req.socket?.remoteAddress);
  return ips;
}
