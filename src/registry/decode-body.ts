// Turns a request body into an object of the addressed kind: parse, check apiVersion and kind against the
// URL, prune and report unknown and duplicate fields per `fieldValidation`, convert to the storage version.
import YAML from 'yaml';
import type { KindDefinition, VersionDefinition } from '../apis/kind.ts';
import { apiVersionOf } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import * as status from '../machinery/status.ts';
import { decodeObject } from '../machinery/schema/decode.ts';
import { parseJsonStrict } from '../machinery/schema/json-parse.ts';
import { strictDecodingFailure, strictDecodingWarnings, decodeFailure } from '../machinery/schema/decode-errors.ts';

export const BODY_MEDIA_TYPES = ['application/json', 'application/yaml'];

export interface DecodedBody {
  object: ApiObject;
  warnings: string[];
}

/** Parses JSON or YAML into plain data, reporting duplicate keys. */
export function parseBody(body: Buffer, mediaType: string, mediaTypes: string[] = BODY_MEDIA_TYPES): { value: unknown; duplicates: string[] } {
  const text = body.toString('utf8');
  if (mediaType === 'application/json' || mediaType === '') {
    try {
      return parseJsonStrict(text);
    } catch (err) {
      throw status.badRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
    }
  }
  if (mediaType === 'application/yaml') {
    const duplicates: string[] = [];
    let doc;
    try {
      doc = YAML.parseDocument(text, { uniqueKeys: false, prettyErrors: false });
    } catch (err) {
      throw status.badRequest(`error converting YAML to JSON: ${(err as Error).message}`);
    }
    if (doc.errors.length) throw status.badRequest(`error converting YAML to JSON: ${doc.errors[0].message}`);
    return { value: doc.toJS({ maxAliasCount: 100 }), duplicates };
  }
  throw status.unsupportedMediaType(mediaType, mediaTypes);
}

export function decodeBody(body: Buffer, mediaType: string, def: KindDefinition, version: VersionDefinition, fieldValidation: 'Strict' | 'Warn' | 'Ignore'): DecodedBody {
  const { value, duplicates } = parseBody(body, mediaType);
  return decodeValue(value, duplicates, def, version, fieldValidation);
}

export function decodeValue(value: unknown, duplicates: string[], def: KindDefinition, version: VersionDefinition, fieldValidation: 'Strict' | 'Warn' | 'Ignore'): DecodedBody {
  const expectedApiVersion = apiVersionOf(def.group, version.name);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw status.badRequest(`Object 'Kind' is missing in '${JSON.stringify(value)?.slice(0, 200)}'`);
  }
  const raw = value as Record<string, unknown>;
  if (raw.apiVersion !== undefined && raw.apiVersion !== expectedApiVersion) {
    throw status.badRequest(`the API version in the data (${String(raw.apiVersion)}) does not match the expected API version (${expectedApiVersion})`);
  }
  if (raw.kind !== undefined && raw.kind !== def.kind) {
    throw status.badRequest(`the kind in the data (${String(raw.kind)}) does not match the expected kind (${def.kind})`);
  }
  const decoded = decodeObject(raw, version.schema, { kind: def.kind, apiVersion: expectedApiVersion });
  if (decoded.typeError) throw decodeFailure(def.kind, version.name, decoded.typeError);
  const warnings: string[] = [];
  if (fieldValidation !== 'Ignore' && (decoded.unknownFields.length || duplicates.length)) {
    if (fieldValidation === 'Strict') throw strictDecodingFailure(def.kind, version.name, decoded.unknownFields, duplicates);
    warnings.push(...strictDecodingWarnings(decoded.unknownFields, duplicates));
  }
  let object = decoded.object as ApiObject;
  object.apiVersion = expectedApiVersion;
  object.kind = def.kind;
  object.metadata ??= {};
  if (version.toStorage) object = version.toStorage(object);
  return { object, warnings };
}
