// The HTTP floor: a bare node:http2 secure server (HTTP/1.1 allowed, like Capstan's listener) with no API
// logic. GET answers a fixed ConfigMap, stringified on every request; POST, PUT and PATCH echo the
// parsed and re-serialised body. A GET with watch=1 streams, and each PATCH is also sent to the watches of
// its collection as a watch event (floor-watch.ts). Nothing real can be faster, so it is the ceiling our
// overhead is measured against.
//   node bench/floor-server.ts --cert FILE --key FILE [--ca FILE] [--port N]
// Reports its port over IPC when forked ({ port }), else prints "listening <port>".
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { storedConfigMap } from './lib/configmap.ts';
import { FloorWatches, collectionOf, isWatchRequest } from './floor-watch.ts';

const { values } = parseArgs({ options: { cert: { type: 'string' }, key: { type: 'string' }, ca: { type: 'string' }, port: { type: 'string', default: '0' } } });
if (!values.cert || !values.key) {
  process.stderr.write('usage: floor-server.ts --cert FILE --key FILE [--ca FILE] [--port N]\n');
  process.exit(2);
}

const fixed = storedConfigMap('default', 'floor');
const watches = new FloorWatches();

function answer(res: Http2ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function handle(req: Http2ServerRequest, res: Http2ServerResponse): void {
  if (req.method === 'GET' && isWatchRequest(req.url)) {
    watches.open(collectionOf(req.url, false), res);
    return;
  }
  if (req.method === 'GET') {
    answer(res, 200, JSON.stringify(fixed));
    return;
  }
  const parts: Buffer[] = [];
  req.on('data', (d: Buffer) => parts.push(d));
  req.on('end', () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.concat(parts).toString('utf8'));
    } catch {
      answer(res, 400, '{"kind":"Status","status":"Failure","code":400}');
      return;
    }
    answer(res, req.method === 'POST' ? 201 : 200, JSON.stringify(parsed));
    if (req.method === 'PATCH') watches.publish(req.url, parsed);
  });
}

const server = createSecureServer({
  cert: readFileSync(values.cert),
  key: readFileSync(values.key),
  // Like Capstan: ask for a client certificate (the handshake costs the same), but do not require one.
  ...(values.ca ? { ca: readFileSync(values.ca), requestCert: true, rejectUnauthorized: false } : {}),
  allowHTTP1: true,
}, handle);

server.listen(Number(values.port), '127.0.0.1', () => {
  const port = (server.address() as AddressInfo).port;
  if (process.send) process.send({ port });
  else process.stdout.write(`listening ${port}\n`);
});

process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
