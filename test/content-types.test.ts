// End-to-end over raw HTTPS: content negotiation (406, 415), YAML in and out, protobuf get, list, watch and
// bodies, CBOR with its feature gate on and off, gzip on a large list, and kubectl's protobuf create bodies.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { gunzipSync } from 'node:zlib';
import YAML from 'yaml';
import { startTestServer, rawRequest as raw, type TestServer, type RawResponse } from './support/capstan.ts';
import { decodeProtobufObject, encodeProtobufObject, readProtobufWatchFrames } from '../src/server/codecs/protobuf-objects.ts';
import { decodeCbor, decodeCborSequence, encodeCbor, CborTag, type CborValue } from '../src/server/codecs/cbor.ts';
import { decodeCborValue } from '../src/server/codecs/cbor-json.ts';

/** Opens a watch and reads until `done` says the bytes so far suffice; then hangs up. */
function watch(s: TestServer, path: string, headers: Record<string, string>, done: (bytes: Buffer) => boolean): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, s.url);
    const req = httpsRequest({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'GET', agent: false,
      ca: s.credentials.ca, cert: s.credentials.cert, key: s.credentials.key, headers,
    }, (res) => {
      let body = Buffer.alloc(0);
      const finish = () => { resolve({ status: res.statusCode!, headers: res.headers, body }); req.destroy(); };
      res.on('data', (c: Buffer) => { body = Buffer.concat([body, c]); if (done(body)) finish(); });
      res.on('end', finish);
    });
    req.on('error', (err) => { if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err); });
    req.end();
  });
}

const json = (r: RawResponse) => JSON.parse(r.body.toString('utf8'));
const configMap = (name: string, data: Record<string, string> = { a: 'b' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

describe('content types with the default feature gates', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('406 with a Status when no acceptable type can be served', async () => {
    const r = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps', { accept: 'text/html' });
    assert.equal(r.status, 406);
    assert.equal(r.headers['content-type'], 'application/json');
    const st = json(r);
    assert.equal(st.kind, 'Status');
    assert.equal(st.reason, 'NotAcceptable');
    assert.equal(st.message, 'only the following media types are accepted: application/json, application/yaml, application/vnd.platform.protobuf');
    // CBOR is not served while its gate is off.
    assert.equal((await raw(s, 'GET', '/api/v1/namespaces', { accept: 'application/cbor' })).status, 406);
    // A watch has no YAML stream.
    const w = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps?watch=1', { accept: 'application/yaml' });
    assert.equal(w.status, 406);
    // The error itself is negotiated as for any response, so it comes in YAML (as Kubernetes answers).
    assert.equal(w.headers['content-type'], 'application/yaml');
    assert.equal(YAML.parse(w.body.toString()).message, 'only the following media types are accepted: application/json;stream=watch, application/vnd.platform.protobuf;stream=watch');
  });

  it('415 for a body in an unsupported type, CBOR included while its gate is off', async () => {
    for (const contentType of ['text/plain', 'application/cbor']) {
      const r = await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', { 'content-type': contentType }, JSON.stringify(configMap('u')));
      assert.equal(r.status, 415, contentType);
      const st = json(r);
      assert.equal(st.reason, 'UnsupportedMediaType');
      assert.equal(st.message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.platform.protobuf');
    }
    const p = await raw(s, 'PATCH', '/api/v1/namespaces/default/configmaps/u', { 'content-type': 'application/apply-patch+cbor' }, encodeCbor({}));
    assert.equal(p.status, 415);
  });

  it('YAML in and out: bodies, objects, lists and errors', async () => {
    const body = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  z: "1"\n  a: two\n';
    const created = await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'application/yaml', accept: 'application/yaml' }, body);
    assert.equal(created.status, 201, created.body.toString());
    assert.equal(created.headers['content-type'], 'application/yaml');
    const text = created.body.toString();
    // Kubernetes' YAML: keys sorted.
    assert.ok(text.startsWith('apiVersion: v1\ndata:\n  a: two\n  z: "1"\nkind: ConfigMap\nmetadata:\n'), text);
    assert.equal(YAML.parse(text).metadata.name, 'from-yaml');
    // JSON in, YAML out and the other way round: request and response encodings are independent.
    const got = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps/from-yaml', { accept: 'application/json' });
    assert.equal(json(got).data.a, 'two');
    const list = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps', { accept: 'application/yaml' });
    const parsed = YAML.parse(list.body.toString());
    assert.equal(parsed.kind, 'ConfigMapList');
    assert.ok(parsed.items.some((i: { metadata: { name: string } }) => i.metadata.name === 'from-yaml'));
    // YAML 1.1, as go-yaml v2 writes it: strings a 1.1 reader (PyYAML, go-yaml) would take for a bool, a
    // number or a time are quoted; the rest stay plain.
    const ambiguous = { a: 'yes', b: 'on', c: '2026-01-01', d: '1:20', e: 'NO', f: 'y', g: 'plain' };
    const made = await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'application/json', accept: 'application/yaml' },
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'yaml-1-1' }, data: ambiguous }));
    assert.equal(made.status, 201, made.body.toString());
    const madeText = made.body.toString();
    assert.ok(madeText.includes('data:\n  a: "yes"\n  b: "on"\n  c: "2026-01-01"\n  d: "1:20"\n  e: "NO"\n  f: "y"\n  g: plain\n'), madeText);
    assert.match(madeText, /\n  creationTimestamp: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"\n/);
    assert.deepEqual(YAML.parse(madeText, { version: '1.1' }).data, ambiguous);
    const missing = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps/nope', { accept: 'application/yaml' });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['content-type'], 'application/yaml');
    assert.deepEqual(YAML.parse(missing.body.toString()), {
      apiVersion: 'v1', code: 404, details: { kind: 'configmaps', name: 'nope' }, kind: 'Status', message: 'configmaps "nope" not found', metadata: {}, reason: 'NotFound', status: 'Failure',
    });
  });

  it('protobuf bodies, get, list and errors, under the name the client used', async () => {
    const body = encodeProtobufObject(configMap('from-proto', { k: 'v', empty: '' }));
    const created = await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/vnd.kubernetes.protobuf' }, body);
    assert.equal(created.status, 201, created.body.toString());
    assert.equal(created.headers['content-type'], 'application/vnd.kubernetes.protobuf');
    assert.deepEqual([...created.body.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
    const obj = decodeProtobufObject(created.body) as { metadata: { name: string; uid: string; creationTimestamp: string }; data: unknown };
    assert.equal(obj.metadata.name, 'from-proto');
    assert.ok(obj.metadata.uid && obj.metadata.creationTimestamp);
    assert.deepEqual(obj.data, { k: 'v', empty: '' });

    const got = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps/from-proto', { accept: 'application/vnd.platform.protobuf' });
    assert.equal(got.headers['content-type'], 'application/vnd.platform.protobuf');
    const asJson = json(await raw(s, 'GET', '/api/v1/namespaces/default/configmaps/from-proto'));
    assert.deepEqual(decodeProtobufObject(got.body), asJson);

    const list = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps', { accept: 'application/vnd.kubernetes.protobuf' });
    const decoded = decodeProtobufObject(list.body) as { kind: string; metadata: { resourceVersion: string }; items: { metadata: { name: string } }[] };
    assert.equal(decoded.kind, 'ConfigMapList');
    assert.ok(Number(decoded.metadata.resourceVersion) > 0);
    assert.ok(decoded.items.some((i) => i.metadata.name === 'from-proto'));

    const missing = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps/nope', { accept: 'application/vnd.kubernetes.protobuf' });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['content-type'], 'application/vnd.kubernetes.protobuf');
    assert.deepEqual(decodeProtobufObject(missing.body), { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'configmaps "nope" not found', reason: 'NotFound', details: { name: 'nope', kind: 'configmaps' }, code: 404 });

    // A body that is not protobuf at all.
    const bad = await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'application/vnd.kubernetes.protobuf' }, '{"kind":"ConfigMap"}');
    assert.equal(bad.status, 400);
    assert.equal(json(bad).message, 'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"ConfigMap"})');

    // DeleteOptions in protobuf.
    const del = await raw(s, 'DELETE', '/api/v1/namespaces/default/configmaps/from-proto', { 'content-type': 'application/vnd.kubernetes.protobuf' }, encodeProtobufObject({ apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'not-the-uid' } }));
    assert.equal(del.status, 409, del.body.toString());
    assert.match(json(del).message, /the UID in the precondition \(not-the-uid\) does not match/);
  });

  it('types without a protobuf form answer in the next type the client accepts', async () => {
    const table = await raw(s, 'GET', '/api/v1/namespaces', { accept: 'application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1, application/json;as=Table;g=meta.k8s.io;v=v1, application/json' });
    assert.equal(table.status, 200);
    assert.equal(json(table).kind, 'Table');
    const discovery = await raw(s, 'GET', '/api', { accept: 'application/vnd.kubernetes.protobuf, application/json' });
    assert.equal(discovery.status, 200);
    assert.equal(json(discovery).kind, 'APIVersions');
    assert.equal((await raw(s, 'GET', '/apis', { accept: 'application/vnd.kubernetes.protobuf' })).status, 406);
  });

  it('protobuf watch: length-prefixed WatchEvents with enveloped objects', async () => {
    const list = json(await raw(s, 'GET', '/api/v1/namespaces/default/configmaps'));
    const rv = list.metadata.resourceVersion;
    const frames = (b: Buffer) => { try { return readProtobufWatchFrames(b); } catch { return []; } };
    const pending = watch(s, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`, { accept: 'application/vnd.kubernetes.protobuf' }, (b) => frames(b).length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'application/json' }, JSON.stringify(configMap('watched')));
    await raw(s, 'DELETE', '/api/v1/namespaces/default/configmaps/watched');
    const w = await pending;
    assert.equal(w.status, 200);
    assert.equal(w.headers['content-type'], 'application/vnd.kubernetes.protobuf;stream=watch');
    const events = frames(w.body);
    assert.deepEqual(events.map((e) => [e.type, e.object.kind, (e.object.metadata as { name: string }).name]), [['ADDED', 'ConfigMap', 'watched'], ['DELETED', 'ConfigMap', 'watched']]);
  });

  it('gzip on gets and lists when asked (the spec states no size); other answers above 128 KiB only; other clients get plain bodies', async () => {
    const big = 'x'.repeat(5000);
    for (let i = 0; i < 30; i++) {
      const r = await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'application/json' }, JSON.stringify(configMap(`big-${i}`, { big })));
      assert.equal(r.status, 201);
    }
    const zipped = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps', { 'accept-encoding': 'gzip' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.match(String(zipped.headers.vary), /Accept-Encoding/);
    const list = JSON.parse(gunzipSync(zipped.body).toString());
    assert.ok(list.items.length >= 30);
    const plain = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.length > 128 * 1024);
    assert.equal((await raw(s, 'GET', '/api/v1/namespaces/default/configmaps', { 'accept-encoding': 'gzip;q=0' })).headers['content-encoding'], undefined);
    const small = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps/big-1', { 'accept-encoding': 'gzip' });
    assert.equal(small.headers['content-encoding'], 'gzip');
    assert.equal(JSON.parse(gunzipSync(small.body).toString()).metadata.name, 'big-1');
    const created = await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'application/json', 'accept-encoding': 'gzip' }, JSON.stringify(configMap('small-write', { a: 'b' })));
    assert.equal(created.status, 201);
    assert.equal(created.headers['content-encoding'], undefined);
    const missing = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps/none', { 'accept-encoding': 'gzip' });
    assert.equal(missing.status, 404);
    assert.equal(JSON.parse(gunzipSync(missing.body).toString()).reason, 'NotFound');
  });

  it('kubectl create configmap, secret, serviceaccount and namespace (protobuf bodies) work', async () => {
    let r = await s.kubectl(['create', 'configmap', 'kc', '--from-literal=a=b']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['create', 'secret', 'generic', 'ks', '--from-literal=k=v']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['create', 'serviceaccount', 'ksa']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['create', 'namespace', 'kns']);
    assert.equal(r.code, 0, r.stderr);
    const cm = json(await raw(s, 'GET', '/api/v1/namespaces/default/configmaps/kc'));
    assert.deepEqual(cm.data, { a: 'b' });
    assert.equal(cm.metadata.generation, undefined);
    const secret = json(await raw(s, 'GET', '/api/v1/namespaces/default/secrets/ks'));
    assert.deepEqual(secret.data, { k: Buffer.from('v').toString('base64') });
    assert.equal(secret.type, 'Opaque');
    assert.equal(json(await raw(s, 'GET', '/api/v1/namespaces/default/serviceaccounts/ksa')).metadata.name, 'ksa');
    assert.equal(json(await raw(s, 'GET', '/api/v1/namespaces/kns')).status.phase, 'Active');
  });
});

describe('content types with CBORServingAndStorage on and APIResponseCompression off', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ featureGates: { CBORServingAndStorage: true, APIResponseCompression: false } }); });
  after(async () => { await s.stop(); });

  it('CBOR bodies and responses: one self-described data item', async () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'cb' }, data: { k: Buffer.from([0, 1, 2]).toString('base64') } };
    const body = encodeCbor(new CborTag(55799, { ...secret, data: { k: new CborTag(22, Uint8Array.of(0, 1, 2)) } }));
    const created = await raw(s, 'POST', '/api/v1/namespaces/default/secrets', { 'content-type': 'application/cbor', accept: 'application/cbor' }, body);
    assert.equal(created.status, 201, created.body.toString());
    assert.equal(created.headers['content-type'], 'application/cbor');
    assert.deepEqual([...created.body.subarray(0, 3)], [0xd9, 0xd9, 0xf7]);
    // []byte travels as a byte string tagged for base64.
    // Strings and field names are byte strings, as Kubernetes' encoder writes them, so maps decode as Maps.
    const rawItem = decodeCbor(created.body) as CborTag;
    const field = (m: CborValue, name: string) => [...(m as Map<CborValue, CborValue>)].find(([k]) => Buffer.from(k as Uint8Array).toString() === name)?.[1];
    assert.deepEqual(field(field(rawItem.value, 'data')!, 'k'), new CborTag(22, Uint8Array.of(0, 1, 2)));
    assert.deepEqual(field(rawItem.value, 'kind'), Uint8Array.from(Buffer.from('Secret')));
    const obj = decodeCborValue(created.body) as typeof secret;
    assert.deepEqual(obj.data, secret.data);
    // CBOR in, JSON out.
    const fromJson = json(await raw(s, 'GET', '/api/v1/namespaces/default/secrets/cb'));
    assert.deepEqual(decodeCborValue((await raw(s, 'GET', '/api/v1/namespaces/default/secrets/cb', { accept: 'application/cbor' })).body), fromJson);
    const bad = await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'application/cbor' }, Uint8Array.of(0xa1, 0x61));
    assert.equal(bad.status, 400);
    assert.match(json(bad).message, /^the object provided is unrecognized \(must be of type ConfigMap\): unexpected EOF/);
  });

  it('CBOR watch: an application/cbor-seq of events', async () => {
    const rv = json(await raw(s, 'GET', '/api/v1/namespaces/default/configmaps')).metadata.resourceVersion;
    const items = (b: Buffer) => { try { return decodeCborSequence(b); } catch { return []; } };
    const pending = watch(s, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`, { accept: 'application/cbor' }, (b) => items(b).length >= 1);
    await new Promise((r) => setTimeout(r, 100));
    await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'application/json' }, JSON.stringify(configMap('cw')));
    const w = await pending;
    assert.equal(w.headers['content-type'], 'application/cbor-seq');
    const [first] = items(w.body);
    const event = decodeCborValue(Buffer.from(encodeCbor(first))) as { type: string; object: { metadata: { name: string } } };
    assert.equal(event.type, 'ADDED');
    assert.equal(event.object.metadata.name, 'cw');
  });

  it('415 lists CBOR once it is on; no gzip with APIResponseCompression off', async () => {
    const r = await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'text/plain' }, 'x');
    assert.equal(json(r).message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.platform.protobuf, application/cbor');
    const big = 'x'.repeat(5000);
    for (let i = 0; i < 30; i++) await raw(s, 'POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'application/json' }, JSON.stringify(configMap(`big-${i}`, { big })));
    const list = await raw(s, 'GET', '/api/v1/namespaces/default/configmaps', { 'accept-encoding': 'gzip' });
    assert.equal(list.headers['content-encoding'], undefined);
    assert.ok(list.body.length > 128 * 1024);
  });
});
