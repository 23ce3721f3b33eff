// /healthz, /livez and /readyz as Kubernetes' API server answers them: `ok`, or with `?verbose` one line
// per check and a verdict; a failing check makes the answer a 500 that lists every check. `/livez/<check>`
// runs one check; `?exclude=<check>` (repeatable) skips checks, and names no check matches are reported.
// The store's check is called `etcd` whatever store backs the server, as clients and probes expect it.
import * as status from '../machinery/status.ts';
import { send, type Response } from './respond.ts';

export type HealthCheck = () => Promise<void>;

export interface HealthChecks {
  /** Checks of all three endpoints, after ping and log. */
  live: Record<string, HealthCheck>;
  /** Checks /readyz adds. */
  ready: Record<string, HealthCheck>;
}

const ENDPOINT = /^\/(healthz|livez|readyz)(?:\/([a-z-]+))?$/;

/** Whether `path` (without a trailing slash) is a health endpoint. */
export function isHealthPath(path: string): boolean {
  return ENDPOINT.test(path);
}

const ALWAYS: Record<string, HealthCheck> = { ping: async () => {}, log: async () => {} };

export async function serveHealth(checks: HealthChecks, res: Response, path: string, query: URLSearchParams): Promise<void> {
  const [, endpoint, only] = ENDPOINT.exec(path)!;
  const all: Record<string, HealthCheck> = { ...ALWAYS, ...checks.live, ...(endpoint === 'readyz' ? checks.ready : {}) };
  if (only && !all[only]) throw status.pathNotFound();
  const excluded = new Set(query.getAll('exclude'));
  const lines: string[] = [];
  let ok = true;
  for (const name of only ? [only] : Object.keys(all)) {
    if (excluded.delete(name)) {
      lines.push(`[+]${name} excluded: ok`);
      continue;
    }
    try {
      await all[name]();
      lines.push(`[+]${name} ok`);
    } catch {
      ok = false;
      lines.push(`[-]${name} failed: reason withheld`);
    }
  }
  if (excluded.size > 0) lines.push(`warn: some health checks cannot be excluded: no matches for ${[...excluded].sort().map((n) => JSON.stringify(n)).join(',')}`);
  const body = query.has('verbose') || !ok ? `${lines.join('\n')}\n${endpoint} check ${ok ? 'passed' : 'failed'}\n` : 'ok';
  send(res, ok ? 200 : 500, 'text/plain; charset=utf-8', body, { 'x-content-type-options': 'nosniff' });
}
