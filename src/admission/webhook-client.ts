// Calls an admission webhook: POSTs the review as JSON over HTTPS (HTTP/1.1, connections kept alive), within
// the webhook's timeout, verifying the server against `caBundle` (or the system roots). `clientConfig.url`
// is used as given; `clientConfig.service` is reached as Kubernetes' cluster-IP resolver does: at the
// Service's cluster IP and service port (ExternalName: at its external name and the configured port), with
// TLS checked against `<name>.<namespace>.svc`. A headless Service, or one without a cluster IP (stored
// before allocation existed), cannot be reached; the call fails and the failure policy decides.
// Failures read as Go's HTTP client words them (`Post "<url>": dial tcp ...: connect: connection refused`).
import https from 'node:https';
import { posix } from 'node:path';
import type { ApiObject } from '../apis/meta/v1.ts';
import { versionKindError } from '../machinery/go-json.ts';
import type { ClientConfigT } from '../apis/admissionregistration/webhook.ts';
import { parseJsonStrict } from '../machinery/schema/json-parse.ts';
import { postOnce } from '../auth/post-once.ts';
// Go's %q: URLs in url.Error, names and a server's text in client-go's messages.
import { goQuote as quote } from '../machinery/go-format.ts';

/** Reads a Service as the registry has it now (undefined when there is none). */
export type ServiceLookup = (namespace: string, name: string) => Promise<ApiObject | undefined>;

/** Why a call failed, worded as Kubernetes' dispatcher wraps it (`failed to call webhook: ...`, `could not get REST client: ...`). */
export class WebhookClientError extends Error {}

interface Target {
  /** The URL as Go's client prints it (with the `timeout` parameter). */
  url: string;
  path: string;
  ca?: string;
  /** Where to connect, or the Service to resolve first. */
  host?: string;
  port: number;
  service?: { namespace: string; name: string };
  servername?: string;
}

/** Go's path.Join("/", p): cleaned, no trailing slash. */
function cleanPath(p: string): string {
  const joined = posix.join('/', p);
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

/** Go's net.JoinHostPort. */
const joinHostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

function caOf(cc: ClientConfigT): string | undefined {
  if (!cc.caBundle) return undefined;
  const pem = Buffer.from(cc.caBundle, 'base64').toString('utf8');
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new WebhookClientError('could not get REST client: unable to load root certificates: unable to parse bytes as PEM block');
  return pem;
}

function targetOf(cc: ClientConfigT, timeoutSeconds: number): Target {
  const query = `?timeout=${timeoutSeconds}s`;
  const ca = caOf(cc);
  if (cc.service) {
    const { namespace = '', name = '' } = cc.service;
    const port = cc.service.port ?? 443;
    const servername = `${name}.${namespace}.svc`;
    const path = cleanPath(cc.service.path ?? '');
    return { url: `https://${joinHostPort(servername, port)}${path}${query}`, path: path + query, ca, port, service: { namespace, name }, servername };
  }
  if (!cc.url) throw new WebhookClientError('webhook configuration must have either service or URL');
  let u: URL;
  try {
    u = new URL(cc.url);
  } catch (err) {
    throw new WebhookClientError(`Unparsable URL: ${(err as Error).message}`);
  }
  const path = cleanPath(u.pathname);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return { url: `${u.protocol}//${u.host}${path}${query}`, path: path + query, ca, host, port: u.port ? Number(u.port) : 443 };
}

/** Kubernetes' ResolveCluster: where a Service-based webhook is reached. Throws with its message. */
export function serviceAddress(svc: ApiObject | undefined, name: string, port: number): { host: string; port: number } {
  if (!svc) throw new Error(`service ${quote(name)} not found`);
  const spec = (svc.spec ?? {}) as { type?: string; clusterIP?: string; externalName?: string; ports?: { port?: number }[] };
  const type = spec.type || 'ClusterIP';
  if (type === 'ClusterIP' && spec.clusterIP === 'None') throw new Error('cannot route to service with ClusterIP "None"');
  if (type === 'ClusterIP' || type === 'LoadBalancer' || type === 'NodePort') {
    const svcPort = (spec.ports ?? []).find((p) => p.port === port);
    if (!svcPort) throw new Error(`no service port ${port} found for service ${quote(name)}`);
    if (!spec.clusterIP) throw new Error(`service ${quote(name)} has no cluster IP`);
    return { host: spec.clusterIP, port };
  }
  if (type === 'ExternalName') return { host: spec.externalName ?? '', port };
  throw new Error(`unsupported service type ${quote(type)}`);
}

/** A Node network or TLS error in the words of Go's dialer and TLS stack. */
export function goNetError(err: NodeJS.ErrnoException & { host?: string; cert?: { subjectaltname?: string }; reason?: string }, host: string, port: number): string {
  const addr = joinHostPort(host, port);
  switch (err.code) {
    case 'ECONNREFUSED': return `dial tcp ${addr}: connect: connection refused`;
    case 'EHOSTUNREACH': return `dial tcp ${addr}: connect: no route to host`;
    case 'ENETUNREACH': return `dial tcp ${addr}: connect: network is unreachable`;
    case 'ETIMEDOUT': return `dial tcp ${addr}: i/o timeout`;
    case 'ENOTFOUND': case 'EAI_AGAIN': case 'EAI_NONAME': return `dial tcp: lookup ${host}: no such host`;
    case 'ECONNRESET': return 'EOF';
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE': case 'SELF_SIGNED_CERT_IN_CHAIN': case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY': case 'UNABLE_TO_GET_ISSUER_CERT': case 'CERT_SIGNATURE_FAILURE':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'CERT_HAS_EXPIRED': case 'CERT_NOT_YET_VALID':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'ERR_TLS_CERT_ALTNAME_INVALID': {
      const wanted = err.host ?? host;
      const ip = /^[0-9.]+$|:/.test(wanted);
      const names = (err.cert?.subjectaltname ?? '').split(', ').filter((n) => n.startsWith(ip ? 'IP Address:' : 'DNS:')).map((n) => n.slice(n.indexOf(':') + 1));
      return names.length
        ? `tls: failed to verify certificate: x509: certificate is valid for ${names.join(', ')}, not ${wanted}`
        : `tls: failed to verify certificate: x509: certificate is not valid for any names, but wanted to match ${wanted}`;
    }
    default:
      if (/wrong version number|packet length too long|WRONG_VERSION_NUMBER/i.test(err.message)) return 'http: server gave HTTP response to HTTPS client';
      return err.message;
  }
}

/** apimachinery's NewGenericServerResponse message for an answer that is not a Status. */
function unexpectedResponse(code: number, serverMessage: string): string {
  switch (code) {
    case 409: return 'the server reported a conflict';
    case 404: return 'the server could not find the requested resource';
    case 400: return 'the server rejected our request for an unknown reason';
    case 401: return 'the server has asked for the client to provide credentials';
    case 403: return serverMessage;
    case 405: return 'the server does not allow this method on the requested resource';
    case 406: return serverMessage === 'unknown' || !serverMessage ? 'the server was unable to respond with a content type that the client supports' : serverMessage;
    case 415: return serverMessage;
    case 422: return 'the server rejected our request due to an error in our request';
    case 429: return 'the server has received too many requests and has asked us to try again later';
    case 503: return 'the server is currently unable to handle the request';
    case 504: return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    default:
      return code >= 500 ? `an error on the server (${quote(serverMessage)}) has prevented the request from succeeding` : `the server responded with the status code ${code} but did not return more information`;
  }
}

interface RawResponse { status: number; contentType: string; body: string }

export class WebhookClient {
  private readonly services: ServiceLookup;
  private readonly agent = new https.Agent({ keepAlive: true });

  constructor(services: ServiceLookup) {
    this.services = services;
  }

  /**
   * POSTs `body` and answers the parsed JSON of a 2xx answer. Throws WebhookClientError with the reason
   * Kubernetes gives (`failed to call webhook: ...` for the call, `could not get REST client: ...`).
   */
  async post(cc: ClientConfigT, body: string, timeoutSeconds: number): Promise<unknown> {
    const target = targetOf(cc, timeoutSeconds);
    const deadline = Date.now() + timeoutSeconds * 1000;
    const fail = (detail: string) => new WebhookClientError(`failed to call webhook: Post ${quote(target.url)}: ${detail}`);
    let host = target.host ?? '';
    let port = target.port;
    if (target.service) {
      let svc: ApiObject | undefined;
      try {
        svc = await this.services(target.service.namespace, target.service.name);
        ({ host, port } = serviceAddress(svc, target.service.name, port));
      } catch (err) {
        throw fail((err as Error).message);
      }
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw fail('context deadline exceeded');
    let res: RawResponse;
    try {
      res = await this.send(target, host, port, body, remaining).catch((err: unknown) => {
        // A kept-alive connection the server closed as the review was sent: Go's client sends it again on a new one.
        if (err instanceof StaleConnection && deadline > Date.now()) return this.send(target, host, port, body, deadline - Date.now());
        throw err;
      });
    } catch (err) {
      if (err instanceof DeadlineExceeded) throw fail('context deadline exceeded');
      throw fail(goNetError(err as NodeJS.ErrnoException, host, port));
    }
    return readAnswer(res);
  }

  private async send(target: Target, host: string, port: number, body: string, timeoutMs: number): Promise<RawResponse> {
    const res = await postOnce(https.request, {
      host, port, path: target.path, agent: this.agent, ca: target.ca,
      ...(target.servername ? { servername: target.servername } : {}),
      headers: { 'content-type': 'application/json', accept: 'application/json, */*', 'user-agent': 'kube-apiserver-admission', 'content-length': Buffer.byteLength(body) },
    }, body, timeoutMs, () => new DeadlineExceeded(), (e, req) => (req.reusedSocket && e.code === 'ECONNRESET' ? new StaleConnection(e.message) : e));
    return { status: res.status, contentType: String(res.headers['content-type'] ?? ''), body: res.body };
  }

  /** Closes idle kept-alive connections (the server is stopping). */
  close(): void {
    this.agent.destroy();
  }
}

class DeadlineExceeded extends Error {}
class StaleConnection extends Error {
  readonly code = 'ECONNRESET';
}

/** The answer as client-go's Do().Into() reads it: a 2xx JSON body, or the error a Status or the code stands for. */
function readAnswer(res: RawResponse): unknown {
  let value: unknown;
  let parseError: string | undefined;
  try {
    value = parseJsonStrict(res.body).value;
  } catch (err) {
    parseError = (err as Error).message;
  }
  if (res.status >= 200 && res.status <= 206) {
    if (parseError !== undefined) throw new WebhookClientError(`failed to call webhook: ${versionKindError(parseError)}`);
    return value;
  }
  const v = value as { kind?: unknown; message?: unknown } | undefined;
  if (v && typeof v === 'object' && v.kind === 'Status') throw new WebhookClientError(`failed to call webhook: ${typeof v.message === 'string' ? v.message : ''}`);
  const text = /^text\//i.test(res.contentType) ? res.body.trim() : 'unknown';
  throw new WebhookClientError(`failed to call webhook: ${unexpectedResponse(res.status, text)}`);
}
