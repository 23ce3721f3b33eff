// `[]byte` fields as Go's encoding/json decodes them: standard padded base64 (line breaks ignored), with
// Go's CorruptInputError text, and re-encoded canonically on the way back out.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

const PAD = 0x3d, LF = 0x0a, CR = 0x0d;

function isNewline(c: number): boolean {
  return c === LF || c === CR;
}

/** Offset (in bytes) where Go's base64.StdEncoding.Decode fails, or -1 when the text is valid. */
export function base64ErrorOffset(s: string): number {
  const n = s.length;
  let si = 0;
  for (;;) {
    // One quantum of up to four symbols.
    let j = 0;
    for (; j < 4; j++) {
      if (si === n) {
        if (j === 0) return -1;
        return si - j;
      }
      const c = s.charCodeAt(si);
      si++;
      if (c < 128 && DECODE[c] >= 0) continue;
      if (isNewline(c)) { j--; continue; }
      if (c !== PAD) return si - 1;
      // Padding: only legal as the third or fourth symbol, and then only at the end.
      if (j === 0 || j === 1) return si - 1;
      if (j === 2) {
        while (si < n && isNewline(s.charCodeAt(si))) si++;
        if (si === n) return n;
        if (s.charCodeAt(si) !== PAD) return si - 1;
        si++;
      }
      while (si < n && isNewline(s.charCodeAt(si))) si++;
      return si < n ? si : -1;
    }
  }
}

/** Validates and re-encodes; null when invalid (see base64ErrorOffset for Go's message). */
export function canonicalBase64(s: string): string | null {
  if (base64ErrorOffset(s) !== -1) return null;
  const canonical = Buffer.from(s, 'base64').toString('base64');
  return canonical === s ? s : canonical;
}

export function base64ErrorText(offset: number): string {
  return `illegal base64 data at input byte ${offset}`;
}
