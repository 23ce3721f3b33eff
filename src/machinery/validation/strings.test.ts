import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorText } from '../field-errors.ts';
import {
  cidrContains, cidrContainsIP, cidrFamilyOf, cidrIsStrictSubset, ipFamilyOf, isCIdentifier, isConfigMapKey, isDNS1035Label,
  isDNS1123Label, isDNS1123Subdomain, isDomainPrefixedKey, isDomainPrefixedPath, isEnvVarName, isFullyQualifiedDomainName,
  isFullyQualifiedName, isHTTPHeaderName, isPrefixedQualifiedName, isQualifiedName, isValidCIDR, isValidIP, isValidIPv4Address,
  isValidIPv6Address, isValidLabelValue, isValidPathSegmentName, isValidPercent, isValidPortName, isValidPortNum,
  isWildcardDNS1123Subdomain, byteLength, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain, nameIsPathSegment, parseCIDR, regexError,
} from './strings.ts';

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const dns1035Msg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const qnameNameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

test('regexError formats examples the way Go does (double space before "or")', () => {
  assert.equal(regexError('m', 'f'), "m (regex used for validation is 'f')");
  assert.equal(regexError('m', 'f', 'a'), "m (e.g. 'a', regex used for validation is 'f')");
  assert.equal(regexError('m', 'f', 'a', 'b'), "m (e.g. 'a',  or 'b', regex used for validation is 'f')");
});

test('isDNS1123Subdomain', () => {
  for (const ok of ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '0-1', 'a.a', 'ab.ab', 'a-1.a-1', '1.2.3.4', 'a'.repeat(253), 'example.com']) {
    assert.deepEqual(isDNS1123Subdomain(ok), [], ok);
  }
  for (const bad of ['', 'A', 'ABC', 'aBc', 'A1', 'a_1', 'a@1', '-', '-1', '1-', 'a.', '.a', 'a..b', 'a.-a', 'a$b', 'a b', 'ñ']) {
    assert.deepEqual(isDNS1123Subdomain(bad), [subdomainMsg], bad);
  }
  assert.deepEqual(isDNS1123Subdomain('a'.repeat(254)), ['must be no more than 253 characters']);
  assert.deepEqual(isDNS1123Subdomain('A'.repeat(254)), ['must be no more than 253 characters', subdomainMsg]);
});

test('isDNS1123Label', () => {
  for (const ok of ['a', 'ab', 'a1', 'a-1', 'a--1--2--b', '0', '01', '0-1', 'a'.repeat(63)]) assert.deepEqual(isDNS1123Label(ok), [], ok);
  for (const bad of ['', 'A', 'ABC', 'a_1', '-', '-1', '1-', 'a$b', 'my_name']) assert.deepEqual(isDNS1123Label(bad), [labelMsg], bad);
  assert.deepEqual(isDNS1123Label('my.ns'), ['must not contain dots']);
  assert.deepEqual(isDNS1123Label('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('isDNS1035Label', () => {
  for (const ok of ['a', 'ab', 'a1', 'a-1', 'a--1--2--b', 'a'.repeat(63)]) assert.deepEqual(isDNS1035Label(ok), [], ok);
  for (const bad of ['0', '01', '0-1', '1-', 'A', 'a.b', '-', 'a-', 'my_name']) assert.deepEqual(isDNS1035Label(bad), [dns1035Msg], bad);
  assert.deepEqual(isDNS1035Label('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('isWildcardDNS1123Subdomain', () => {
  assert.deepEqual(isWildcardDNS1123Subdomain('*.example.com'), []);
  assert.equal(isWildcardDNS1123Subdomain('*.*.bar.com').length, 1);
  assert.equal(isWildcardDNS1123Subdomain('*bar.com').length, 1);
});

test('isQualifiedName (label keys, annotation keys, finalizers)', () => {
  for (const ok of ['simple', 'now-with-dashes', '1-starts-with-num', '1234', 'simple/simple', 'now-with-dashes/simple', 'now-with-dashes/now-with-dashes',
    'now.with.dots/simple', 'now-with.dashes-and.dots/simple', '1-num.2-num/3-num', '1234/5678', '1.2.3.4/5678', 'Uppercase_Is_OK_123',
    'example.com/Uppercase_Is_OK_123', 'requests.storage-foo', 'a'.repeat(63), 'a'.repeat(253) + '/' + 'b'.repeat(63), 'platform.io/finalizer']) {
    assert.deepEqual(isQualifiedName(ok), [], ok);
  }
  assert.deepEqual(isQualifiedName('nospecialchars%^=@'), [qnameNameMsg]);
  assert.deepEqual(isQualifiedName('cantendwithadash-'), [qnameNameMsg]);
  assert.deepEqual(isQualifiedName('-cantstartwithadash'), [qnameNameMsg]);
  assert.deepEqual(isQualifiedName('bad key'), [qnameNameMsg]);
  assert.deepEqual(isQualifiedName(''), ['name part must be non-empty', qnameNameMsg]);
  assert.deepEqual(isQualifiedName('a'.repeat(64)), ['name part must be no more than 63 characters']);
  assert.deepEqual(isQualifiedName('/simple'), ['prefix part must be non-empty']);
  assert.deepEqual(isQualifiedName('example.com/'), ['name part must be non-empty', qnameNameMsg]);
  assert.deepEqual(isQualifiedName('Example.com/name'), ['prefix part ' + subdomainMsg]);
  assert.deepEqual(isQualifiedName('a'.repeat(254) + '/x'), ['prefix part must be no more than 253 characters']);
  assert.deepEqual(isQualifiedName('a/b/c'), [
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]);
  assert.deepEqual(isPrefixedQualifiedName('example.com/x'), []);
  assert.deepEqual(isPrefixedQualifiedName('x'), ["must include a prefix (e.g. 'example.com/key')"]);
});

test('isValidLabelValue', () => {
  for (const ok of ['simple', 'now-with-dashes', '1-starts-with-num', 'end-with-num-1', '1234', 'a'.repeat(63), '', 'MyValue', 'my_value']) {
    assert.deepEqual(isValidLabelValue(ok), [], ok);
  }
  for (const bad of ['nospecialchars%^=@', 'Tama-nui-te-rā.is.Māori.sun', '\\backslashes\\are\\bad', '-starts-with-dash', 'ends-with-dash-',
    '.starts.with.dot', 'ends.with.dot.', 'a b', 'a/b']) {
    assert.deepEqual(isValidLabelValue(bad), [labelValueMsg], bad);
  }
  assert.deepEqual(isValidLabelValue('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('isConfigMapKey', () => {
  for (const ok of ['a', 'a.b', 'a-b', 'a_b', '.a', 'KEY_NAME', 'key.name', '.dotfile', 'a'.repeat(253)]) assert.deepEqual(isConfigMapKey(ok), [], ok);
  const msg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
  assert.deepEqual(isConfigMapKey('a b'), [msg]);
  assert.deepEqual(isConfigMapKey(''), [msg]);
  assert.deepEqual(isConfigMapKey('a/b'), [msg]);
  assert.deepEqual(isConfigMapKey('.'), ["must not be '.'"]);
  assert.deepEqual(isConfigMapKey('..'), ["must not be '..'"]);
  assert.deepEqual(isConfigMapKey('..a'), ["must not start with '..'"]);
  assert.deepEqual(isConfigMapKey('a'.repeat(254)), ['must be no more than 253 characters']);
});

test('small formats: ports, percent, header, env var, C identifier', () => {
  assert.deepEqual(isValidPortNum(1), []);
  assert.deepEqual(isValidPortNum(65535), []);
  assert.deepEqual(isValidPortNum(0), ['must be between 1 and 65535, inclusive']);
  assert.deepEqual(isValidPortNum(65536), ['must be between 1 and 65535, inclusive']);
  assert.deepEqual(isValidPortName('http'), []);
  assert.deepEqual(isValidPortName('a-b-c'), []);
  assert.deepEqual(isValidPortName('1234'), ['must contain at least one letter (a-z)']);
  assert.deepEqual(isValidPortName('a--b'), ['must not contain consecutive hyphens']);
  assert.deepEqual(isValidPortName('-ab'), ['must not begin or end with a hyphen']);
  assert.deepEqual(isValidPortName('this-is-too-long-a-name'), ['must be no more than 15 characters']);
  assert.deepEqual(isValidPortName('Http'), ['must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)']);
  assert.deepEqual(isValidPercent('1%'), []);
  assert.deepEqual(isValidPercent('100%'), []);
  assert.deepEqual(isValidPercent('1'), ["a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"]);
  assert.equal(isValidPercent('-1%').length, 1);
  assert.deepEqual(isHTTPHeaderName('X-Header-Name'), []);
  assert.deepEqual(isHTTPHeaderName('X_Header'), ["a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')"]);
  assert.deepEqual(isEnvVarName('MY_ENV.NAME'), []);
  assert.equal(isEnvVarName('1abc').length, 1);
  assert.deepEqual(isEnvVarName('..'), ["must not be '..'"]);
  assert.deepEqual(isCIdentifier('my_name'), []);
  assert.equal(isCIdentifier('1name').length, 1);
});

test('domain-prefixed paths and keys, fully qualified names', () => {
  assert.deepEqual(isDomainPrefixedPath('spec.x', 'acme.io/foo'), []);
  assert.deepEqual(isDomainPrefixedPath('spec.x', 'acme.io/foo/bar~baz'), []);
  assert.deepEqual(isDomainPrefixedPath('spec.x', '').map(fieldErrorText), ['spec.x: Required value']);
  assert.deepEqual(isDomainPrefixedPath('spec.x', 'acme.io').map(fieldErrorText), ['spec.x: Invalid value: "acme.io": must be a domain-prefixed path (such as "acme.io/foo")']);
  assert.deepEqual(isDomainPrefixedPath('spec.x', 'Acme.io/foo').map(fieldErrorText), [`spec.x: Invalid value: "Acme.io": ${subdomainMsg}`]);
  assert.deepEqual(isDomainPrefixedPath('spec.x', 'acme.io/foo bar').map(fieldErrorText), [
    "spec.x: Invalid value: \"foo bar\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
  ]);
  assert.deepEqual(isDomainPrefixedKey('k', 'acme.io/foo'), []);
  assert.deepEqual(isDomainPrefixedKey('k', 'foo').map(fieldErrorText), ['k: Invalid value: "foo": must be a domain-prefixed key (such as "acme.io/foo")']);
  assert.deepEqual(isFullyQualifiedName('spec.group', 'a.b.c'), []);
  assert.deepEqual(isFullyQualifiedName('spec.group', 'a.b').map(fieldErrorText), ['spec.group: Invalid value: "a.b": should be a domain with at least three segments separated by dots']);
  assert.deepEqual(isFullyQualifiedName('spec.group', '').map(fieldErrorText), ['spec.group: Required value']);
  assert.deepEqual(isFullyQualifiedName('spec.group', 'A.b.c').map(fieldErrorText), [`spec.group: Invalid value: "A.b.c": ${subdomainMsg}`]);
  assert.deepEqual(isFullyQualifiedDomainName('h', 'example.com.'), []);
  assert.deepEqual(isFullyQualifiedDomainName('h', 'example').map(fieldErrorText), ['h: Invalid value: "example": should be a domain with at least two segments separated by dots']);
});

test('path segment names', () => {
  assert.deepEqual(isValidPathSegmentName('a.b'), []);
  assert.deepEqual(isValidPathSegmentName('.'), ["may not be '.'"]);
  assert.deepEqual(isValidPathSegmentName('..'), ["may not be '..'"]);
  assert.deepEqual(isValidPathSegmentName('a/b%c'), ["may not contain '/'", "may not contain '%'"]);
  assert.deepEqual(nameIsPathSegment('..', true), []);
  assert.deepEqual(nameIsPathSegment('a/', true), ["may not contain '/'"]);
});

test('name validators: prefix=true accepts a trailing dash (generateName)', () => {
  assert.deepEqual(nameIsDNSSubdomain('foo-', true), []);
  assert.deepEqual(nameIsDNSSubdomain('foo-', false), [subdomainMsg]);
  assert.deepEqual(nameIsDNSSubdomain('Foo-', true), [subdomainMsg]);
  assert.deepEqual(nameIsDNSLabel('web-', true), []);
  assert.deepEqual(nameIsDNSLabel('web.x-', true), ['must not contain dots']);
  assert.deepEqual(nameIsDNS1035Label('svc-', true), []);
  assert.deepEqual(nameIsDNS1035Label('1svc-', true), [dns1035Msg]);
  assert.deepEqual(nameIsDNSLabel('-', true), [labelMsg]);
});

test('IP addresses (sloppy parsing as Kubernetes does)', () => {
  const ipMsg = ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
  for (const ok of ['1.2.3.4', '0.0.0.0', '255.255.255.255', '010.001.002.003', '::', '::1', '2001:db8::ffff', '2001:db8:0:0:0:0:0:1', '::ffff:1.2.3.4', 'fe80::1:2:3:4', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:1.2.3.4']) {
    assert.deepEqual(isValidIP(ok), [], ok);
  }
  for (const bad of ['', '1.2.3', '1.2.3.4.5', '256.1.1.1', '1.2.3.4 ', 'a.b.c.d', ':::', '1:2:3:4:5:6:7:8:9', '1::2::3', 'fe80::1%eth0', '1.2.3.4/32', 'abcd', '12345::', '1:2:3:4:5:6:7::8:9']) {
    assert.deepEqual(isValidIP(bad), ipMsg, bad);
  }
  assert.deepEqual(isValidIPv4Address('1.2.3.4'), []);
  assert.deepEqual(isValidIPv4Address('::ffff:1.2.3.4'), []);
  assert.deepEqual(isValidIPv4Address('::1'), ['must be a valid IPv4 address']);
  assert.deepEqual(isValidIPv6Address('::1'), []);
  assert.deepEqual(isValidIPv6Address('1.2.3.4'), ['must be a valid IPv6 address']);
  assert.equal(ipFamilyOf('10.0.0.1'), 'IPv4');
  assert.equal(ipFamilyOf('::ffff:10.0.0.1'), 'IPv4');
  assert.equal(ipFamilyOf('fd00::1'), 'IPv6');
  assert.equal(ipFamilyOf('nope'), undefined);
});

test('CIDRs', () => {
  const cidrMsg = ['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'];
  for (const ok of ['10.0.0.0/8', '10.0.0.1/8', '0.0.0.0/0', '192.168.1.0/24', '2001:db8::/64', '::/0', '::1/128', '010.0.0.0/8']) {
    assert.deepEqual(isValidCIDR(ok), [], ok);
  }
  for (const bad of ['', '10.0.0.0', '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/-1', '10.0.0.0/a', 'x/8', '10.0.0.0/ 8']) {
    assert.deepEqual(isValidCIDR(bad), cidrMsg, bad);
  }
  assert.equal(cidrFamilyOf('10.0.0.0/8'), 'IPv4');
  assert.equal(cidrFamilyOf('fd00::/8'), 'IPv6');
  const c = parseCIDR('10.1.2.3/16')!;
  assert.equal(c.prefixLength, 16);
  assert.equal(c.bits, 32);
  assert.deepEqual([...c.network], [10, 1, 0, 0]);

  assert.equal(cidrContains('10.0.0.0/8', '10.1.0.0/16'), true);
  assert.equal(cidrContains('10.0.0.0/8', '10.0.0.0/8'), true);
  assert.equal(cidrContains('10.0.0.0/16', '10.0.0.0/8'), false);
  assert.equal(cidrContains('10.0.0.0/8', '11.0.0.0/16'), false);
  assert.equal(cidrContains('10.0.0.0/8', 'fd00::/64'), false);
  assert.equal(cidrContains('fd00::/8', 'fd00:1::/64'), true);
  assert.equal(cidrContains('bad', '10.0.0.0/8'), false);
  assert.equal(cidrIsStrictSubset('10.0.0.0/8', '10.1.0.0/16'), true);
  assert.equal(cidrIsStrictSubset('10.0.0.0/8', '10.0.0.0/8'), false);
  assert.equal(cidrIsStrictSubset('172.17.0.0/16', '172.17.1.0/24'), true);
  assert.equal(cidrIsStrictSubset('172.17.0.0/16', '172.18.1.0/24'), false);
  assert.equal(cidrContainsIP('10.0.0.0/8', '10.2.3.4'), true);
  assert.equal(cidrContainsIP('10.0.0.0/8', '::ffff:10.2.3.4'), true);
  assert.equal(cidrContainsIP('10.0.0.0/8', '11.2.3.4'), false);
});

test('byteLength counts UTF-8 bytes as Go does, a lone surrogate as the 3 bytes of U+FFFD', () => {
  assert.equal(byteLength(''), 0);
  assert.equal(byteLength('abc'), 3);
  assert.equal(byteLength('é€😀'), 2 + 3 + 4);
  assert.equal(byteLength('a\ud800b'), 5);
  assert.equal(byteLength('\ude00\ud83d'), 6);
});
