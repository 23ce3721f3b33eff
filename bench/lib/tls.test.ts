import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSecureContext } from 'node:tls';
import { credentialsFromKubeconfig, generateServingCert, describeKeyAlgorithm } from './tls.ts';

test('reads the PEMs of the current context from a kubeconfig', () => {
  const enc = (s: string) => Buffer.from(s).toString('base64');
  const yaml = `apiVersion: v1
kind: Config
current-context: admin
clusters:
- name: other
  cluster: {server: "https://127.0.0.1:1"}
- name: capstan
  cluster: {server: "https://127.0.0.1:6443", certificate-authority-data: ${enc('CA')}}
users:
- name: admin
  user: {client-certificate-data: ${enc('CERT')}, client-key-data: ${enc('KEY')}}
contexts:
- name: admin
  context: {cluster: capstan, user: admin}
`;
  assert.deepEqual(credentialsFromKubeconfig(yaml), { server: 'https://127.0.0.1:6443', ca: 'CA', cert: 'CERT', key: 'KEY' });
  assert.throws(() => credentialsFromKubeconfig('clusters: []'), /no cluster server/);
});

test('generates a usable self-signed serving certificate', () => {
  const ec = generateServingCert();
  createSecureContext({ cert: ec.cert, key: ec.key });
  assert.equal(describeKeyAlgorithm(ec.cert), 'ECDSA P-256');
  const rsa = generateServingCert('RSA 2048');
  createSecureContext({ cert: rsa.cert, key: rsa.key });
  assert.equal(describeKeyAlgorithm(rsa.cert), 'RSA 2048');
});
