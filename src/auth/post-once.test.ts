import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { postOnce } from './post-once.ts';

test('posts the payload and answers the status, headers and whole body; a slow answer ends with the timeout error; request errors as `failure` words them', async () => {
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => { text += c; });
    req.on('end', () => {
      if (req.url === '/slow') return;
      res.writeHead(201, { 'content-type': 'application/json' });
      res.write(`{"method":"${req.method}",`);
      res.end(`"got":${text}}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  try {
    const answer = await postOnce(http.request, { host: '127.0.0.1', port, path: '/' }, '{"a":1}', 5000, () => new Error('deadline'));
    assert.equal(answer.status, 201);
    assert.equal(answer.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(answer.body), { method: 'POST', got: { a: 1 } });
    await assert.rejects(postOnce(http.request, { host: '127.0.0.1', port, path: '/slow' }, '{}', 50, () => new Error('deadline')), /^Error: deadline$/);
    // An idle socket (options.timeout) ends the same way.
    await assert.rejects(postOnce(http.request, { host: '127.0.0.1', port, path: '/slow', timeout: 20 }, '{}', 5000, () => new Error('idle')), /^Error: idle$/);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  await assert.rejects(postOnce(http.request, { host: '127.0.0.1', port, path: '/' }, '{}', 5000, () => new Error('deadline'), (e) => new Error(`refused: ${e.code}`)), /^Error: refused: ECONNREFUSED$/);
});
