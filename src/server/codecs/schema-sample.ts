// A fully populated object for a schema: every field that has a protobuf number set, with values that
// exercise each wire shape (negative and 64-bit integers, false, both IntOrString forms, times with and
// without microseconds, maps in unsorted order, nested lists). Used to prove the codecs lose nothing.
import type { TSchema } from '@sinclair/typebox';
import { compileSchema, type SchemaNode } from './schema-nodes.ts';
import { zeroIsUnset } from '../../machinery/go-zero-values.ts';

export function sampleObject(schema: TSchema, typeMeta: { apiVersion: string; kind: string }): Record<string, unknown> {
  let counter = 0;
  const next = () => ++counter;
  const onPath = new Set<SchemaNode>();

  const value = (node: SchemaNode, name: string, depth: number): unknown => {
    const n = next();
    switch (node.kind) {
      case 'string': return `${name}-${n}`;
      case 'bytes': return Buffer.from([0, 1, 2, 0xfe, 0xff, n & 0xff]).toString('base64');
      case 'int32': return n % 2 ? -n : n * 1000;
      case 'int64': return n % 2 ? -(2 ** 40 + n) : 2 ** 40 + n;
      case 'double': return n + 0.25;
      case 'bool': return n % 2 === 0;
      case 'time': return `2024-05-06T07:08:${String(n % 60).padStart(2, '0')}Z`;
      case 'microtime': return `2024-05-06T07:08:09.${String(n).padStart(6, '0')}Z`;
      case 'quantity': return `${n}500m`;
      case 'intOrString': return n % 2 ? 8000 + n : `${n}%`;
      case 'raw': return { list: [1, `x${n}`, true, null], nested: { f: 1.5 } };
      case 'array': return [value(node.item!, name, depth + 1), value(node.item!, name, depth + 1)];
      case 'map': return { [`zk${n}`]: value(node.item!, name, depth + 1), [`ak${n}`]: value(node.item!, name, depth + 1) };
      case 'message': return message(node, depth);
    }
  };

  const message = (node: SchemaNode, depth: number, ref = node.ref): Record<string, unknown> => {
    // A recursive type is filled once along each path.
    if (onPath.has(node) || depth > 12) return {};
    onPath.add(node);
    const out: Record<string, unknown> = {};
    for (const f of node.fields) {
      if (f.number === undefined) continue;
      if (f.embedded) Object.assign(out, message(f.node, depth, ref));
      else out[f.name] = value(f.node, f.name, depth + 1);
      // A false Go omits (a non-pointer omitempty bool) reads back as unset; true keeps the field.
      if (out[f.name] === false && zeroIsUnset(ref, f.name)) out[f.name] = true;
    }
    onPath.delete(node);
    return out;
  };

  return { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind, ...message(compileSchema(schema), 0) };
}
