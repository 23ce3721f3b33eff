import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Quantity, QuantityError, ErrFormatWrong, ErrNumeric, ErrSuffix, canonicalQuantity, cmp, isValidQuantity, parseQuantity, quantityFromJSON,
} from './quantity.ts';

/** Exact value as a decimal string, for comparing against Kubernetes' decQuantity(mantissa, exponent). */
function dec(mantissa: bigint, exponent: number): bigint {
  // value × 10^9 = mantissa × 10^(exponent + 9)
  const shift = exponent + 9;
  return shift >= 0 ? mantissa * 10n ** BigInt(shift) : mantissa / 10n ** BigInt(-shift);
}

test('parse: value and format (Kubernetes TestQuantityParse table)', () => {
  const maxAllowed = (2n ** 63n - 1n) * 1_000_000_000n;
  const table: [string, bigint, Quantity['format']][] = [
    ['0', 0n, 'DecimalSI'],
    ['0n', 0n, 'DecimalSI'],
    ['0u', 0n, 'DecimalSI'],
    ['0m', 0n, 'DecimalSI'],
    ['0Ki', 0n, 'BinarySI'],
    ['0k', 0n, 'DecimalSI'],
    ['0Mi', 0n, 'BinarySI'],
    ['0M', 0n, 'DecimalSI'],
    ['0Gi', 0n, 'BinarySI'],
    ['0G', 0n, 'DecimalSI'],
    ['0Ti', 0n, 'BinarySI'],
    ['0T', 0n, 'DecimalSI'],
    ['1', dec(1n, 0), 'DecimalSI'],
    ['1Ki', dec(1024n, 0), 'BinarySI'],
    ['8Ki', dec(8n * 1024n, 0), 'BinarySI'],
    ['7Mi', dec(7n * 1024n ** 2n, 0), 'BinarySI'],
    ['6Gi', dec(6n * 1024n ** 3n, 0), 'BinarySI'],
    ['5Ti', dec(5n * 1024n ** 4n, 0), 'BinarySI'],
    ['4Pi', dec(4n * 1024n ** 5n, 0), 'BinarySI'],
    ['3Ei', dec(3n * 1024n ** 6n, 0), 'BinarySI'],
    ['10Ti', dec(10n * 1024n ** 4n, 0), 'BinarySI'],
    ['100Ti', dec(100n * 1024n ** 4n, 0), 'BinarySI'],
    ['5n', dec(5n, -9), 'DecimalSI'],
    ['4u', dec(4n, -6), 'DecimalSI'],
    ['3m', dec(3n, -3), 'DecimalSI'],
    ['9', dec(9n, 0), 'DecimalSI'],
    ['8k', dec(8n, 3), 'DecimalSI'],
    ['50k', dec(5n, 4), 'DecimalSI'],
    ['7M', dec(7n, 6), 'DecimalSI'],
    ['6G', dec(6n, 9), 'DecimalSI'],
    ['5T', dec(5n, 12), 'DecimalSI'],
    ['40T', dec(4n, 13), 'DecimalSI'],
    ['300T', dec(3n, 14), 'DecimalSI'],
    ['2P', dec(2n, 15), 'DecimalSI'],
    ['1E', dec(1n, 18), 'DecimalSI'],
    ['1E-3', dec(1n, -3), 'DecimalExponent'],
    ['1e3', dec(1n, 3), 'DecimalExponent'],
    ['1E6', dec(1n, 6), 'DecimalExponent'],
    ['1e9', dec(1n, 9), 'DecimalExponent'],
    ['1E12', dec(1n, 12), 'DecimalExponent'],
    ['1e15', dec(1n, 15), 'DecimalExponent'],
    ['1E18', dec(1n, 18), 'DecimalExponent'],
    ['1e14', dec(1n, 14), 'DecimalExponent'],
    ['1e13', dec(1n, 13), 'DecimalExponent'],
    ['100.035k', dec(100035n, 0), 'DecimalSI'],
    ['0.001', dec(1n, -3), 'DecimalSI'],
    ['0.0005k', dec(5n, -1), 'DecimalSI'],
    ['0.005', dec(5n, -3), 'DecimalSI'],
    ['0.05', dec(5n, -2), 'DecimalSI'],
    ['0.5', dec(5n, -1), 'DecimalSI'],
    ['0.00050k', dec(5n, -1), 'DecimalSI'],
    ['0.00500', dec(5n, -3), 'DecimalSI'],
    ['0.05000', dec(5n, -2), 'DecimalSI'],
    ['0.50000', dec(5n, -1), 'DecimalSI'],
    ['0.5e0', dec(5n, -1), 'DecimalExponent'],
    ['0.5e-1', dec(5n, -2), 'DecimalExponent'],
    ['0.5e-2', dec(5n, -3), 'DecimalExponent'],
    ['10.035M', dec(10035n, 3), 'DecimalSI'],
    ['1.2e3', dec(12n, 2), 'DecimalExponent'],
    ['1.3E+6', dec(13n, 5), 'DecimalExponent'],
    ['1.40e9', dec(14n, 8), 'DecimalExponent'],
    ['1.53E12', dec(153n, 10), 'DecimalExponent'],
    ['1.6e15', dec(16n, 14), 'DecimalExponent'],
    ['1.7E18', dec(17n, 17), 'DecimalExponent'],
    ['9.01', dec(901n, -2), 'DecimalSI'],
    ['8.1k', dec(81n, 2), 'DecimalSI'],
    ['7.123456M', dec(7123456n, 0), 'DecimalSI'],
    ['6.987654321G', dec(6987654321n, 0), 'DecimalSI'],
    ['5.444T', dec(5444n, 9), 'DecimalSI'],
    ['40.1T', dec(401n, 11), 'DecimalSI'],
    ['300.2T', dec(3002n, 11), 'DecimalSI'],
    ['2.5P', dec(25n, 14), 'DecimalSI'],
    ['1.01E', dec(101n, 16), 'DecimalSI'],
    // Things that saturate or round.
    ['3.001n', dec(4n, -9), 'DecimalSI'],
    ['1.1E-9', dec(2n, -9), 'DecimalExponent'],
    ['0.0000000001', dec(1n, -9), 'DecimalSI'],
    ['0.0000000005', dec(1n, -9), 'DecimalSI'],
    ['0.00000000050', dec(1n, -9), 'DecimalSI'],
    ['0.5e-9', dec(1n, -9), 'DecimalExponent'],
    ['0.9n', dec(1n, -9), 'DecimalSI'],
    ['0.00000012345', dec(124n, -9), 'DecimalSI'],
    ['0.00000012354', dec(124n, -9), 'DecimalSI'],
    ['9Ei', maxAllowed, 'BinarySI'],
    ['9223372036854775807Ki', maxAllowed, 'BinarySI'],
    ['12E', dec(12n, 18), 'DecimalSI'],
    // Fractional binary values.
    ['100.035Ki', dec(10243584n, -2), 'BinarySI'],
    ['0.5Mi', dec(524288n, 0), 'BinarySI'],
    ['0.05Gi', dec(536870912n, -1), 'BinarySI'],
    ['0.025Ti', dec(274877906944n, -1), 'BinarySI'],
    // Things written by trolls.
    ['0.000000000001Ki', dec(2n, -9), 'DecimalSI'],
    ['.001', dec(1n, -3), 'DecimalSI'],
    ['.0001k', dec(100n, -3), 'DecimalSI'],
    ['1.', dec(1n, 0), 'DecimalSI'],
    ['1.G', dec(1n, 9), 'DecimalSI'],
  ];
  for (const [input, nanos, format] of table) {
    const q = Quantity.parse(input);
    assert.equal(q.nanos, nanos, `${input} value`);
    assert.equal(q.format, format, `${input} format`);
    // Kubernetes runs the same table negated and with an explicit '+'.
    const neg = Quantity.parse('-' + input);
    assert.equal(neg.nanos, -nanos, `-${input} value`);
    assert.equal(neg.format, format, `-${input} format`);
    assert.equal(Quantity.parse('+' + input).nanos, nanos, `+${input} value`);
  }
});

test('parse errors carry Kubernetes messages', () => {
  const table: [string, string][] = [
    ['', ErrFormatWrong],
    ['1.1.M', ErrFormatWrong],
    ['1+1.0M', ErrFormatWrong],
    ['0.1mi', ErrSuffix],
    ['0.1am', ErrFormatWrong],
    ['aoeu', ErrFormatWrong],
    ['.5i', ErrSuffix],
    ['1i', ErrSuffix],
    ['-3.01i', ErrSuffix],
    ['-3.01e-', ErrSuffix],
    [' 1', ErrFormatWrong],
    ['1 ', ErrFormatWrong],
    ['1K', ErrSuffix],
    ['1e', ErrSuffix],
    ['1Gb', ErrFormatWrong],
    ['abc', ErrFormatWrong],
  ];
  for (const [input, message] of table) {
    assert.throws(() => Quantity.parse(input), (e: unknown) => e instanceof QuantityError && e.message === message, input);
    assert.equal(isValidQuantity(input), false, input);
  }
  assert.equal(ErrFormatWrong, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  assert.equal(ErrSuffix, "unable to parse quantity's suffix");
  assert.throws(() => Quantity.parse('1e200000'), { message: ErrNumeric });
});

test('canonical string (String / MarshalJSON)', () => {
  const table: [string, string][] = [
    // TestQuantityParseEmit
    ['1Ki', '1Ki'],
    ['1Mi', '1Mi'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1000M', '1G'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    // TestQuantityString alternates
    ['307200Ki', '300Mi'],
    ['1025024Mi', '1001Gi'],
    ['1024Gi', '1Ti'],
    ['5000m', '5'],
    ['0.5', '500m'],
    ['0.001T', '1G'],
    ['1000u', '1m'],
    ['1.08', '1080m'],
    ['1080000000n', '1080m'],
    ['.001e12', '1e9'],
    ['0.001e0', '1e-3'],
    ['1000e-12', '1e-9'],
    ['00', '0'],
    ['1000E', '1e21'],
    ['5000E', '5e21'],
    ['1000000E', '1e24'],
    // Everyday values
    ['1000m', '1'],
    ['1.5', '1500m'],
    ['0.5Gi', '512Mi'],
    ['1.5Gi', '1536Mi'],
    ['100M', '100M'],
    ['1e3', '1e3'],
    ['1E3', '1E3'],
    ['12e6', '12e6'],
    ['1.1', '1100m'],
    ['1000', '1k'],
    ['1234000', '1234k'],
    ['2Gi', '2Gi'],
    ['500Mi', '500Mi'],
    ['1536Ki', '1536Ki'],
    ['2048Ki', '2Mi'],
    ['1.5Ki', '1536'],
    ['0.5Ki', '512'],
    ['100.035Ki', '102435840m'],
    ['9Ei', '9223372036854775807'],
    ['-1', '-1'],
    ['-0', '0'],
    ['-1000m', '-1'],
    ['-1024Mi', '-1Gi'],
    ['100m', '100m'],
    ['250m', '250m'],
    ['0.1', '100m'],
    ['0.1m', '100u'],
    ['0.1n', '1n'],
    ['0.25', '250m'],
    ['1.2345', '1234500u'],
    ['18446744073709551616', '18446744073709551616'],
    ['3.001n', '4n'],
    // The parsed text is kept when it already looks canonical.
    ['+1', '+1'],
    ['01', '01'],
    ['1.', '1.'],
    ['1.500', '1.500'],
    ['0.500', '500m'],
    ['1e0', '1e0'],
    ['10e3', '10e3'],
    ['1000e3', '1e6'],
  ];
  for (const [input, expect] of table) {
    assert.equal(Quantity.parse(input).toString(), expect, input);
    assert.equal(JSON.stringify({ q: Quantity.parse(input) }), `{"q":${JSON.stringify(expect)}}`, input);
  }
});

test('canonical string of constructed values (NewQuantity, NewMilliQuantity)', () => {
  const ints: [number, Quantity['format'], string][] = [
    [1, 'DecimalSI', '1'],
    [1000, 'DecimalSI', '1k'],
    [1234000, 'DecimalSI', '1234k'],
    [1024, 'BinarySI', '1Ki'],
    [1000000, 'DecimalExponent', '1e6'],
    [1024 * 1024, 'BinarySI', '1Mi'],
    [1025, 'BinarySI', '1025'],
    [5, 'BinarySI', '5'],
    [0, 'BinarySI', '0'],
  ];
  for (const [v, f, s] of ints) assert.equal(Quantity.fromInt(v, f).toString(), s, `${v} ${f}`);
  const millis: [number, Quantity['format'], string][] = [
    [1, 'DecimalSI', '1m'],
    [1000, 'DecimalSI', '1'],
    [1234000, 'DecimalSI', '1234'],
    [1024, 'BinarySI', '1024m'],
    [1000000, 'DecimalExponent', '1e3'],
    [1024 * 1024, 'BinarySI', '1048576m'],
  ];
  for (const [v, f, s] of millis) assert.equal(Quantity.fromMilli(v, f).toString(), s, `${v}m ${f}`);
});

test('comparison (TestQuantityCmp)', () => {
  const table: [string, string, number][] = [
    ['0', '0', 0],
    ['100m', '50m', 1],
    ['50m', '100m', -1],
    ['10000T', '100Gi', 1],
    ['1', '1000m', 0],
    ['1Ki', '1024', 0],
    ['1k', '1Ki', -1],
    ['-1', '0', -1],
    ['1e3', '1k', 0],
  ];
  for (const [a, b, want] of table) {
    assert.equal(cmp(a, b), want, `${a} vs ${b}`);
    assert.equal(cmp(b, a), want === 0 ? 0 : -want, `${b} vs ${a}`);
    assert.equal(Quantity.parse(a).cmp(Quantity.parse(b)), want);
  }
  assert.ok(Quantity.parse('1Gi').equals('1024Mi'));
});

test('numeric accessors', () => {
  assert.equal(Quantity.parse('1.5').toNumber(), 1.5);
  assert.equal(Quantity.parse('250m').toNumber(), 0.25);
  assert.equal(Quantity.parse('-250m').toNumber(), -0.25);
  assert.equal(Quantity.parse('2Gi').toNumber(), 2147483648);
  assert.equal(Quantity.parse('100m').milliValue(), 100);
  assert.equal(Quantity.parse('1').milliValue(), 1000);
  assert.equal(Quantity.parse('0.1m').milliValue(), 1);
  assert.equal(Quantity.parse('1.5').value(), 2);
  assert.equal(Quantity.parse('-1.5').value(), -2);
  assert.equal(Quantity.parse('1Ki').value(), 1024);
  assert.equal(Quantity.parse('9.01').scaledValue(-1), 91n);
  assert.equal(Quantity.parse('-9.01').scaledValue(0), -10n);
  assert.equal(Quantity.parse('-1').isNegative(), true);
  assert.equal(Quantity.parse('0').isNegative(), false);
  assert.equal(Quantity.parse('0').isZero(), true);
  assert.equal(Quantity.parse('1m').sign(), 1);
});

test('arithmetic keeps Kubernetes format rules', () => {
  const zero = Quantity.parse('0');
  for (const v of ['100m', '1Gi']) {
    const q = Quantity.parse(v);
    assert.equal(q.add(zero).toString(), v);
    assert.equal(zero.add(q).toString(), v);
    assert.equal(q.sub(zero).toString(), v);
    assert.equal(zero.sub(q).toString(), q.neg().toString());
  }
  assert.equal(Quantity.parse('9.01').neg().toString(), '-9010m');
  assert.equal(Quantity.parse('1Gi').add(Quantity.parse('512Mi')).toString(), '1536Mi');
  assert.equal(Quantity.parse('500m').mul(3).toString(), '1500m');
});

test('JSON values: strings are trimmed and numbers accepted (TestJSONWhitespace)', () => {
  const table: [unknown, string][] = [
    [' 1', '1'],
    ['1 ', '1'],
    [1, '1'],
    [10, '10'],
    [-1, '-1'],
    [0.5, '500m'],
    ['1.5Gi', '1536Mi'],
  ];
  for (const [input, expect] of table) {
    assert.equal(canonicalQuantity(input), expect, String(input));
    assert.equal(quantityFromJSON(input).toString(), expect);
  }
  assert.throws(() => canonicalQuantity(true), { message: ErrFormatWrong });
  assert.throws(() => canonicalQuantity({}), QuantityError);
  assert.equal(parseQuantity('2').toString(), '2');
});
