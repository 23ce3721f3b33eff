import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { servingHosts, DEFAULT_SERVING_DNS_NAMES } from './hosts.ts';

test('servingHosts covers the in-cluster names, the hostname and loopback by default', () => {
  const hosts = servingHosts();
  for (const name of ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc']) {
    assert.ok(hosts.dnsNames.includes(name), name);
  }
  assert.deepEqual(hosts.dnsNames.slice(0, DEFAULT_SERVING_DNS_NAMES.length), DEFAULT_SERVING_DNS_NAMES);
  assert.ok(hosts.dnsNames.includes(hostname().toLowerCase()));
  assert.deepEqual(hosts.ipAddresses, ['127.0.0.1', '::1']);
});

test('servingHosts sorts extras into names and addresses, normalised, without duplicates or wildcards', () => {
  const hosts = servingHosts(['API.Example.test', ' 10.0.0.5 ', '[FD00::0:2]', '0:0:0:0:0:0:0:1', '0.0.0.0', '::', '', 'localhost']);
  assert.ok(hosts.dnsNames.includes('api.example.test'));
  assert.equal(hosts.dnsNames.filter((name) => name === 'localhost').length, 1);
  assert.deepEqual(hosts.ipAddresses, ['127.0.0.1', '::1', '10.0.0.5', 'fd00::2']);
});
