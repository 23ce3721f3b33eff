// How each watch event is framed in the negotiated stream type: newline-separated JSON documents,
// length-prefixed protobuf WatchEvents (`;stream=watch`), or a CBOR sequence (`application/cbor-seq`).
import type { Representation } from '../negotiate.ts';
import { CborTag, encodeCbor, SELF_DESCRIBED_TAG } from './cbor.ts';
import { cborMap, toCbor } from './cbor-json.ts';
import { CBOR_SEQ_TYPE, CBOR_TYPE, JSON_TYPE, PROTOBUF_TYPE } from './media-types.ts';
import { builtInTypes, protobufWatchFrame, type TypedObject } from './protobuf-objects.ts';
import { compileSchema } from './schema-nodes.ts';

export interface WatchFramer {
  /** The response's Content-Type. */
  contentType: string;
  /** JSON framing: an object's cached JSON text can be written as is. */
  json: boolean;
  frame(type: string, object: unknown): string | Uint8Array;
}

export function watchFramer(rep: Pick<Representation, 'mediaType' | 'contentType'>): WatchFramer {
  switch (rep.mediaType) {
    case PROTOBUF_TYPE:
      return {
        contentType: `${rep.contentType ?? PROTOBUF_TYPE};stream=watch`,
        json: false,
        frame: (type, object) => protobufWatchFrame(type, object as TypedObject),
      };
    case CBOR_TYPE:
      return { contentType: CBOR_SEQ_TYPE, json: false, frame: cborFrame };
    default:
      return { contentType: JSON_TYPE, json: true, frame: (type, object) => JSON.stringify({ type, object }) + '\n' };
  }
}

/** One self-described data item per event; the object inside keeps its own self-described tag, as embedded CBOR. */
function cborFrame(type: string, object: unknown): Uint8Array {
  const o = (object ?? {}) as TypedObject;
  const schema = typeof o.apiVersion === 'string' && typeof o.kind === 'string' ? builtInTypes().schemaFor(o.apiVersion, o.kind) : undefined;
  const embedded = new CborTag(SELF_DESCRIBED_TAG, toCbor(object, schema ? compileSchema(schema) : undefined));
  return encodeCbor(cborMap([['type', toCbor(type, undefined)], ['object', embedded]]), { selfDescribed: true });
}
