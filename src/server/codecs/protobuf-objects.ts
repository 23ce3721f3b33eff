// Whole objects in Kubernetes' protobuf form: the magic prefix `k8s\0`, then the `runtime.Unknown` envelope
// (typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3, contentType = 4) around the object's
// message; watch events as length-prefixed `WatchEvent` messages whose object is such an envelope.
import { BinaryReader, BinaryWriter, WireType } from './wire.ts';
import type { TSchema } from '@sinclair/typebox';
import { allKinds } from '../../apis/index.ts';
import { apiVersionOf, listKindOf, type KindDefinition } from '../../apis/kind.ts';
import { decodeMessage, encodeMessage, ProtobufError, readError } from './protobuf.ts';
import { DeleteOptionsSchema, listSchemaOf, PartialObjectMetadataListSchema, PartialObjectMetadataSchema, StatusSchema } from './meta-schemas.ts';
import { kubernetesGroupOf } from '../group-alias.ts';

export const PROTOBUF_MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export interface Unknown {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

/** magic + Unknown, written as Kubernetes does: typeMeta, raw, then the (empty) contentEncoding and contentType. */
export function wrapUnknown(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const w = new BinaryWriter();
  w.raw(PROTOBUF_MAGIC);
  w.tag(1, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).string(apiVersion);
  w.tag(2, WireType.LengthDelimited).string(kind);
  w.join();
  w.tag(2, WireType.LengthDelimited).bytes(raw);
  w.tag(3, WireType.LengthDelimited).string('');
  w.tag(4, WireType.LengthDelimited).string('');
  return w.finish();
}

/** Reads magic + Unknown; a body without the magic is refused with apimachinery's text. */
export function unwrapUnknown(bytes: Uint8Array): Unknown {
  if (bytes.length < 4 || PROTOBUF_MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new ProtobufError(`provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_MAGIC].join(' ')}]`);
  }
  const out: Unknown = { apiVersion: '', kind: '', raw: new Uint8Array(), contentEncoding: '', contentType: '' };
  try {
    const r = new BinaryReader(bytes.subarray(4));
    while (r.pos < r.len) {
      const [no, wt] = r.tag();
      if (no === 1 && wt === WireType.LengthDelimited) {
        const t = new BinaryReader(r.bytes());
        while (t.pos < t.len) {
          const [tno, twt] = t.tag();
          if (tno === 1 && twt === WireType.LengthDelimited) out.apiVersion = t.string();
          else if (tno === 2 && twt === WireType.LengthDelimited) out.kind = t.string();
          else t.skip(twt, tno);
        }
      } else if (no === 2 && wt === WireType.LengthDelimited) out.raw = r.bytes();
      else if (no === 3 && wt === WireType.LengthDelimited) out.contentEncoding = r.string();
      else if (no === 4 && wt === WireType.LengthDelimited) out.contentType = r.string();
      else r.skip(wt, no);
    }
  } catch (err) {
    throw readError(err);
  }
  return out;
}


/** Kinds that exist in every group version (Kubernetes registers them everywhere): found by kind alone. */
const EVERYWHERE: Record<string, TSchema> = {
  Status: StatusSchema,
  DeleteOptions: DeleteOptionsSchema,
};

const META_GROUPS = ['meta.svc.io', 'meta.k8s.io'];

/** Which schema encodes a given apiVersion and kind. */
export class ProtobufTypes {
  readonly #types = new Map<string, TSchema>();

  constructor(kinds: KindDefinition[]) {
    const groups = new Set(kinds.map((def) => def.group));
    for (const def of kinds) {
      // Typed clients envelope renamed groups' objects in Kubernetes' group name: both name the same types.
      const alias = kubernetesGroupOf(def.group);
      const names = alias !== undefined && !groups.has(alias) ? [def.group, alias] : [def.group];
      for (const version of def.versions) {
        for (const group of names) {
          const apiVersion = apiVersionOf(group, version.name);
          this.#types.set(`${apiVersion}|${def.kind}`, version.schema);
          this.#types.set(`${apiVersion}|${listKindOf(def)}`, listSchemaOf(version.schema));
        }
      }
      // The kinds sub-resources take and answer (autoscaling/v1 Scale, policy/v1 Eviction).
      for (const view of def.views ?? []) {
        if (!view.schema) continue;
        for (const version of [view.version, ...(view.alsoAccepts ?? [])]) this.#types.set(`${apiVersionOf(view.group, version)}|${view.kind}`, view.schema);
      }
    }
    for (const group of META_GROUPS) {
      for (const version of ['v1', 'v1beta1']) {
        this.#types.set(`${group}/${version}|PartialObjectMetadata`, PartialObjectMetadataSchema);
        this.#types.set(`${group}/${version}|PartialObjectMetadataList`, PartialObjectMetadataListSchema);
      }
    }
  }

  schemaFor(apiVersion: string, kind: string): TSchema | undefined {
    return this.#types.get(`${apiVersion}|${kind}`) ?? EVERYWHERE[kind];
  }
}

let builtIn: ProtobufTypes | undefined;

/** The protobuf types of every built-in kind (built on first use). */
export function builtInTypes(): ProtobufTypes {
  return builtIn ??= new ProtobufTypes(allKinds());
}

export interface TypedObject {
  apiVersion?: unknown;
  kind?: unknown;
  [field: string]: unknown;
}

/** Whether an object of this apiVersion and kind has a protobuf form. */
export function hasProtobufForm(apiVersion: string, kind: string, types = builtInTypes()): boolean {
  return types.schemaFor(apiVersion, kind) !== undefined;
}

/** magic + Unknown + the object's message. Throws ProtobufError for a type without a protobuf form. */
export function encodeProtobufObject(obj: TypedObject, types = builtInTypes()): Uint8Array {
  const apiVersion = String(obj.apiVersion ?? '');
  const kind = String(obj.kind ?? '');
  const schema = types.schemaFor(apiVersion, kind);
  if (!schema) throw new ProtobufError(`object ${kind} (${apiVersion}) has no protobuf form`);
  return wrapUnknown(apiVersion, kind, encodeMessage(obj, schema));
}

/**
 * Reads an enveloped object into JSON form (apiVersion and kind from the envelope). The envelope's type
 * picks the schema; `fallback` is used when the envelope names a type this server does not know.
 */
export function decodeProtobufObject(bytes: Uint8Array, fallback?: TSchema, types = builtInTypes()): TypedObject {
  const unk = unwrapUnknown(bytes);
  if (unk.contentEncoding) throw new ProtobufError(`unsupported content encoding ${JSON.stringify(unk.contentEncoding)}`);
  const schema = types.schemaFor(unk.apiVersion, unk.kind) ?? fallback;
  if (!schema) throw new ProtobufError(`no kind ${JSON.stringify(unk.kind)} is registered for version ${JSON.stringify(unk.apiVersion)}`);
  let obj: Record<string, unknown>;
  try {
    obj = decodeMessage(unk.raw, schema);
  } catch (err) {
    throw readError(err);
  }
  const typed: TypedObject = {};
  if (unk.apiVersion) typed.apiVersion = unk.apiVersion;
  if (unk.kind) typed.kind = unk.kind;
  return Object.assign(typed, obj);
}

/**
 * One watch event as the protobuf stream carries it: a 4-byte big-endian length, then the bare (unwrapped)
 * `WatchEvent { string type = 1; RawExtension object = 2 { bytes raw = 1 } }` whose raw is the enveloped object.
 */
export function protobufWatchFrame(type: string, object: TypedObject, types = builtInTypes()): Uint8Array {
  const embedded = encodeProtobufObject(object, types);
  const w = new BinaryWriter();
  w.tag(1, WireType.LengthDelimited).string(type);
  w.tag(2, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).bytes(embedded);
  w.join();
  const body = w.finish();
  const frame = new Uint8Array(4 + body.length);
  new DataView(frame.buffer).setUint32(0, body.length);
  frame.set(body, 4);
  return frame;
}

/** Splits a protobuf watch stream into its events (for clients and tests). */
export function readProtobufWatchFrames(stream: Uint8Array, types = builtInTypes()): { type: string; object: TypedObject }[] {
  const out: { type: string; object: TypedObject }[] = [];
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  let pos = 0;
  while (pos + 4 <= stream.length) {
    const len = view.getUint32(pos);
    if (pos + 4 + len > stream.length) break;
    const r = new BinaryReader(stream.subarray(pos + 4, pos + 4 + len));
    pos += 4 + len;
    let type = '';
    let raw: Uint8Array = new Uint8Array();
    while (r.pos < r.len) {
      const [no, wt] = r.tag();
      if (no === 1) type = r.string();
      else if (no === 2) {
        const x = new BinaryReader(r.bytes());
        while (x.pos < x.len) {
          const [xno, xwt] = x.tag();
          if (xno === 1) raw = x.bytes(); else x.skip(xwt, xno);
        }
      } else r.skip(wt, no);
    }
    out.push({ type, object: decodeProtobufObject(raw, undefined, types) });
  }
  return out;
}
