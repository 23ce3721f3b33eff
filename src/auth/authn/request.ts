// Authenticates a request: the client certificate, then a bearer token (static tokens, service account
// tokens, bootstrap tokens, in that order), then anonymous when enabled. A credential that is presented
// and refused is a 401 and never falls back to anonymous.
import type { TLSSocket } from 'node:tls';
import type { UserInfo } from '../../apis/kind.ts';
import { unauthorized } from '../../machinery/status.ts';
import { anonymousUser, withAuthenticatedGroup } from '../user.ts';
import { certificateUser, type CertificateResult } from './x509.ts';
import type { TokenAuthenticator, TokenResult } from './token-file.ts';
import { aggregate } from '../../machinery/go-format.ts';

export interface RequestAuthenticatorOptions {
  tokenAuthenticators: TokenAuthenticator[];
  /** Audience-agnostic tokens (static, bootstrap) are good for these. */
  apiAudiences: string[];
  anonymous: boolean;
  log?: (line: string) => void;
}

export interface TokenReviewResult {
  user?: UserInfo;
  audiences?: string[];
  error?: string;
}

interface RequestLike {
  socket: unknown;
  headers: Record<string, string | string[] | undefined>;
  stream?: { session?: object };
}

/** Bearer token of an `Authorization: Bearer <token>` header; '' when the header has no token; undefined without one. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  const space = value.indexOf(' ');
  const scheme = space < 0 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return undefined;
  if (space < 0) return '';
  const rest = value.slice(space + 1);
  const end = rest.indexOf(' ');
  return end < 0 ? rest : rest.slice(0, end);
}

export class RequestAuthenticator {
  private readonly o: RequestAuthenticatorOptions;
  /** A TLS connection's certificate is read once (HTTP/2 multiplexes many requests on one). */
  private readonly byConnection = new WeakMap<object, CertificateResult>();

  constructor(o: RequestAuthenticatorOptions) {
    this.o = o;
  }

  /** The authenticated user, system:anonymous when allowed, or a thrown 401. */
  async authenticate(req: RequestLike): Promise<UserInfo> {
    const errors: string[] = [];
    const cert = this.certificate(req);
    if (cert && 'user' in cert) return cert.user;
    if (cert && 'error' in cert) errors.push(cert.error);
    const token = bearerToken(req.headers.authorization);
    if (token !== undefined) {
      if (token === '') {
        errors.push('empty bearer token');
      } else {
        const r = await this.authenticateToken(token, undefined);
        if (r.user) return withAuthenticatedGroup(r.user);
        errors.push(r.error ?? 'invalid bearer token');
      }
    }
    if (errors.length) {
      this.o.log?.(`Unable to authenticate the request: ${errors.join(', ')}`);
      throw unauthorized();
    }
    if (this.o.anonymous) return anonymousUser();
    throw unauthorized();
  }

  /**
   * Checks a bearer token against every token authenticator (TokenReview uses this directly). With
   * `audiences`, the token must be good for one of them; the answer names those it is good for.
   */
  async authenticateToken(token: string, audiences: readonly string[] | undefined): Promise<TokenReviewResult> {
    const errors: string[] = [];
    for (const a of this.o.tokenAuthenticators) {
      let r: TokenResult | undefined;
      try {
        r = await a.authenticateToken(token, audiences);
      } catch (err) {
        errors.push((err as Error).message);
        continue;
      }
      if (!r) continue;
      let auds = r.audiences;
      if (auds === undefined) {
        // Tokens that know no audience are good for the API server's own; asked for others, the
        // authenticator is passed over without an error (Kubernetes' WrapAudienceAgnosticToken).
        const wanted = audiences?.length ? audiences : this.o.apiAudiences;
        auds = wanted.filter((x) => this.o.apiAudiences.includes(x));
        if (audiences?.length && !auds.length) continue;
      }
      return { user: r.user, audiences: auds };
    }
    if (!errors.length) errors.push('invalid bearer token');
    return { error: aggregate(errors) };
  }

  private certificate(req: RequestLike): CertificateResult {
    const connection = (req.stream?.session ?? req.socket) as object | undefined;
    if (!connection) return undefined;
    if (this.byConnection.has(connection)) return this.byConnection.get(connection);
    let result = certificateUser(req.socket as TLSSocket);
    // The connection's user is built once, with the group every authenticated user has.
    if (result && 'user' in result) result = { user: withAuthenticatedGroup(result.user) };
    this.byConnection.set(connection, result);
    return result;
  }
}
