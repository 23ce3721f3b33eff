// The one place that loads @peculiar/x509: it needs a Reflect metadata polyfill loaded first and
// Node's WebCrypto registered as its crypto provider. Everything else in src/pki imports from here.
// The library takes longer to load than the rest of a server start (~50 ms, several MB), and only signing
// CertificateSigningRequests and checking their PEM need it, so it is loaded (synchronously, as CommonJS)
// on first use: `x509.X` reads load it; `X509.X` names its types.
import './reflect-metadata.ts';
import type * as X509 from '@peculiar/x509';
import { createRequire } from 'node:module';
import { webcrypto } from 'node:crypto';

let library: typeof X509 | undefined;

function load(): typeof X509 {
  if (!library) {
    library = createRequire(import.meta.url)('@peculiar/x509') as typeof X509;
    library.cryptoProvider.set(webcrypto as unknown as Crypto);
  }
  return library;
}

export const x509: typeof X509 = new Proxy({} as typeof X509, {
  get: (_target, name) => Reflect.get(load(), name),
  has: (_target, name) => Reflect.has(load(), name),
});

export type { X509 };
