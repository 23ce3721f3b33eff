// The texts Kubernetes v1.32 answers when a body cannot be decoded (all 400 BadRequest), and the strict
// field validation errors and warnings (`unknown field "spec.foo"`, `duplicate field "a"`).
import { badRequest, type StatusError } from '../status.ts';
import type { KeyPositions } from './json-parse.ts';
import { goQuote } from '../go-format.ts';

/** sigs.k8s.io/json keeps at most this many strict errors. */
const MAX_STRICT_ERRORS = 100;

/**
 * The strict decoding errors in the order Go's decoder meets them: an unknown field where it first
 * appears, a duplicate where the key repeats. Without positions, unknown fields come first. Duplicates
 * at or under an unknown field are left out (Go skips unknown fields without looking inside).
 */
export function strictDecodingErrors(unknown: readonly string[], duplicates: readonly string[], positions?: KeyPositions): string[] {
  const dups = duplicates.filter((d) => !unknown.some((u) => d === u || d.startsWith(u + '.') || d.startsWith(u + '[')));
  const entries = [
    ...unknown.map((u, i) => ({ text: `unknown field ${goQuote(u)}`, at: positions?.first.get(u) ?? i - unknown.length, i })),
    ...dups.map((d, i) => ({ text: `duplicate field ${goQuote(d)}`, at: positions?.duplicate.get(d) ?? i, i: unknown.length + i })),
  ];
  if (positions) entries.sort((a, b) => a.at - b.at || a.i - b.i);
  return entries.slice(0, MAX_STRICT_ERRORS).map((e) => e.text);
}

/** `ConfigMap in version "v1" cannot be handled as a ConfigMap: <detail>`. */
export function cannotHandleMessage(kind: string, version: string, detail: string, expectedKind = kind): string {
  return `${kind} in version ${goQuote(version)} cannot be handled as a ${expectedKind}: ${detail}`;
}

/** `runtime.NewStrictDecodingError(...).Error()`: `strict decoding error: unknown field "a", duplicate field "b"`. */
export function strictDecodingDetail(errors: readonly string[]): string {
  return `strict decoding error: ${errors.join(', ')}`;
}

/**
 * The 400 message for fieldValidation=Strict:
 * `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.unknownField", duplicate field "spec.replicas"`.
 */
export function strictDecodingMessage(kind: string, version: string, unknown: readonly string[], duplicates: readonly string[], positions?: KeyPositions): string {
  return cannotHandleMessage(kind, version, strictDecodingDetail(strictDecodingErrors(unknown, duplicates, positions)));
}

/** The `Warning` header texts for fieldValidation=Warn (one per error). */
export function strictDecodingWarnings(unknown: readonly string[], duplicates: readonly string[], positions?: KeyPositions): string[] {
  return strictDecodingErrors(unknown, duplicates, positions);
}

/** 400 for a body whose field has the wrong type (detail from DecodeResult.typeError). */
export function decodeFailure(kind: string, version: string, detail: string, expectedKind = kind): StatusError {
  return badRequest(cannotHandleMessage(kind, version, detail, expectedKind));
}

/** 400 for strict decoding errors. */
export function strictDecodingFailure(kind: string, version: string, unknown: readonly string[], duplicates: readonly string[], positions?: KeyPositions): StatusError {
  return badRequest(strictDecodingMessage(kind, version, unknown, duplicates, positions));
}

/**
 * When apiVersion/kind cannot be read from the body at all (malformed JSON):
 * `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character 'x' looking for beginning of value (7b2078 ...)`.
 * `detail` is the whole cause, e.g. `couldn't get version/kind; json parse error: ` + the syntax error.
 */
export function unrecognizedObjectMessage(expectedKind: string, detail: string, body: string | Uint8Array): string {
  return `the object provided is unrecognized (must be of type ${expectedKind}): ${detail} (${summarizeBody(body)})`;
}

/** apimachinery's summarizeData: a JSON object's first 30 bytes as text, anything else in hex. */
export function summarizeBody(body: string | Uint8Array, maxLength = 30): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (bytes.length === 0) return '<empty>';
  const head = bytes.subarray(0, maxLength);
  const more = bytes.length > maxLength ? ' ...' : '';
  if (bytes[0] === 0x7b) return head.toString('utf8') + more;
  return head.toString('hex') + more;
}
