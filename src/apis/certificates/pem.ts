// PEM blocks found the way Go's encoding/pem.Decode finds them: text around blocks is skipped, a block
// needs matching BEGIN and END lines, optional `Key: value` headers, and a padded base64 body. Kubernetes
// validates certificate requests, issued certificates and trust bundles with it, so what counts as a block
// must agree.
import { base64ErrorOffset } from '../../machinery/schema/go-base64.ts';

export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Uint8Array;
}

const START = '\n-----BEGIN ';
const END = '\n-----END ';
const EOL = '-----';

/** One line without its newline and trailing blanks, and what follows it. */
function getLine(data: string): [line: string, rest: string] {
  const i = data.indexOf('\n');
  const [line, rest] = i < 0 ? [data, ''] : [data.slice(0, i), data.slice(i + 1)];
  return [line.replace(/[ \t\r]+$/, ''), rest];
}

/** The first block of `data` (a binary string, one char per byte) and the text after it. */
export function decodePem(data: string): { block: PemBlock; rest: string } | undefined {
  let rest = data;
  for (;;) {
    if (rest.startsWith(START.slice(1))) rest = rest.slice(START.length - 1);
    else {
      const at = rest.indexOf(START);
      if (at < 0) return undefined;
      rest = rest.slice(at + START.length);
    }
    let typeLine: string;
    [typeLine, rest] = getLine(rest);
    if (!typeLine.endsWith(EOL)) continue;
    const type = typeLine.slice(0, -EOL.length);
    const headers: Record<string, string> = {};
    let truncated = false;
    for (;;) {
      if (rest.length === 0) { truncated = true; break; }
      const [line, next] = getLine(rest);
      const colon = line.indexOf(':');
      if (colon < 0) break;
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
      rest = next;
    }
    if (truncated) return undefined;
    let endIndex: number, endTrailerIndex: number;
    if (Object.keys(headers).length === 0 && rest.startsWith(END.slice(1))) {
      endIndex = 0;
      endTrailerIndex = END.length - 1;
    } else {
      endIndex = rest.indexOf(END);
      endTrailerIndex = endIndex + END.length;
    }
    if (endIndex < 0) continue;
    const trailerLen = type.length + EOL.length;
    const trailer = rest.slice(endTrailerIndex, endTrailerIndex + trailerLen);
    if (trailer.length < trailerLen || !trailer.startsWith(type) || !trailer.endsWith(EOL)) continue;
    if (getLine(rest.slice(endTrailerIndex + trailerLen))[0].length !== 0) continue;
    const body = rest.slice(0, endIndex).replace(/[ \t]/g, '');
    if (base64ErrorOffset(body) !== -1) continue;
    const bytes = new Uint8Array(Buffer.from(body, 'base64'));
    rest = getLine(rest.slice(endIndex + END.length - 1))[1];
    return { block: { type, headers, bytes }, rest };
  }
}

/** Every block of `data`, in order. */
export function decodeAllPem(data: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  let rest = data;
  for (let found = decodePem(rest); found; found = decodePem(rest)) {
    blocks.push(found.block);
    rest = found.rest;
  }
  return blocks;
}

/** Bytes as a binary string (one char per byte), the form decodePem reads. */
export function binaryString(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
