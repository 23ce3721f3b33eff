// What ConfigMap and Secret share: key rules, base64 payloads decoded as Go decodes []byte, the 1 MiB
// total, and the `immutable` lock on their data.
import { type FieldError, invalid, forbidden, key as keyPath } from '../../machinery/field-errors.ts';
import { isConfigMapKey, byteLength } from '../../machinery/validation/strings.ts';
import { base64ErrorOffset, base64ErrorText } from '../../machinery/schema/go-base64.ts';

/** MaxSecretSize: the total bytes of a Secret's data, and of a ConfigMap's data and binaryData. */
export const MAX_SECRET_SIZE = 1024 * 1024;

export const IMMUTABLE_DETAIL = 'field is immutable when `immutable` is set';

export type Base64Result = { bytes: Uint8Array } | { error: string };

/** Decodes a `[]byte` value as Go does (padded standard base64, CR and LF skipped), with Go's error text. */
export function decodeBase64(text: string): Base64Result {
  // A JSON null in a []byte map decodes to nil: no bytes.
  if (typeof text !== 'string') return { bytes: new Uint8Array(0) };
  const offset = base64ErrorOffset(text);
  if (offset !== -1) return { error: base64ErrorText(offset) };
  return { bytes: new Uint8Array(Buffer.from(text, 'base64')) };
}

/** Canonical base64 of bytes (what Kubernetes returns for []byte fields). */
export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function asStringMap(v: unknown): Record<string, string> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : undefined;
}

/** One `isConfigMapKey` error per message, at `<field>[<key>]`. */
export function keyErrors(field: string, k: string): FieldError[] {
  return isConfigMapKey(k).map((msg) => invalid(keyPath(field, k), k, msg));
}

/**
 * Decoded sizes of a base64 map; undecodable values are reported as invalid (Kubernetes refuses them while
 * decoding the request, before validation) and count as zero bytes.
 */
export function binaryMapSize(field: string, data: Record<string, string> | undefined, errs: FieldError[]): number {
  let total = 0;
  for (const [k, v] of Object.entries(data ?? {})) {
    const r = decodeBase64(typeof v === 'string' ? v : '');
    if ('error' in r) errs.push(invalid(keyPath(field, k), '<secret contents redacted>', r.error));
    else total += r.bytes.length;
  }
  return total;
}

export function stringMapSize(data: Record<string, string> | undefined): number {
  let total = 0;
  for (const v of Object.values(data ?? {})) total += byteLength(typeof v === 'string' ? v : '');
  return total;
}

/** Rewrites every value of a base64 map in canonical form (line breaks and other spellings dropped). */
export function canonicalizeBinaryMap(data: Record<string, string> | undefined): void {
  if (!data) return;
  for (const [k, v] of Object.entries(data)) {
    if (typeof v !== 'string') continue;
    const r = decodeBase64(v);
    if ('bytes' in r) data[k] = encodeBase64(r.bytes);
  }
}

/** Equal maps; an absent map equals an empty one. With `binary`, values compare as decoded bytes. */
export function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined, binary: boolean): boolean {
  const ak = Object.keys(a ?? {}), bk = Object.keys(b ?? {});
  if (ak.length !== bk.length) return false;
  for (const k of ak) {
    if (!b || !Object.hasOwn(b, k)) return false;
    const x = a![k], y = b[k];
    if (x === y) continue;
    if (!binary) return false;
    const dx = decodeBase64(x), dy = decodeBase64(y);
    if (!('bytes' in dx) || !('bytes' in dy) || Buffer.compare(Buffer.from(dx.bytes), Buffer.from(dy.bytes)) !== 0) return false;
  }
  return true;
}

/**
 * The `immutable` lock: once true it cannot be unset, and the listed maps cannot change.
 * `fields` pairs a top-level field with whether its values are base64.
 */
export function immutableErrors(obj: Record<string, unknown>, old: Record<string, unknown>, fields: [name: string, binary: boolean][]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(forbidden('immutable', IMMUTABLE_DETAIL));
  for (const [name, binary] of fields) {
    if (!sameMap(asStringMap(obj[name]), asStringMap(old[name]), binary)) errs.push(forbidden(name, IMMUTABLE_DETAIL));
  }
  return errs;
}
