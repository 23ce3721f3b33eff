// Request bodies in the binary encodings (protobuf, and CBOR while its gate is on) turned into the same
// JSON data a JSON body gives, so the rest of the request path does not care how the body came.
import type { TSchema } from '@sinclair/typebox';
import * as status from '../../machinery/status.ts';
import { cannotHandleMessage, unrecognizedObjectMessage } from '../../machinery/schema/decode-errors.ts';
import { decodeCbor, type CborValue, CborTag, SELF_DESCRIBED_TAG } from './cbor.ts';
import { fromCbor } from './cbor-json.ts';
import { APPLY_PATCH_CBOR_TYPE, CBOR_TYPE, cborEnabled, isProtobufType } from './media-types.ts';
import { decodeMessage, readError } from './protobuf.ts';
import { builtInTypes, unwrapUnknown } from './protobuf-objects.ts';
import { compileSchema } from './schema-nodes.ts';

/** The type the URL expects the body to be (its schema decodes a body whose envelope names no known type). */
export interface ExpectedType {
  kind: string;
  schema?: TSchema;
}

/** Whether `mediaType` is a binary body type this server reads right now. */
export function isBinaryBodyType(mediaType: string): boolean {
  return isProtobufType(mediaType) || ((mediaType === CBOR_TYPE || mediaType === APPLY_PATCH_CBOR_TYPE) && cborEnabled());
}

/**
 * Decodes a protobuf or CBOR body into JSON data (with apiVersion and kind where the body names them).
 * Returns undefined for a media type that is not one of them, or CBOR with its gate off: the caller answers
 * 415 as for any unsupported type. Malformed bodies are 400s with Kubernetes' texts.
 */
export function decodeBinaryBody(body: Uint8Array, mediaType: string, expected?: ExpectedType): { value: unknown } | undefined {
  if (!isBinaryBodyType(mediaType)) return undefined;
  return isProtobufType(mediaType) ? { value: decodeProtobufBody(body, expected) } : { value: decodeCborBody(body, expected) };
}

function decodeProtobufBody(body: Uint8Array, expected: ExpectedType | undefined): unknown {
  let unk;
  try {
    unk = unwrapUnknown(body);
  } catch (err) {
    throw unrecognized(err, body, expected);
  }
  const typed: Record<string, unknown> = {};
  if (unk.apiVersion) typed.apiVersion = unk.apiVersion;
  if (unk.kind) typed.kind = unk.kind;
  const schema = builtInTypes().schemaFor(unk.apiVersion, unk.kind) ?? expected?.schema;
  // A type this server does not know: its apiVersion and kind alone let the caller refuse it in its words.
  if (!schema) return typed;
  const version = unk.apiVersion.includes('/') ? unk.apiVersion.slice(unk.apiVersion.indexOf('/') + 1) : unk.apiVersion;
  if (unk.contentEncoding) throw status.badRequest(cannotHandleMessage(unk.kind, version, `unsupported content encoding ${JSON.stringify(unk.contentEncoding)}`, expected?.kind ?? unk.kind));
  let value: Record<string, unknown>;
  try {
    value = decodeMessage(unk.raw, schema);
  } catch (err) {
    throw status.badRequest(cannotHandleMessage(unk.kind, version, readError(err).message, expected?.kind ?? unk.kind));
  }
  return Object.assign(typed, value);
}

function decodeCborBody(body: Uint8Array, expected: ExpectedType | undefined): unknown {
  let raw: CborValue;
  try {
    raw = decodeCbor(body);
  } catch (err) {
    throw unrecognized(err, body, expected);
  }
  // The body's own apiVersion and kind pick the schema (which fields are bytes) when this server knows them.
  let top = raw;
  while (top instanceof CborTag && top.tag === SELF_DESCRIBED_TAG) top = top.value;
  const named = top && typeof top === 'object' && !Array.isArray(top) && !(top instanceof Uint8Array) && !(top instanceof Map) ? top as Record<string, unknown> : {};
  const schema = (typeof named.apiVersion === 'string' && typeof named.kind === 'string' ? builtInTypes().schemaFor(named.apiVersion, named.kind) : undefined) ?? expected?.schema;
  try {
    return fromCbor(raw, schema ? compileSchema(schema) : undefined);
  } catch (err) {
    throw unrecognized(err, body, expected);
  }
}

function unrecognized(err: unknown, body: Uint8Array, expected: ExpectedType | undefined): status.StatusError {
  const detail = (err as Error)?.message ?? String(err);
  return status.badRequest(expected ? unrecognizedObjectMessage(expected.kind, detail, body) : detail);
}
