// Untimed set-up calls from the orchestrator to a Capstan server: namespaces, a few named objects, the
// current resourceVersion of a collection, and the count and JSON size of what is stored.
import { H1Connection } from '../loadgen/h1-client.ts';
import { configMapPath, createBody } from './configmap.ts';
import type { Target } from './tls.ts';

export class ApiClient {
  private readonly conn: H1Connection;
  constructor(target: Target) { this.conn = new H1Connection(target); }

  async call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; json: any; text: string }> {
    const r = await this.conn.request(method, path, body === undefined ? {} : { 'content-type': contentType }, body === undefined ? undefined : JSON.stringify(body));
    const text = r.body.toString('utf8');
    let json: any = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: r.status, json, text };
  }

  async ensureNamespace(name: string): Promise<void> {
    const r = await this.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    if (r.status !== 201 && r.status !== 409) throw new Error(`creating namespace ${name}: ${r.status} ${r.text.slice(0, 300)}`);
  }

  async ensureConfigMap(namespace: string, name: string): Promise<void> {
    const r = await this.call('POST', configMapPath(namespace), createBody(namespace, name));
    if (r.status !== 201 && r.status !== 409) throw new Error(`creating configmap ${namespace}/${name}: ${r.status} ${r.text.slice(0, 300)}`);
  }

  async collectionResourceVersion(namespace: string): Promise<string> {
    const r = await this.call('GET', `${configMapPath(namespace)}?limit=1`);
    const rv = r.json?.metadata?.resourceVersion;
    if (r.status !== 200 || typeof rv !== 'string') throw new Error(`listing ${namespace}: ${r.status} ${r.text.slice(0, 300)}`);
    return rv;
  }

  /** Counts ConfigMaps in all namespaces and sums their JSON size (each as a GET would answer it). */
  async configMapCensus(): Promise<{ count: number; jsonBytes: number }> {
    let count = 0;
    let jsonBytes = 0;
    let token = '';
    do {
      const r = await this.call('GET', `/api/v1/configmaps?limit=5000${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      if (r.status !== 200) throw new Error(`listing configmaps: ${r.status} ${r.text.slice(0, 300)}`);
      for (const item of r.json.items ?? []) {
        count++;
        jsonBytes += Buffer.byteLength(JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', ...item }));
      }
      token = r.json.metadata?.continue ?? '';
    } while (token);
    return { count, jsonBytes };
  }

  close(): void { this.conn.close(); }
}
