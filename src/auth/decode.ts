// Decodes the body of a review or TokenRequest. These kinds are answered, not stored, and unmodified
// clients send them in Kubernetes' group names, so the body may name either the renamed group or its
// Kubernetes alias; the answer goes back in the group the client used.
import type { ApiObject } from '../apis/meta/v1.ts';
import * as status from '../machinery/status.ts';
import { decodeObject } from '../machinery/schema/decode.ts';
import { cannotHandleMessage, strictDecodingFailure, strictDecodingWarnings } from '../machinery/schema/decode-errors.ts';
import { parseBody, type FieldValidation, type ParsedBody } from '../registry/decode-body.ts';
import { decodeBinaryBody, isBinaryBodyType } from '../server/codecs/body.ts';
import type { VersionDefinition } from '../apis/kind.ts';

export interface DecodedReview {
  object: ApiObject;
  warnings: string[];
  /** The group the body named (the renamed group when it named none). */
  group: string;
}

/** `groups[0]` is the renamed group; the others are accepted aliases. */
export function decodeReviewBody(body: Buffer, mediaType: string, kind: string, groups: readonly string[], version: VersionDefinition, fieldValidation: FieldValidation): DecodedReview {
  // Protobuf and CBOR bodies in Kubernetes' group name decode with this kind's schema.
  const parsed: ParsedBody = isBinaryBodyType(mediaType)
    ? { value: decodeBinaryBody(body, mediaType, { kind, schema: version.schema })!.value, duplicates: [] }
    : parseBody(body, mediaType, kind);
  const value = parsed.value === null ? {} : parsed.value;
  if (typeof value !== 'object' || Array.isArray(value)) throw status.badRequest(`Object 'Kind' is missing in '${body.toString('utf8').slice(0, 200)}'`);
  const raw = value as Record<string, unknown>;
  let group = groups[0];
  if (raw.apiVersion !== undefined && raw.apiVersion !== null && raw.apiVersion !== '') {
    const av = String(raw.apiVersion);
    const slash = av.lastIndexOf('/');
    const g = slash < 0 ? '' : av.slice(0, slash);
    const v = slash < 0 ? av : av.slice(slash + 1);
    if (!groups.includes(g) || v !== version.name) {
      throw status.badRequest(`the API version in the data (${av}) does not match the expected API version (${groups[0]}/${version.name})`);
    }
    group = g;
  }
  if (raw.kind !== undefined && raw.kind !== null && raw.kind !== '' && raw.kind !== kind) {
    throw status.badRequest(`the kind in the data (${String(raw.kind)}) does not match the expected kind (${kind})`);
  }
  const apiVersion = `${groups[0]}/${version.name}`;
  const decoded = decodeObject(raw, version.schema, { kind, apiVersion });
  if (decoded.typeError) throw status.badRequest(cannotHandleMessage(kind, version.name, decoded.typeError));
  const warnings: string[] = [];
  if (fieldValidation !== 'Ignore' && (decoded.unknownFields.length || parsed.duplicates.length)) {
    if (fieldValidation === 'Strict') throw strictDecodingFailure(kind, version.name, decoded.unknownFields, parsed.duplicates, parsed.positions);
    warnings.push(...strictDecodingWarnings(decoded.unknownFields, parsed.duplicates, parsed.positions));
  }
  const object = decoded.object as ApiObject;
  object.apiVersion = apiVersion;
  object.kind = kind;
  if (object.metadata === undefined || object.metadata === null) object.metadata = {};
  return { object, warnings, group };
}
