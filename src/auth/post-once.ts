// One POST and its whole answer, for the clients that call webhooks (authentication and authorization
// webhooks through a kubeconfig, admission webhooks). The request is destroyed with `timeoutError()` once
// `timeoutMs` have passed, whether it is connecting, sending or reading; an idle socket (`options.timeout`)
// ends the same way.
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, RequestOptions } from 'node:http';

export interface PostAnswer { status: number; headers: IncomingHttpHeaders; body: string }

/** node:http's or node:https' request(). */
export type RequestFunction<O extends RequestOptions> = (options: O, callback: (res: IncomingMessage) => void) => ClientRequest;

/** Sends `payload`; a request error is rejected as `failure` words it (it may look at the request). */
export function postOnce<O extends RequestOptions>(
  request: RequestFunction<O>, options: O, payload: string, timeoutMs: number, timeoutError: () => Error,
  failure: (err: NodeJS.ErrnoException, req: ClientRequest) => Error = (err) => err,
): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ ...options, method: 'POST' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => { clearTimeout(timer); resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }); });
      res.on('error', (e) => { clearTimeout(timer); reject(e); });
    });
    const timer = setTimeout(() => req.destroy(timeoutError()), timeoutMs);
    if (options.timeout !== undefined) req.on('timeout', () => req.destroy(timeoutError()));
    req.on('error', (e: NodeJS.ErrnoException) => { clearTimeout(timer); reject(failure(e, req)); });
    req.end(payload);
  });
}
