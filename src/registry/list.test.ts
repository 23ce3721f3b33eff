import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeContinue, decodeContinue, validateListOptions, requestedResourceVersion } from './list.ts';
import { StatusError } from '../machinery/status.ts';
import { featureGates } from '../config/feature-gates.ts';

const refusal = (fn: () => unknown) => {
  try { fn(); } catch (err) { if (err instanceof StatusError) return { code: err.code, message: err.message }; throw err; }
  assert.fail('no error');
};

describe('continue tokens', () => {
  it('round-trip the revision and the start key, opaque and URL-safe', () => {
    const token = encodeContinue(42, 'ns/name\u0000');
    assert.match(token, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeContinue(token), { rv: 42, start: 'ns/name\u0000' });
    // A token handed out with a 410 continues at the latest revision.
    assert.deepEqual(decodeContinue(encodeContinue(-1, 'a\u0000')), { rv: 0, start: 'a\u0000' });
    // Kubernetes' own version string is understood too.
    assert.equal(decodeContinue(Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 3, start: 'x' })).toString('base64url')).rv, 3);
  });

  it('refuse what they cannot be, with Kubernetes\' texts', () => {
    const t = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const prefix = 'invalid continue token: continue key is not valid: ';
    assert.deepEqual(refusal(() => decodeContinue('ab=c')), { code: 400, message: `${prefix}illegal base64 data at input byte 2` });
    assert.deepEqual(refusal(() => decodeContinue('abcde')), { code: 400, message: `${prefix}illegal base64 data at input byte 4` });
    assert.equal(refusal(() => decodeContinue('')).message, `${prefix}unexpected end of JSON input`);
    assert.equal(refusal(() => decodeContinue(t({ v: 'meta.svc.io/v1', rv: 1, start: 'a//b' }))).message, `${prefix}a//b`);
    assert.equal(refusal(() => decodeContinue(t({ v: 'meta.svc.io/v1', rv: 1, start: 'a/' }))).message, `${prefix}a/`);
    assert.equal(refusal(() => decodeContinue(t({ v: 'meta.svc.io/v1', rv: 1, start: './a' }))).message, `${prefix}./a`);
    assert.equal(refusal(() => decodeContinue(t({ v: 'meta.svc.io/v1', rv: 1.5, start: 'a' }))).message, `${prefix}json: cannot unmarshal number into Go struct field continueToken.rv of type int64`);
  });

  it('are checked as Go\'s json.Unmarshal checks them: its scanner\'s texts, and null an empty token', () => {
    const raw = (text: string | Buffer) => Buffer.from(text).toString('base64url');
    const prefix = 'invalid continue token: continue key is not valid: ';
    assert.equal(refusal(() => decodeContinue(raw('[1]'))).message, `${prefix}json: cannot unmarshal array into Go value of type storage.continueToken`);
    assert.equal(refusal(() => decodeContinue(raw('{"v":"x"'))).message, `${prefix}unexpected end of JSON input`);
    assert.equal(refusal(() => decodeContinue(raw('{"v" 1}'))).message, `${prefix}invalid character '1' after object key`);
    assert.equal(refusal(() => decodeContinue(raw('\v{}'))).message, `${prefix}invalid character '\\v' looking for beginning of value`);
    assert.equal(refusal(() => decodeContinue(raw('\u00e9'))).message, `${prefix}invalid character '\u00c3' looking for beginning of value`);
    assert.equal(refusal(() => decodeContinue(raw('null'))).message, `${prefix}server does not recognize this encoded version `);
  });
});

describe('ListOptions validation', () => {
  it('accepts what Kubernetes accepts', () => {
    for (const opts of [{}, { resourceVersion: '5', resourceVersionMatch: 'Exact' }, { resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' }, { watch: true, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' }, { watch: true, sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan' }, { watch: true, resourceVersion: '7' }]) {
      assert.doesNotThrow(() => validateListOptions(opts), JSON.stringify(opts));
    }
  });

  it('lists an unsupported match with every supported value, the empty one included', () => {
    assert.equal(refusal(() => validateListOptions({ resourceVersion: '5', resourceVersionMatch: 'Newest' })).message, 'ListOptions.meta.svc.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""');
    assert.equal(refusal(() => validateListOptions({ watch: true, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', continue: 'x' })).message, 'ListOptions.meta.svc.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided');
  });

  it('a streaming list needs the WatchList feature', () => {
    const saved = featureGates.snapshot();
    try {
      featureGates.set({ WatchList: false });
      assert.equal(refusal(() => validateListOptions({ watch: true, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' })).message, 'ListOptions.meta.svc.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled');
      assert.equal(refusal(() => validateListOptions({ watch: true, sendInitialEvents: false })).message, 'ListOptions.meta.svc.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled]');
      assert.doesNotThrow(() => validateListOptions({ watch: true, resourceVersion: '7' }));
    } finally {
      featureGates.reset(saved);
    }
  });
});

describe('requestedResourceVersion', () => {
  it('reads unset, 0 and N, and fails a non-version as Kubernetes\' watch cache does', () => {
    assert.equal(requestedResourceVersion(undefined), undefined);
    assert.equal(requestedResourceVersion(''), undefined);
    assert.equal(requestedResourceVersion('0'), 0);
    assert.equal(requestedResourceVersion('18446744073709551615'), 18446744073709551615);
    assert.deepEqual(refusal(() => requestedResourceVersion('1.5')), { code: 500, message: 'resourceVersion: Invalid value: "1.5": strconv.ParseUint: parsing "1.5": invalid syntax' });
  });
});
