// Response compression: with `Accept-Encoding` naming `gzip` and the `APIResponseCompression` gate on, get and
// list answers are sent gzipped, as the spec states without a size; any other body is when it is larger
// than Kubernetes' 128 KiB threshold. The fastest level, as Kubernetes uses.
import { gzip as zlibGzip, constants } from 'node:zlib';
import { featureGates } from '../../config/feature-gates.ts';

export const GZIP_THRESHOLD_BYTES = 128 * 1024;

/** Whether the header lists the `gzip` token (Kubernetes looks for the bare token; `gzip;q=0` does not count). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const text = Array.isArray(header) ? header.join(',') : header ?? '';
  return text.split(',').some((token) => token.trim() === 'gzip');
}

/** `read`: the answer to a get or list (a GET). */
export function shouldCompress(acceptEncoding: string | string[] | undefined, size: number, read: boolean): boolean {
  return (read || size > GZIP_THRESHOLD_BYTES) && acceptsGzip(acceptEncoding) && featureGates.enabled('APIResponseCompression');
}

export function gzip(body: string | Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zlibGzip(body, { level: constants.Z_BEST_SPEED }, (err, out) => (err ? reject(err) : resolve(out)));
  });
}
