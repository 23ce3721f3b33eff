import assert from 'node:assert/strict';
import type { TestServer } from './capstan.ts';

/** The `kubernetes` Service, once the server has made it (it does so after it starts serving). */
export async function kubernetesService(s: TestServer): Promise<{ spec: { clusterIP: string } }> {
  for (let tries = 0; ; tries++) {
    const r = await s.request('GET', '/api/v1/namespaces/default/services/kubernetes');
    if (r.status === 200) return r.json();
    if (tries >= 1000) assert.fail(`no kubernetes Service: ${r.status} ${r.body}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
