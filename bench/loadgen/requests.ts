// Turns a RequestSpec into concrete requests: method, path, headers and body for the i-th request.
import { configMapPath, createBody, indexedName, mergePatchBody } from '../lib/configmap.ts';
import type { RequestSpec } from './jobs.ts';

export interface ConcreteRequest { method: string; path: string; headers: Record<string, string>; body?: string }

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** Returns a generator of requests; `next()` gives a new request each call. */
export function requestSource(spec: RequestSpec): () => ConcreteRequest {
  switch (spec.type) {
    case 'get-random':
      return () => ({
        method: 'GET',
        path: configMapPath(spec.namespace, indexedName(spec.namePrefix, Math.floor(Math.random() * spec.count))),
        headers: { accept: 'application/json' },
      });
    case 'create-generated': {
      const body = JSON.stringify(createBody(spec.namespace));
      const path = configMapPath(spec.namespace);
      return () => ({ method: 'POST', path, headers: JSON_HEADERS, body });
    }
    case 'create-named': {
      let next = spec.start;
      const path = configMapPath(spec.namespace);
      return () => ({ method: 'POST', path, headers: JSON_HEADERS, body: JSON.stringify(createBody(spec.namespace, indexedName(spec.namePrefix, next++))) });
    }
    case 'patch-random': {
      let counter = 0;
      return () => ({
        method: 'PATCH',
        path: configMapPath(spec.namespace, indexedName(spec.namePrefix, Math.floor(Math.random() * spec.count))),
        headers: { 'content-type': 'application/merge-patch+json', accept: 'application/json' },
        body: mergePatchBody(counter++),
      });
    }
  }
}
