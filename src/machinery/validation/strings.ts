// String format validators with Kubernetes' messages (apimachinery pkg/util/validation and
// pkg/api/validation/path). Each `isX(value)` returns the list of problems; an empty list means valid.
import { type FieldError, invalid, required } from '../field-errors.ts';

/** Go's len(): the UTF-8 byte length (a lone surrogate counts as U+FFFD's 3 bytes, as Go decodes it).
 *  Node counts without encoding, several times faster than a scan for ASCII in JavaScript. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

// ---- message builders (validation.go) ----

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = msg + ' (e.g. ';
  examples.forEach((e, i) => {
    if (i > 0) s += ' or ';
    s += `'${e}', `;
  });
  return s + `regex used for validation is '${fmt}')`;
}

export function emptyError(): string {
  return 'must be non-empty';
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

function full(fmt: string): RegExp {
  return new RegExp('^(?:' + fmt + ')$');
}

// ---- DNS names ----

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
export const DNS1123LabelMaxLength = 63;
const dns1123LabelRe = full(dns1123LabelFmt);

const dns1123SubdomainFmt = dns1123LabelFmt + '(\\.' + dns1123LabelFmt + ')*';
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
export const DNS1123SubdomainMaxLength = 253;
const dns1123SubdomainRe = full(dns1123SubdomainFmt);

const dns1123LabelFmtWithUnderscore = '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmtWithUnderscore = dns1123LabelFmtWithUnderscore + '(\\.' + dns1123LabelFmtWithUnderscore + ')*';
const dns1123SubdomainErrMsgWithUnderscore =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainWithUnderscoreRe = full(dns1123SubdomainFmtWithUnderscore);

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
export const DNS1035LabelMaxLength = 63;
const dns1035LabelRe = full(dns1035LabelFmt);

const wildcardDNS1123SubdomainFmt = '\\*\\.' + dns1123SubdomainFmt;
const wildcardDNS1123SubdomainErrMsg =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const wildcardDNS1123SubdomainRe = full(wildcardDNS1123SubdomainFmt);

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123LabelMaxLength) errs.push(maxLenError(DNS1123LabelMaxLength));
  if (!dns1123LabelRe.test(value)) {
    // A valid subdomain that is not a valid label (length already checked) can only be failing on dots.
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

export function isDNS1123SubdomainWithUnderscore(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!dns1123SubdomainWithUnderscoreRe.test(value)) {
    errs.push(regexError(dns1123SubdomainErrMsgWithUnderscore, dns1123SubdomainFmtWithUnderscore, 'example.com'));
  }
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1035LabelMaxLength) errs.push(maxLenError(DNS1035LabelMaxLength));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!wildcardDNS1123SubdomainRe.test(value)) {
    errs.push(regexError(wildcardDNS1123SubdomainErrMsg, wildcardDNS1123SubdomainFmt, '*.example.com'));
  }
  return errs;
}

// ---- qualified names and label values ----

const qnameCharFmt = '[A-Za-z0-9]';
const qnameExtCharFmt = '[-A-Za-z0-9_.]';
const qualifiedNameFmt = '(' + qnameCharFmt + qnameExtCharFmt + '*)?' + qnameCharFmt;
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameMaxLength = 63;
const qualifiedNameRe = full(qualifiedNameFmt);

/** Label keys, annotation keys, finalizers: `[prefix/]name`, prefix a DNS subdomain, name at most 63 characters. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part ' + emptyError());
    else for (const msg of isDNS1123Subdomain(prefix)) errs.push('prefix part ' + msg);
  } else {
    return [
      'a qualified name ' +
        regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc') +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part ' + emptyError());
  else if (byteLength(name) > qualifiedNameMaxLength) errs.push('name part ' + maxLenError(qualifiedNameMaxLength));
  if (!qualifiedNameRe.test(name)) {
    errs.push('name part ' + regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc'));
  }
  return errs;
}

/** Like isQualifiedName, but the prefix is mandatory. */
export function isPrefixedQualifiedName(value: string): string[] {
  const errs = isQualifiedName(value);
  if (errs.length > 0) return errs;
  if (value.split('/').length !== 2) return ["must include a prefix (e.g. 'example.com/key')"];
  return [];
}

const labelValueFmt = '(' + qualifiedNameFmt + ')?';
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
export const LabelValueMaxLength = 63;
const labelValueRe = full(labelValueFmt);

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LabelValueMaxLength) errs.push(maxLenError(LabelValueMaxLength));
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

// ---- identifiers, keys and small formats ----

const cIdentifierFmt = '[A-Za-z_][A-Za-z0-9_]*';
const cIdentifierErrMsg =
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";
const cIdentifierRe = full(cIdentifierFmt);

export function isCIdentifier(value: string): string[] {
  if (!cIdentifierRe.test(value)) return [regexError(cIdentifierErrMsg, cIdentifierFmt, 'my_name', 'MY_NAME', 'MyName')];
  return [];
}

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRe = full(configMapKeyFmt);

/** Keys of ConfigMap data/binaryData and Secret data/stringData. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123SubdomainMaxLength) errs.push(maxLenError(DNS1123SubdomainMaxLength));
  if (!configMapKeyRe.test(value)) errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  errs.push(...hasChDirPrefix(value));
  return errs;
}

const envVarNameFmt = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const envVarNameErrMsg =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const envVarNameRe = full(envVarNameFmt);

export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!envVarNameRe.test(value)) errs.push(regexError(envVarNameErrMsg, envVarNameFmt, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  errs.push(...hasChDirPrefix(value));
  return errs;
}

/** The RelaxedEnvironmentVariableValidation form: printable ASCII other than '='. */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push('environment variable name ' + emptyError());
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (c > 0x7f || c < 0x20 || c === 0x7f || ch === '=') {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errs;
}

export function isValidPortNum(port: number): string[] {
  if (Number.isInteger(port) && port >= 1 && port <= 65535) return [];
  return [inclusiveRangeError(1, 65535)];
}

export function isInRange(value: number, min: number, max: number): string[] {
  if (value >= min && value <= max) return [];
  return [inclusiveRangeError(min, max)];
}

export function isValidGroupID(gid: number): string[] {
  return isInRange(gid, 0, 0xffffffff);
}

export function isValidUserID(uid: number): string[] {
  return isInRange(uid, 0, 0xffffffff);
}

/** IANA service names used as port names: at most 15 of [-a-z0-9], a letter, no '--', no leading or trailing '-'. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLength(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port[0] === '-' || port[port.length - 1] === '-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

const percentFmt = '[0-9]+%';
const percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%'";
const percentRe = full(percentFmt);

export function isValidPercent(percent: string): string[] {
  if (!percentRe.test(percent)) return [regexError(percentErrMsg, percentFmt, '1%', '93%')];
  return [];
}

const httpHeaderNameFmt = '[-A-Za-z0-9]+';
const httpHeaderNameErrMsg = "a valid HTTP header must consist of alphanumeric characters or '-'";
const httpHeaderNameRe = full(httpHeaderNameFmt);

export function isHTTPHeaderName(value: string): string[] {
  if (!httpHeaderNameRe.test(value)) return [regexError(httpHeaderNameErrMsg, httpHeaderNameFmt, 'X-Header-Name')];
  return [];
}

// ---- checks that report whole field errors (their value differs from the input) ----

/** A domain with at least three dot-separated segments and no trailing dot (IsFullyQualifiedName). */
export function isFullyQualifiedName(path: string, name: string): FieldError[] {
  if (name.length === 0) return [required(path, '')];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

/** A domain with at least two segments; a trailing dot is allowed (IsFullyQualifiedDomainName). */
export function isFullyQualifiedDomainName(path: string, name: string): FieldError[] {
  if (name.length === 0) return [required(path, '')];
  if (name.endsWith('.')) name = name.slice(0, -1);
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(path, name, errs.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) return [invalid(path, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const le = isDNS1123Label(label);
    if (le.length > 0) return [invalid(path, label, le.join(','))];
  }
  return [];
}

const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRe = full(httpPathFmt);

/** `acme.io/foo`: a DNS subdomain, '/', then RFC 3986 path characters (IsDomainPrefixedPath). */
export function isDomainPrefixedPath(path: string, dpPath: string): FieldError[] {
  if (dpPath.length === 0) return [required(path, '')];
  const slash = dpPath.indexOf('/');
  const host = slash < 0 ? dpPath : dpPath.slice(0, slash);
  const rest = slash < 0 ? '' : dpPath.slice(slash + 1);
  if (slash < 0 || host.length === 0 || rest.length === 0) {
    return [invalid(path, dpPath, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs: FieldError[] = isDNS1123Subdomain(host).map((m) => invalid(path, host, m));
  if (!httpPathRe.test(rest)) errs.push(invalid(path, rest, regexError('Invalid path', httpPathFmt)));
  return errs;
}

/** `acme.io/foo` where the whole key is a qualified name with a prefix (IsDomainPrefixedKey). */
export function isDomainPrefixedKey(path: string, key: string): FieldError[] {
  if (key.length === 0) return [required(path, '')];
  const errs = isQualifiedName(key).map((m) => invalid(path, key, m));
  if (errs.length > 0) return errs;
  if (key.split('/').length !== 2) return [invalid(path, key, 'must be a domain-prefixed key (such as "acme.io/foo")')];
  return [];
}

// ---- path segments and object names (pkg/api/validation/path, pkg/api/validation/generic.go) ----

/** Names that can be put in a URL path segment: not '.' or '..', no '/' or '%'. */
export function isValidPathSegmentName(name: string): string[] {
  for (const bad of ['.', '..']) if (name === bad) return [`may not be '${bad}'`];
  return isValidPathSegmentPrefix(name);
}

export function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}

/** Validates a generateName prefix as if random characters followed it: a trailing '-' is fine. */
function maskTrailingDash(name: string): string {
  // Kubernetes drops the last two characters and appends 'a'; kept as is for identical messages.
  if (name.length > 1 && name.endsWith('-')) return name.slice(0, -2) + 'a';
  return name;
}

/** Signature of the per-kind name check; prefix=true means the value is a generateName. */
export type NameValidator = (name: string, prefix: boolean) => string[];

export function nameIsDNSSubdomain(name: string, prefix: boolean): string[] {
  return isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
}

export function nameIsDNSLabel(name: string, prefix: boolean): string[] {
  return isDNS1123Label(prefix ? maskTrailingDash(name) : name);
}

export function nameIsDNS1035Label(name: string, prefix: boolean): string[] {
  return isDNS1035Label(prefix ? maskTrailingDash(name) : name);
}

export function nameIsPathSegment(name: string, prefix: boolean): string[] {
  return prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);
}

// ---- IP addresses and CIDRs (netutils "sloppy" parsing: IPv4 octets may have leading zeros) ----

export type IPFamily = 'IPv4' | 'IPv6';

/** A parsed address: 4 bytes when written as IPv4, 16 when written as IPv6. */
export type IPBytes = Uint8Array;

const ipBig = 0xffffff;

function dtoi(s: string, at: number): [n: number, used: number] | undefined {
  let n = 0;
  let i = at;
  for (; i < s.length && s[i] >= '0' && s[i] <= '9'; i++) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    if (n >= ipBig) return undefined;
  }
  return i === at ? undefined : [n, i - at];
}

function xtoi(s: string, at: number): [n: number, used: number] | undefined {
  let n = 0;
  let i = at;
  for (; i < s.length; i++) {
    const c = s[i];
    let d: number;
    if (c >= '0' && c <= '9') d = c.charCodeAt(0) - 48;
    else if (c >= 'a' && c <= 'f') d = c.charCodeAt(0) - 87;
    else if (c >= 'A' && c <= 'F') d = c.charCodeAt(0) - 55;
    else break;
    n = n * 16 + d;
    if (n >= ipBig) return undefined;
  }
  return i === at ? undefined : [n, i - at];
}

function parseIPv4(s: string): IPBytes | undefined {
  const out = new Uint8Array(4);
  let pos = 0;
  for (let i = 0; i < 4; i++) {
    if (pos >= s.length) return undefined;
    if (i > 0) {
      if (s[pos] !== '.') return undefined;
      pos++;
    }
    const r = dtoi(s, pos);
    if (!r || r[0] > 0xff) return undefined;
    out[i] = r[0];
    pos += r[1];
  }
  return pos === s.length ? out : undefined;
}

function parseIPv6(s: string): IPBytes | undefined {
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  let pos = 0;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    pos = 2;
    if (pos === s.length) return ip;
  }
  let i = 0;
  while (i < 16) {
    const r = xtoi(s, pos);
    if (!r || r[0] > 0xffff) return undefined;
    const [n, c] = r;
    if (pos + c < s.length && s[pos + c] === '.') {
      // Trailing dotted IPv4 part.
      if (ellipsis < 0 && i !== 12) return undefined;
      if (i + 4 > 16) return undefined;
      const v4 = parseIPv4(s.slice(pos));
      if (!v4) return undefined;
      ip.set(v4, i);
      pos = s.length;
      i += 4;
      break;
    }
    ip[i] = n >> 8;
    ip[i + 1] = n & 0xff;
    i += 2;
    pos += c;
    if (pos === s.length) break;
    if (s[pos] !== ':' || pos + 1 === s.length) return undefined;
    pos++;
    if (s[pos] === ':') {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      pos++;
      if (pos === s.length) break;
    }
  }
  if (pos !== s.length) return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j];
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    return undefined;
  }
  return ip;
}

/** Parses an IP address the way Kubernetes' ParseIPSloppy does; undefined when invalid. */
export function parseIP(s: string): IPBytes | undefined {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '.') return parseIPv4(s);
    if (s[i] === ':') return parseIPv6(s);
  }
  return undefined;
}

/** The IPv4 address of a 4-byte or IPv4-mapped IPv6 address, as Go's net.IP.To4; undefined for any other. */
export function to4(ip: IPBytes): IPBytes | undefined {
  if (ip.length === 4) return ip;
  for (let i = 0; i < 10; i++) if (ip[i] !== 0) return undefined;
  if (ip[10] !== 0xff || ip[11] !== 0xff) return undefined;
  return ip.slice(12);
}

export function isValidIP(value: string): string[] {
  if (!parseIP(value)) return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
  return [];
}

export function isValidIPv4Address(value: string): string[] {
  const ip = parseIP(value);
  if (!ip || !to4(ip)) return ['must be a valid IPv4 address'];
  return [];
}

export function isValidIPv6Address(value: string): string[] {
  const ip = parseIP(value);
  if (!ip || to4(ip)) return ['must be a valid IPv6 address'];
  return [];
}

/** 'IPv4' for IPv4 and IPv4-mapped IPv6 addresses, 'IPv6' otherwise, undefined if not an IP. */
export function ipFamilyOf(ip: string): IPFamily | undefined {
  const b = parseIP(ip);
  if (!b) return undefined;
  return to4(b) ? 'IPv4' : 'IPv6';
}

export interface ParsedCIDR {
  /** The address as written (4 or 16 bytes). */
  ip: IPBytes;
  /** The network address (address with host bits cleared), 4 or 16 bytes like Go's IPNet.IP. */
  network: IPBytes;
  /** The mask, 4 bytes for an IPv4 CIDR and 16 for an IPv6 one. */
  mask: Uint8Array;
  prefixLength: number;
  /** Address size in bits: 32 or 128. */
  bits: number;
}

function cidrMask(ones: number, bits: number): Uint8Array {
  const m = new Uint8Array(bits / 8);
  for (let i = 0; i < m.length; i++) {
    const take = Math.max(0, Math.min(8, ones - i * 8));
    m[i] = (0xff << (8 - take)) & 0xff;
  }
  return m;
}

/** Parses a CIDR the way Kubernetes' ParseCIDRSloppy does; undefined when invalid. */
export function parseCIDR(s: string): ParsedCIDR | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const addr = s.slice(0, slash);
  const maskText = s.slice(slash + 1);
  let iplen = 4;
  let ip = parseIPv4(addr);
  if (!ip) {
    iplen = 16;
    ip = parseIPv6(addr);
  }
  const r = dtoi(maskText, 0);
  if (!ip || !r || r[1] !== maskText.length || r[0] > iplen * 8) return undefined;
  const mask = cidrMask(r[0], iplen * 8);
  // Go's IP.Mask: a 4-byte mask applied to an IPv4-mapped 16-byte IP yields 4 bytes.
  let base = ip;
  if (mask.length === 4 && ip.length === 16) base = to4(ip) ?? ip;
  const network = new Uint8Array(base.length);
  for (let i = 0; i < base.length; i++) network[i] = base[i] & mask[i];
  return { ip, network, mask, prefixLength: r[0], bits: iplen * 8 };
}

export function isValidCIDR(value: string): string[] {
  if (!parseCIDR(value)) return ['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'];
  return [];
}

/** 'IPv4' or 'IPv6' by the CIDR's network address (netutils.IsIPv4CIDR), undefined if invalid. */
export function cidrFamilyOf(cidr: string): IPFamily | undefined {
  const c = parseCIDR(cidr);
  if (!c) return undefined;
  return to4(c.network) ? 'IPv4' : 'IPv6';
}

/** Go's IPNet.Contains(ip). */
function netContains(net: ParsedCIDR, ipIn: IPBytes): boolean {
  let nn = to4(net.network);
  if (!nn) {
    nn = net.network;
    if (nn.length !== 16) return false;
  }
  let m = net.mask;
  if (m.length === 4) {
    if (nn.length !== 4) return false;
  } else if (nn.length === 4) {
    m = m.slice(12);
  }
  const ip = to4(ipIn) ?? ipIn;
  if (ip.length !== nn.length) return false;
  for (let i = 0; i < ip.length; i++) if ((nn[i] & m[i]) !== (ip[i] & m[i])) return false;
  return true;
}

/** Mask length as Go's IPMask.Size reports it. */
function maskOnes(m: Uint8Array): number {
  let ones = 0;
  for (const b of m) for (let bit = 7; bit >= 0; bit--) if (b & (1 << bit)) ones++;
  return ones;
}

/**
 * Whether `inner` lies within `outer`: outer contains inner's network address and inner's prefix is
 * at least as long. False when either is not a valid CIDR.
 */
export function cidrContains(outerCidr: string, innerCidr: string): boolean {
  const outer = parseCIDR(outerCidr);
  const inner = parseCIDR(innerCidr);
  if (!outer || !inner) return false;
  return netContains(outer, inner.network) && maskOnes(inner.mask) >= maskOnes(outer.mask);
}

/**
 * NetworkPolicy's ipBlock.except rule: `inner` must be a strict subset of `outer` (contained and with a
 * longer prefix). When it is not, Kubernetes reports "must be a strict subset of `cidr`".
 */
export function cidrIsStrictSubset(outerCidr: string, innerCidr: string): boolean {
  const outer = parseCIDR(outerCidr);
  const inner = parseCIDR(innerCidr);
  if (!outer || !inner) return false;
  return netContains(outer, inner.network) && maskOnes(outer.mask) < maskOnes(inner.mask);
}

/** Whether an IP address lies within a CIDR (Go's IPNet.Contains); false if either is invalid. */
export function cidrContainsIP(cidr: string, ip: string): boolean {
  const net = parseCIDR(cidr);
  const addr = parseIP(ip);
  if (!net || !addr) return false;
  return netContains(net, addr);
}
