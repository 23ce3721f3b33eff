// A JSON-over-HTTPS client configured by a kubeconfig file, the way webhooks are reached: the current
// context's cluster (server, certificate authority) and user (client certificate, key, bearer token).
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import https from 'node:https';
import type * as Https from 'node:https';
import type * as Http from 'node:http';
import { createRequire } from 'node:module';
import YAML from '../machinery/yaml.ts';
import { postOnce } from './post-once.ts';

// Imported as ESM, node:http reads every export, WebSocket's too, which loads Node's bundled fetch client
// (~5 MB of memory in every server, webhooks or not); required as CommonJS it does not.
const http = createRequire(import.meta.url)('node:http') as typeof Http;

export interface WebhookConnection {
  server: URL;
  ca?: string;
  cert?: string;
  key?: string;
  token?: string;
  insecureSkipTlsVerify: boolean;
}

interface Named<T> { name: string; [k: string]: unknown; cluster?: T; user?: T; context?: T }

/** Reads a kubeconfig and picks the current context's cluster and user (or the first of each). */
export function loadWebhookKubeconfig(path: string): WebhookConnection {
  const text = readFileSync(path, 'utf8');
  let doc: Record<string, unknown>;
  try { doc = YAML.parse(text) ?? {}; } catch (err) { throw new Error(`invalid kubeconfig ${path}: ${(err as Error).message}`); }
  const base = dirname(path);
  const list = <T>(k: string) => (Array.isArray(doc[k]) ? (doc[k] as Named<T>[]) : []);
  const clusters = list<Record<string, unknown>>('clusters');
  const users = list<Record<string, unknown>>('users');
  const contexts = list<{ cluster?: string; user?: string }>('contexts');
  const ctx = contexts.find((c) => c.name === doc['current-context'])?.context;
  const cluster = (ctx?.cluster ? clusters.find((c) => c.name === ctx.cluster) : clusters[0])?.cluster;
  const user = (ctx?.user ? users.find((u) => u.name === ctx.user) : users[0])?.user ?? {};
  if (!cluster || typeof cluster.server !== 'string' || !cluster.server) throw new Error(`kubeconfig ${path} names no cluster server`);
  let server: URL;
  try { server = new URL(cluster.server); } catch { throw new Error(`kubeconfig ${path}: invalid server URL ${JSON.stringify(cluster.server)}`); }
  const file = (p: unknown) => readFileSync(isAbsolute(String(p)) ? String(p) : resolve(base, String(p)), 'utf8');
  const pick = (o: Record<string, unknown>, dataKey: string, fileKey: string) =>
    typeof o[dataKey] === 'string' ? Buffer.from(o[dataKey] as string, 'base64').toString('utf8') : typeof o[fileKey] === 'string' ? file(o[fileKey]) : undefined;
  return {
    server,
    ca: pick(cluster, 'certificate-authority-data', 'certificate-authority'),
    cert: pick(user, 'client-certificate-data', 'client-certificate'),
    key: pick(user, 'client-key-data', 'client-key'),
    token: typeof user.token === 'string' ? user.token : typeof user.tokenFile === 'string' ? file(user.tokenFile).trim() : undefined,
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
  };
}

export interface JsonResponse {
  status: number;
  body: string;
}

/** POSTs JSON and answers the response body; rejects on a network error or after `timeoutMs`. */
export function postJson(conn: WebhookConnection, agent: Http.Agent | undefined, body: unknown, timeoutMs: number): Promise<JsonResponse> {
  const payload = JSON.stringify(body);
  const secure = conn.server.protocol === 'https:';
  const options: Https.RequestOptions = {
    host: conn.server.hostname.replace(/^\[|\]$/g, ''),
    port: conn.server.port || (secure ? 443 : 80),
    path: conn.server.pathname + conn.server.search,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'content-length': Buffer.byteLength(payload),
      ...(conn.token ? { authorization: `Bearer ${conn.token}` } : {}),
    },
    agent,
    ...(secure ? { ca: conn.ca, cert: conn.cert, key: conn.key, rejectUnauthorized: !conn.insecureSkipTlsVerify } : {}),
    timeout: timeoutMs,
  };
  return postOnce(secure ? https.request : http.request, options, payload, timeoutMs, () => new Error(`timed out after ${timeoutMs}ms`))
    .then((res) => ({ status: res.status, body: res.body }));
}

/** A keep-alive agent for one webhook (connections are reused between reviews). */
export function webhookAgent(conn: WebhookConnection): Http.Agent {
  return conn.server.protocol === 'https:' ? new https.Agent({ keepAlive: true, maxSockets: 64 }) : new http.Agent({ keepAlive: true, maxSockets: 64 });
}
