import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateServingCert } from '../lib/tls.ts';
import { H1Connection } from './h1-client.ts';

test('keep-alive requests with content-length and chunked answers, on one connection', async () => {
  const { cert, key } = generateServingCert();
  const sockets = new Set<unknown>();
  const server = createServer({ cert, key }, (req, res) => {
    sockets.add(req.socket);
    const parts: Buffer[] = [];
    req.on('data', (d) => parts.push(d));
    req.on('end', () => {
      if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        for (let i = 0; i < 1000; i++) res.write('x'.repeat(100));
        res.end('end');
        return;
      }
      const body = JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(parts).toString() });
      res.writeHead(req.method === 'POST' ? 201 : 404, { 'content-length': Buffer.byteLength(body), 'x-test': 'yes' });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const conn = new H1Connection({ url: `https://127.0.0.1:${port}` });
  try {
    const a = await conn.request('POST', '/a', { 'content-type': 'application/json' }, '{"x":1}');
    assert.equal(a.status, 201);
    assert.equal(a.headers['x-test'], 'yes');
    assert.deepEqual(JSON.parse(a.body.toString()), { method: 'POST', url: '/a', body: '{"x":1}' });
    const b = await conn.request('GET', '/chunked');
    assert.equal(b.status, 200);
    assert.equal(b.body.length, 100_003);
    const c = await conn.request('GET', '/missing');
    assert.equal(c.status, 404);
    assert.equal(sockets.size, 1);
  } finally {
    conn.close();
    server.close();
  }
});

test('a refused connection rejects the request', async () => {
  const conn = new H1Connection({ url: 'https://127.0.0.1:1' });
  await assert.rejects(conn.request('GET', '/'), /ECONNREFUSED/);
});

test('a server that never answers fails the request after the timeout', async () => {
  const { cert, key } = generateServingCert();
  const server = createServer({ cert, key }, () => { /* never answers */ });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const conn = new H1Connection({ url: `https://127.0.0.1:${(server.address() as AddressInfo).port}` }, 200);
  try {
    await assert.rejects(conn.request('GET', '/slow'), /GET \/slow: no answer in 200 ms/);
  } finally {
    conn.close();
    server.closeAllConnections();
    server.close();
  }
});
