// Times startServer() in a fresh process: from the call to the first answered request (GET /readyz 200
// with the admin client certificate). The module import is timed separately; it is not part of the call.
//   node bench/probe-start-server.ts <repoRoot> <dataDir>
// Sends { importMs, startMs, firstRequestMs, mode } over IPC, or { error }.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { credentialsFromKubeconfig, type KubeconfigCredentials } from './lib/tls.ts';

interface StartedServer { url: string; caCertPem?: string; adminCertPem?: string; adminKeyPem?: string; kubeconfig?: unknown; kubeconfigPath?: string; stop(): Promise<void> | void }

function get(url: string, c: Partial<KubeconfigCredentials>): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, rejectUnauthorized: false, servername: 'localhost', ca: c.ca, cert: c.cert, key: c.key }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

// The client takes the admin credentials startServer() hands out; a server without them (older commits)
// is read through its kubeconfig, whose YAML parsing then counts in the time (about 4 ms, cold).
function credentials(s: StartedServer): KubeconfigCredentials {
  if (s.caCertPem && s.adminCertPem && s.adminKeyPem) return { server: s.url, ca: s.caCertPem, cert: s.adminCertPem, key: s.adminKeyPem };
  if (s.kubeconfig && (typeof s.kubeconfig === 'string' || typeof s.kubeconfig === 'object')) {
    try { return credentialsFromKubeconfig(s.kubeconfig as string | Record<string, unknown>); } catch { /* fall through to the file */ }
  }
  if (!s.kubeconfigPath) throw new Error('startServer() returned neither a usable kubeconfig nor kubeconfigPath');
  return credentialsFromKubeconfig(readFileSync(s.kubeconfigPath, 'utf8'));
}

async function main(): Promise<Record<string, unknown>> {
  const [repoRoot, dataDir] = process.argv.slice(2);
  const i0 = performance.now();
  const mod = await import(pathToFileURL(join(repoRoot, 'src', 'index.ts')).href) as { startServer(o: Record<string, unknown>): Promise<StartedServer> };
  const importMs = performance.now() - i0;
  let mode = 'inMemory';
  const t0 = performance.now();
  let server: StartedServer;
  try {
    server = await mod.startServer({ inMemory: true, port: 0 });
  } catch {
    mode = 'dataDir';
    server = await mod.startServer({ dataDir, port: 0 });
  }
  const started = performance.now();
  const creds = credentials(server);
  let status = 0;
  for (let attempt = 0; attempt < 2000 && status !== 200; attempt++) status = await get(`${server.url.replace(/\/$/, '')}/readyz`, creds);
  const answered = performance.now();
  await server.stop();
  if (status !== 200) throw new Error(`startServer(): /readyz never answered 200 (last status ${status})`);
  return { importMs, startMs: answered - t0, callMs: started - t0, mode };
}

const reply = (msg: Record<string, unknown>, code: number) => process.send!(msg, () => process.exit(code));
main().then(
  (result) => reply(result, 0),
  (e: unknown) => reply({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }, 1),
);
