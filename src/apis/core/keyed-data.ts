// What ConfigMap and Secret share: key rules, base64 payloads decoded as Go decodes []byte, the 1 MiB
// total, and the `immutable` lock on their data.
import { type FieldError, invalid, forbidden, key as keyPath } from '../../machinery/field-errors.ts';
import { isConfigMapKey, byteLength } from '../../machinery/validation/strings.ts';

/** MaxSecretSize: the total bytes of a Secret's data, and of a ConfigMap's data and binaryData. */
export const MAX_SECRET_SIZE = 1024 * 1024;

export const IMMUTABLE_DETAIL = 'field is immutable when `immutable` is set';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const decodeMap = new Int16Array(256).fill(-1);
for (let i = 0; i < alphabet.length; i++) decodeMap[alphabet.charCodeAt(i)] = i;

const isNewline = (c: number) => c === 0x0a || c === 0x0d;

export type Base64Result = { bytes: Uint8Array } | { error: string };

/**
 * Decodes standard padded base64 the way Go's encoding/base64 StdEncoding does (CR and LF are skipped),
 * reporting `illegal base64 data at input byte N` at the same offset Go reports.
 */
export function decodeBase64(text: string): Base64Result {
  const src = new TextEncoder().encode(text);
  const out: number[] = [];
  const corrupt = (at: number): Base64Result => ({ error: `illegal base64 data at input byte ${at}` });
  let si = 0;
  for (;;) {
    const buf = [0, 0, 0, 0];
    let dlen = 4;
    let trailing = -1;
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return { bytes: Uint8Array.from(out) };
        return corrupt(si - j);
      }
      const c = src[si++];
      const v = decodeMap[c];
      if (v >= 0) { buf[j] = v; continue; }
      if (isNewline(c)) { j--; continue; }
      if (c !== 0x3d) return corrupt(si - 1);
      // Padding: only after two or three symbols, and "==" after two.
      if (j < 2) return corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) return corrupt(src.length);
        if (src[si] !== 0x3d) return corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) trailing = si;
      dlen = j;
      break;
    }
    const val = (buf[0] << 18) | (buf[1] << 12) | (buf[2] << 6) | buf[3];
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    out.push(...bytes.slice(0, dlen - 1));
    if (trailing >= 0) return corrupt(trailing);
    if (dlen < 4) return { bytes: Uint8Array.from(out) };
  }
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
    const r = decodeBase64(v);
    if ('bytes' in r) data[k] = encodeBase64(r.bytes);
  }
}

/** Equal maps; an absent map equals an empty one. `decode` compares values by meaning (base64 bytes). */
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
