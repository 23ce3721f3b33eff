import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeReviewResponse, reviewRequestBody, reviewVersionFor, verifyReviewResponse, type AdmissionRequest } from './admission-review.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const answer = (response: unknown, apiVersion = 'admission.svc.io/v1', kind = 'AdmissionReview') => decodeReviewResponse({ apiVersion, kind, response });
const verify = (response: unknown, opts: { version?: 'v1' | 'v1beta1'; mutating?: boolean; apiVersion?: string; kind?: string } = {}) =>
  verifyReviewResponse(opts.version ?? 'v1', 'u1', opts.mutating ?? true, answer(response, opts.apiVersion, opts.kind));

test('the version sent: the first of the webhook\'s that is known', () => {
  assert.equal(reviewVersionFor(['v2', 'v1beta1', 'v1']), 'v1beta1');
  assert.equal(reviewVersionFor(['v1']), 'v1');
  assert.equal(reviewVersionFor(['v2']), undefined);
});

test('the request body: an AdmissionReview of the renamed group, fields as given', () => {
  const request = { uid: 'u1', operation: 'CREATE', object: null } as unknown as AdmissionRequest;
  assert.equal(reviewRequestBody('v1beta1', request), '{"kind":"AdmissionReview","apiVersion":"admission.svc.io/v1beta1","request":{"uid":"u1","operation":"CREATE","object":null}}');
});

test('v1 answers: uid and type checked, either group name accepted, patch and patchType together', () => {
  assert.deepEqual(verify({ uid: 'u1', allowed: true, warnings: ['w'], auditAnnotations: { a: 'b' } }), { allowed: true, result: undefined, warnings: ['w'], auditAnnotations: { a: 'b' } });
  assert.equal(verify({ uid: 'u1', allowed: true }, { apiVersion: 'admission.k8s.io/v1' }).allowed, true);
  assert.throws(() => verify({ uid: 'other', allowed: true }), /^Error: expected response.uid="u1", got "other"$/);
  // %q: a control character or U+007F is escaped as Go escapes it, not as JSON does.
  assert.throws(() => verify({ uid: 'a\x7f\x07', allowed: true }), { message: 'expected response.uid="u1", got "a\\x7f\\a"' });
  assert.throws(() => verify({ uid: 'u1', allowed: true }, { apiVersion: 'admission.svc.io/v1beta1' }), /expected webhook response of admission.svc.io\/v1, Kind=AdmissionReview, got admission.svc.io\/v1beta1, Kind=AdmissionReview/);
  assert.throws(() => verify({ uid: 'u1' }, { apiVersion: '', kind: '' }), /got \/, Kind=$/);
  assert.throws(() => verify(undefined), /webhook response was absent/);
  const patch = b64('[{"op":"add","path":"/x","value":1}]');
  assert.deepEqual(verify({ uid: 'u1', allowed: true, patch, patchType: 'JSONPatch' }).patch, '[{"op":"add","path":"/x","value":1}]');
  assert.throws(() => verify({ uid: 'u1', allowed: true, patch }), /webhook returned response.patch but not response.patchType/);
  assert.throws(() => verify({ uid: 'u1', allowed: true, patchType: 'JSONPatch' }), /webhook returned response.patchType but not response.patch/);
  assert.throws(() => verify({ uid: 'u1', allowed: true, patch, patchType: 'JSONPatch' }, { mutating: false }), /validating webhook may not return response.patch/);
  assert.throws(() => verify({ uid: 'u1', allowed: true, patchType: 'JSONPatch' }, { mutating: false }), /validating webhook may not return response.patchType/);
});

test('v1beta1 answers: neither uid nor type checked; a patch is a JSON patch', () => {
  const r = verify({ uid: 'x', allowed: true, patch: b64('[]') }, { version: 'v1beta1', apiVersion: 'whatever/v9', kind: 'X' });
  assert.deepEqual([r.allowed, r.patch, r.patchType], [true, '[]', 'JSONPatch']);
  assert.equal(verify({ allowed: false, status: { message: 'no' } }, { version: 'v1beta1', mutating: false }).allowed, false);
});

test('decoding: field types as Go reads them, base64 patches', () => {
  assert.throws(() => answer({ allowed: 'yes' }), /json: cannot unmarshal string into Go struct field AdmissionResponse.response.allowed of type bool/);
  assert.throws(() => answer({ patch: 'not base64!' }), /illegal base64 data at input byte 3/);
  assert.throws(() => answer({ patch: 'W10' }), /illegal base64 data at input byte 0/);
  assert.throws(() => answer({ patch: 'W1=0' }), /illegal base64 data at input byte 2/);
  // Go skips line breaks in base64 text.
  assert.equal(answer({ patch: 'W1\r\n0=' }).patch?.toString(), '[]');
  assert.throws(() => answer({ warnings: [1] }), /of type \[\]string/);
  assert.throws(() => decodeReviewResponse([1]), { message: 'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }' });
  assert.throws(() => decodeReviewResponse('yes'), /json parse error: json: cannot unmarshal string into Go value/);
  // null unmarshals into a struct without error: an AdmissionReview with no response, as Go's client reads it.
  const nothing = decodeReviewResponse(null);
  assert.deepEqual(nothing, { apiVersion: '', kind: '', response: undefined });
  assert.throws(() => verifyReviewResponse('v1', 'u', false, nothing), { message: 'webhook response was absent' });
});
