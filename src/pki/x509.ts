// The one place that loads @peculiar/x509: it needs a Reflect metadata polyfill loaded first and
// Node's WebCrypto registered as its crypto provider. Everything else in src/pki imports from here.
import './reflect-metadata.ts';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export { x509 };
