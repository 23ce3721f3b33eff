import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createSecureServer } from 'node:http2';
import { request } from 'node:https';
import type { TLSSocket, PeerCertificate } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { buildKubeconfig, serverUrl, writeKubeconfig } from './kubeconfig.ts';
import { ensurePki, pkiDir, type Pki } from './ensure.ts';
import { generateCertificateAuthority } from './authority.ts';
import { issueClientCertificate } from './sign.ts';

const run = promisify(execFile);

async function withWorkDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-kubeconfig-'));
  try {
    return await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** kubectl with only the given kubeconfig and a throwaway home, so nothing from the machine leaks in. */
function kubectl(home: string, kubeconfig: string, args: string[]) {
  const env = { PATH: process.env.PATH ?? '/usr/bin', HOME: home };
  return run('kubectl', ['--kubeconfig', kubeconfig, ...args], { env, encoding: 'utf8' });
}

interface SeenConnection {
  authorized: boolean;
  authorizationError: string | undefined;
  peer: PeerCertificate;
  alpn: string | false | null;
}

/** A throwaway TLS server like the real one (HTTP/2 with HTTP/1.1), asking for but not requiring client certificates. */
async function startTlsServer(pki: Pki) {
  const seen: SeenConnection[] = [];
  const server = createSecureServer({
    key: pki.servingKeyPem,
    cert: pki.servingCertPem,
    ca: pki.caCertPem,
    requestCert: true,
    rejectUnauthorized: false,
    allowHTTP1: true,
  });
  server.on('secureConnection', (socket: TLSSocket) => {
    seen.push({
      authorized: socket.authorized,
      authorizationError: socket.authorizationError?.toString(),
      peer: socket.getPeerCertificate(),
      alpn: socket.alpnProtocol,
    });
  });
  server.on('request', (req, res) => {
    const found = req.url === '/x';
    res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    res.end(found ? '{}' : '{"kind":"Status"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  const port = (server.address() as AddressInfo).port;
  return { seen, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function nodeGet(port: number, tlsOptions: { ca: string; cert?: string; key?: string; host?: string }) {
  return new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
    const req = request({ host: tlsOptions.host ?? '127.0.0.1', port, path: '/x', ...tlsOptions, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('buildKubeconfig inlines the certificates as base64 and names one cluster, user and context', () => {
  const text = buildKubeconfig({ server: 'https://127.0.0.1:6443', caPem: 'CA', clientCertPem: 'CERT', clientKeyPem: 'KEY' });
  assert.deepEqual(parse(text), {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'capstan', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': 'Q0E=' } }],
    users: [{ name: 'capstan-admin', user: { 'client-certificate-data': 'Q0VSVA==', 'client-key-data': 'S0VZ' } }],
    contexts: [{ name: 'capstan', context: { cluster: 'capstan', user: 'capstan-admin' } }],
    'current-context': 'capstan',
    preferences: {},
  });
  const named = parse(buildKubeconfig({
    server: 'https://h:1', caPem: 'CA', clientCertPem: 'C', clientKeyPem: 'K', clusterName: 'c1', userName: 'u1', contextName: 'x1',
  }));
  assert.equal(named['current-context'], 'x1');
  assert.deepEqual(named.contexts, [{ name: 'x1', context: { cluster: 'c1', user: 'u1' } }]);
});

test('names that YAML would read as something else come back as the same strings', () => {
  for (const name of ['a: b', '#x', 'yes', 'No', 'null', '123', '0x1f', '- item', 'quote"d', 'back\\slash', 'tab\tnew\nline', 'ünïcode', '']) {
    const view = parse(buildKubeconfig({ server: 'https://[::1]:6443', caPem: 'CA', clientCertPem: 'C', clientKeyPem: 'K', clusterName: name, userName: name, contextName: name }));
    assert.equal(view['current-context'], name);
    assert.deepEqual(view.contexts, [{ name, context: { cluster: name, user: name } }]);
    assert.equal(view.clusters[0].cluster.server, 'https://[::1]:6443');
  }
});

test('serverUrl dials loopback for wildcard binds and brackets IPv6', () => {
  assert.equal(serverUrl('127.0.0.1', 6443), 'https://127.0.0.1:6443');
  assert.equal(serverUrl('0.0.0.0', 6443), 'https://127.0.0.1:6443');
  assert.equal(serverUrl('', 1), 'https://127.0.0.1:1');
  assert.equal(serverUrl('::', 6443), 'https://[::1]:6443');
  assert.equal(serverUrl('::1', 6443), 'https://[::1]:6443');
  assert.equal(serverUrl('[fd00::0:2]', 7), 'https://[fd00::2]:7');
  assert.equal(serverUrl('api.example.test', 443), 'https://api.example.test:443');
});

test('writeKubeconfig writes the file readable by its owner only', () =>
  withWorkDir(async (dir) => {
    const path = join(dir, 'kubeconfig');
    await writeKubeconfig(path, 'content');
    assert.equal(await readFile(path, 'utf8'), 'content');
    assert.equal((await stat(path)).mode & 0o777, 0o600);
  }));

test('kubectl reads the kubeconfig: config view and current-context', () =>
  withWorkDir(async (dir) => {
    const pki = await ensurePki(pkiDir(dir));
    const path = join(dir, 'admin.kubeconfig');
    await writeKubeconfig(path, buildKubeconfig({
      server: 'https://127.0.0.1:6443', caPem: pki.caCertPem, clientCertPem: pki.adminCertPem, clientKeyPem: pki.adminKeyPem,
    }));
    const view = JSON.parse((await kubectl(dir, path, ['config', 'view', '--raw', '-o', 'json'])).stdout);
    assert.equal(view['current-context'], 'capstan');
    assert.equal(view.clusters[0].cluster.server, 'https://127.0.0.1:6443');
    assert.equal(Buffer.from(view.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), pki.caCertPem);
    assert.equal(Buffer.from(view.users[0].user['client-certificate-data'], 'base64').toString(), pki.adminCertPem);
    assert.equal(Buffer.from(view.users[0].user['client-key-data'], 'base64').toString(), pki.adminKeyPem);
    assert.equal((await kubectl(dir, path, ['config', 'current-context'])).stdout.trim(), 'capstan');
  }));

test('TLS end to end: the server reads the admin identity; kubectl (Go TLS) connects by IP, name and IPv6', () =>
  withWorkDir(async (dir) => {
    const pki = await ensurePki(pkiDir(dir));
    const server = await startTlsServer(pki);
    try {
      const answer = await nodeGet(server.port, { ca: pki.caCertPem, cert: pki.adminCertPem, key: pki.adminKeyPem });
      assert.deepEqual(answer, { status: 200, body: '{}' });
      const admin = server.seen.at(-1)!;
      assert.equal(admin.authorized, true);
      assert.equal(admin.peer.subject.CN, 'capstan-admin');
      assert.equal(admin.peer.subject.O, 'system:masters');

      // A certificate from some other CA is presented but not trusted.
      const stranger = await issueClientCertificate(await generateCertificateAuthority(), { commonName: 'mallory', organizations: ['system:masters'] });
      await nodeGet(server.port, { ca: pki.caCertPem, cert: stranger.certPem, key: stranger.keyPem });
      assert.equal(server.seen.at(-1)!.authorized, false);
      assert.match(server.seen.at(-1)!.authorizationError ?? '', /UNABLE_TO_VERIFY_LEAF_SIGNATURE/);

      // And none at all is fine at the TLS level (anonymous requests are the server's call).
      await nodeGet(server.port, { ca: pki.caCertPem });
      assert.equal(server.seen.at(-1)!.authorized, false);
      assert.equal(Object.keys(server.seen.at(-1)!.peer).length, 0);

      for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
        const path = join(dir, `kubeconfig-${server.seen.length}`);
        await writeKubeconfig(path, buildKubeconfig({
          server: `https://${host}:${server.port}`, caPem: pki.caCertPem, clientCertPem: pki.adminCertPem, clientKeyPem: pki.adminKeyPem,
        }));
        const { stdout } = await kubectl(dir, path, ['get', '--raw', '/x']);
        assert.equal(stdout.trim(), '{}', host);
        const seen = server.seen.at(-1)!;
        assert.equal(seen.authorized, true, host);
        assert.equal(seen.peer.subject.CN, 'capstan-admin');
        assert.equal(seen.alpn, 'h2', 'kubectl speaks HTTP/2');
      }
    } finally {
      await server.close();
    }
  }));

test('kubectl refuses a server whose certificate does not cover the host it dials', () =>
  withWorkDir(async (dir) => {
    const pki = await ensurePki(pkiDir(dir));
    const server = await startTlsServer(pki);
    try {
      const path = join(dir, 'kubeconfig');
      // 127.0.0.2 is loopback too, but not certified.
      await writeKubeconfig(path, buildKubeconfig({
        server: `https://127.0.0.2:${server.port}`, caPem: pki.caCertPem, clientCertPem: pki.adminCertPem, clientKeyPem: pki.adminKeyPem,
      }));
      await assert.rejects(kubectl(dir, path, ['get', '--raw', '/x']), (error: Error & { stderr?: string }) => {
        assert.match(error.stderr ?? '', /x509: certificate is valid for 127\.0\.0\.1, ::1, not 127\.0\.0\.2/);
        return true;
      });
    } finally {
      await server.close();
    }
  }));
