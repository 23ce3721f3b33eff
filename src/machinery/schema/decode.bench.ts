// Micro-benchmark of the create path's body handling on a ~1 KB ConfigMap:
// `node src/machinery/schema/decode.bench.ts`. Prints µs per body (median of several rounds).
import { S } from '../../apis/meta/schema.ts';
import { ObjectMeta } from '../../apis/meta/v1.ts';
import { decodeObject } from './decode.ts';
import { applyDefaults } from './defaults.ts';
import { parseJsonStrict } from './json-parse.ts';
import { validateStructure } from './validate.ts';

const ConfigMap = S.object({
  apiVersion: S.string(), kind: S.string(), metadata: ObjectMeta, data: S.map(S.string()), binaryData: S.map(S.bytes()), immutable: S.bool(),
}, { ref: 'core.v1.ConfigMap' });

const data: Record<string, string> = {};
for (let i = 0; i < 14; i++) data[`key-${i}`] = `value-${i}-` + 'x'.repeat(40);
const body = JSON.stringify({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'bench-0001', namespace: 'default', labels: { app: 'bench', 'app.platform.io/name': 'bench' }, annotations: { note: 'created: by bench' } },
  data,
});
const dupBody = body.replace('"data":{', '"data":{"key-0":"dup",');
const opts = { kind: 'ConfigMap', apiVersion: 'v1' };

function measure(name: string, f: () => void): void {
  const rounds: number[] = [];
  for (let r = 0; r < 7; r++) {
    const n = 50000;
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) f();
    rounds.push(Number(process.hrtime.bigint() - t) / n / 1000);
  }
  rounds.sort((a, b) => a - b);
  console.log(`${name.padEnd(46)} ${rounds[3].toFixed(2)} µs`);
}

console.log(`body: ${Buffer.byteLength(body)} bytes`);
measure('JSON.parse', () => { JSON.parse(body); });
measure('parseJsonStrict', () => { parseJsonStrict(body); });
measure('parseJsonStrict + decodeObject', () => { decodeObject(parseJsonStrict(body).value, ConfigMap, opts); });
measure('parseJsonStrict + decodeObject + applyDefaults', () => { applyDefaults(decodeObject(parseJsonStrict(body).value, ConfigMap, opts).object, ConfigMap); });
measure('... + validateStructure', () => {
  const o = applyDefaults(decodeObject(parseJsonStrict(body).value, ConfigMap, opts).object, ConfigMap);
  validateStructure(o, ConfigMap);
});
measure('parseJsonStrict, body with a duplicate key', () => { parseJsonStrict(dupBody); });
