// Response bodies in the negotiated encoding: JSON, YAML (as Kubernetes writes it: keys sorted, lists not
// indented, no folding), protobuf (objects that have a protobuf form; others take the client's next choice)
// and CBOR.
import YAML from '../../machinery/yaml.ts';
import * as status from '../../machinery/status.ts';
import type { Representation } from '../negotiate.ts';
import { encodeCborValue } from './cbor-json.ts';
import { CBOR_TYPE, cborEnabled, JSON_TYPE, PROTOBUF_TYPE, YAML_TYPE } from './media-types.ts';
import { builtInTypes, encodeProtobufObject, type TypedObject } from './protobuf-objects.ts';

export interface EncodedBody {
  contentType: string;
  body: string | Uint8Array;
}

/**
 * Kubernetes' YAML: sigs.k8s.io/yaml over go-yaml v2, which writes YAML 1.1: a string that a 1.1 reader
 * would take for something else (`yes`, `on`, `y`, `1:20`, a date or a timestamp) is quoted, so that
 * PyYAML and go-yaml read back the string.
 */
export function toYaml(value: unknown): string {
  return YAML.stringify(value, { version: '1.1', sortMapEntries: true, indentSeq: false, lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false });
}

function typeOf(obj: unknown): { apiVersion: string; kind: string } {
  const o = (obj ?? {}) as TypedObject;
  return { apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : '', kind: typeof o.kind === 'string' ? o.kind : '' };
}

/** Encodes `obj` for `rep`. Protobuf of a type without a protobuf form uses `rep.fallback`, or is a 406. */
export function encodeResponse(obj: unknown, rep: Pick<Representation, 'mediaType' | 'contentType' | 'fallback'>, pretty = false): EncodedBody {
  switch (rep.mediaType) {
    case YAML_TYPE:
      return { contentType: YAML_TYPE, body: toYaml(obj) };
    case PROTOBUF_TYPE: {
      const { apiVersion, kind } = typeOf(obj);
      if (builtInTypes().schemaFor(apiVersion, kind)) return { contentType: rep.contentType ?? PROTOBUF_TYPE, body: encodeProtobufObject(obj as TypedObject) };
      if (rep.fallback) return encodeResponse(obj, rep.fallback, pretty);
      throw status.notAcceptable(cborEnabled() ? [JSON_TYPE, YAML_TYPE, CBOR_TYPE] : [JSON_TYPE, YAML_TYPE]);
    }
    case CBOR_TYPE: {
      const { apiVersion, kind } = typeOf(obj);
      return { contentType: CBOR_TYPE, body: encodeCborValue(obj, builtInTypes().schemaFor(apiVersion, kind)) };
    }
    default:
      return { contentType: JSON_TYPE, body: pretty ? JSON.stringify(obj, null, 2) : JSON.stringify(obj) };
  }
}

/** Like encodeResponse for an object already encoded as JSON text (served as is when JSON is wanted). */
export function encodeJsonTextResponse(json: string, rep: Pick<Representation, 'mediaType' | 'contentType' | 'fallback'>, pretty = false): EncodedBody {
  if (rep.mediaType === JSON_TYPE && !pretty) return { contentType: JSON_TYPE, body: json };
  return encodeResponse(JSON.parse(json), rep, pretty);
}
