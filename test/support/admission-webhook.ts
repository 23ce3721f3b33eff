// A real HTTPS admission webhook for tests: its own CA (the caBundle to configure), a serving certificate
// for 127.0.0.1, localhost and any extra names, every AdmissionReview it receives kept, and answers made
// by `answer` (a review's response fields, or raw HTTP with `{ raw }`), optionally after a delay.
import { createServer, type Server } from 'node:https';
import { generateCertificateAuthority } from '../../src/pki/authority.ts';
import { issueServingCertificate } from '../../src/pki/sign.ts';
import assert from 'node:assert/strict';
import type { TestServer } from './capstan.ts';

export const MUTATING = '/apis/admissionregistration.svc.io/v1/mutatingwebhookconfigurations';
export const VALIDATING = '/apis/admissionregistration.svc.io/v1/validatingwebhookconfigurations';

/** Stores a webhook configuration and waits until admission reads it; answers its removal (waited for too). */
export async function configureWebhooks(s: TestServer, collection: string, name: string, webhooks: unknown[]): Promise<() => Promise<void>> {
  const kind = collection === MUTATING ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
  const r = await s.request('POST', collection, { body: JSON.stringify({ apiVersion: 'admissionregistration.svc.io/v1', kind, metadata: { name }, webhooks }) });
  assert.equal(r.status, 201, r.body);
  // A list without resourceVersion is a consistent read: the cache webhooks are read from has caught up.
  assert.equal((await s.request('GET', collection)).status, 200);
  return async () => {
    assert.equal((await s.request('DELETE', `${collection}/${name}`)).status, 200);
    assert.equal((await s.request('GET', collection)).status, 200);
  };
}

export interface RawAnswer { raw: { status: number; body: string; contentType?: string } }
export type Answer = Record<string, unknown> | RawAnswer;

export interface AdmissionWebhookServer {
  port: number;
  /** `https://127.0.0.1:<port>` */
  origin: string;
  /** The CA's PEM, base64 (clientConfig.caBundle). */
  caBundle: string;
  /** Every review received, with the request path. */
  reviews: { path: string; review: any }[];
  /** Answers a review with the response fields (uid and the review's apiVersion are filled in). */
  answer: (review: any, path: string) => Answer | Promise<Answer>;
  /** Delays every answer by this many milliseconds. */
  delayMs: number;
  close(): Promise<void>;
}

/** A JSON patch answer, base64-encoded as AdmissionResponse.patch. */
export function jsonPatch(ops: unknown[]): { patch: string; patchType: 'JSONPatch' } {
  return { patch: Buffer.from(JSON.stringify(ops)).toString('base64'), patchType: 'JSONPatch' };
}

/** `listen`: the address to listen on (127.0.0.1; `0.0.0.0` reaches it at any loopback address, such as a
 *  Service's cluster IP in 127.0.0.0/8); `origin` is on 127.0.0.1 either way. */
export async function startAdmissionWebhook(opts: { dnsNames?: string[]; listen?: string } = {}): Promise<AdmissionWebhookServer> {
  const ca = await generateCertificateAuthority({ commonName: 'webhook-test-ca' });
  const serving = await issueServingCertificate(ca, { dnsNames: ['localhost', ...(opts.dnsNames ?? [])], ipAddresses: ['127.0.0.1'] });
  const hook: AdmissionWebhookServer = {
    port: 0, origin: '', caBundle: Buffer.from(ca.certPem).toString('base64'), reviews: [],
    answer: () => ({ allowed: true }), delayMs: 0, close: async () => {},
  };
  const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      hook.reviews.push({ path: req.url ?? '', review });
      const answer = await hook.answer(review, req.url ?? '');
      if (hook.delayMs) await new Promise((r) => setTimeout(r, hook.delayMs));
      if (res.destroyed) return;
      if ('raw' in answer) {
        const raw = (answer as RawAnswer).raw;
        res.writeHead(raw.status, { 'content-type': raw.contentType ?? 'application/json' });
        res.end(raw.body);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request?.uid, ...answer } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, opts.listen ?? '127.0.0.1', () => r()));
  hook.port = (server.address() as { port: number }).port;
  hook.origin = `https://127.0.0.1:${hook.port}`;
  hook.close = () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); });
  return hook;
}
