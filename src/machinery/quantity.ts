// resource.Quantity as Kubernetes has it (apimachinery pkg/api/resource): parsing with its errors, the
// canonical string it serialises, comparison and arithmetic. Values are exact: a bigint count of
// nano-units, since Kubernetes keeps a parsed value down to 10^-9 (finer values round away from zero).

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

export const ErrFormatWrong = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const ErrNumeric = 'unable to parse numeric part of quantity';
export const ErrSuffix = "unable to parse quantity's suffix";

/** A quantity that does not parse; the message is one of Kubernetes' three. */
export class QuantityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuantityError';
  }
}

const NANO = 1_000_000_000n;
const INT64_MAX = 2n ** 63n - 1n;
/** The largest positive exponent accepted, to bound the size of the number (Kubernetes has no bound). */
const MAX_EXPONENT = 100_000;

const decimalSuffixes: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const decimalSuffixByExponent = new Map(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
const binarySuffixByPower = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

interface Scanned {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

/** parseQuantityString: sign, integer digits (leading zeros dropped), fraction digits and suffix. */
function scan(str: string): Scanned {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end) {
    if (str[0] === '-') {
      positive = false;
      pos++;
    } else if (str[0] === '+') {
      pos++;
    }
  }
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, num: '0', denom: '', suffix: '' };
    if (str[i] === '0') pos++;
    else break;
  }
  let num = '';
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, num: str.slice(pos, end), denom: '', suffix: '' };
    if (!isDigit(str[i])) {
      num = str.slice(pos, i);
      pos = i;
      break;
    }
  }
  if (num.length === 0) num = '0';
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    for (let i = pos; ; i++) {
      if (i >= end) return { positive, num, denom: str.slice(pos, end), suffix: '' };
      if (!isDigit(str[i])) {
        denom = str.slice(pos, i);
        pos = i;
        break;
      }
    }
  }
  const suffixStart = pos;
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, num, denom, suffix: str.slice(suffixStart, end) };
    if (!'eEinumkKMGTP'.includes(str[i])) {
      pos = i;
      break;
    }
  }
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, num, denom, suffix: str.slice(suffixStart, end) };
    if (!isDigit(str[i])) break;
  }
  throw new QuantityError(ErrFormatWrong);
}

/** suffixHandler.interpret: base, exponent and format of a suffix. */
function interpret(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } {
  if (Object.prototype.hasOwnProperty.call(decimalSuffixes, suffix)) return { base: 10, exponent: decimalSuffixes[suffix], format: 'DecimalSI' };
  if (Object.prototype.hasOwnProperty.call(binarySuffixes, suffix)) return { base: 2, exponent: binarySuffixes[suffix], format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    const rest = suffix.slice(1);
    if (/^[+-]?[0-9]+$/.test(rest)) {
      const v = BigInt(rest);
      if (v >= -(2n ** 63n) && v <= INT64_MAX) {
        // Kubernetes keeps the exponent as an int32.
        return { base: 10, exponent: Number(BigInt.asIntN(32, v)), format: 'DecimalExponent' };
      }
    }
  }
  throw new QuantityError(ErrSuffix);
}

function fitsInt64(v: bigint): boolean {
  return v >= -(2n ** 63n) && v <= INT64_MAX;
}

export class Quantity {
  /** The value in units of 10^-9. */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
  /** Kubernetes reuses the parsed text when it is already canonical-looking (the `s` cache). */
  readonly #text: string | undefined;

  constructor(nanos: bigint, format: QuantityFormat, text?: string) {
    this.nanos = nanos;
    this.format = format;
    this.#text = text;
  }

  /** ParseQuantity. Throws QuantityError with Kubernetes' message. */
  static parse(str: string): Quantity {
    if (typeof str !== 'string' || str.length === 0) throw new QuantityError(ErrFormatWrong);
    if (str === '0') return new Quantity(0n, 'DecimalSI', '0');
    const { positive, num, denom, suffix } = scan(str);
    const { base, exponent, format } = interpret(suffix);
    if (base === 10 && exponent > MAX_EXPONENT) throw new QuantityError(ErrNumeric);

    // Kubernetes' int64 fast path; when it applies and the text looks canonical, the text is kept.
    let precision: number;
    let scale = 0;
    let mantissa = 1n;
    if (format === 'BinarySI') {
      if (exponent >= 0 && denom.length === 0) {
        mantissa = 1n << BigInt(exponent);
        precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
      } else {
        precision = -1;
      }
    } else {
      scale = exponent;
      precision = 18 - (num.length + denom.length);
    }
    if (precision >= 0) {
      scale -= denom.length;
      if (scale >= -9) {
        const shifted = num + denom;
        const value = BigInt(shifted);
        const product = value * mantissa;
        if (fitsInt64(product)) {
          const result = positive ? product : -product;
          const nanos = result * pow10(scale + 9);
          let canonical: boolean;
          if (format === 'BinarySI') canonical = exponent % 10 === 0 && (value & 7n) !== 0n;
          else canonical = scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
          return new Quantity(nanos, format, canonical ? str : undefined);
        }
      }
    }

    // General path: exact decimal arithmetic, then round the magnitude up to a whole nano.
    let unscaled = BigInt(num + denom);
    let scale10 = -denom.length;
    if (base === 10) scale10 += exponent;
    else unscaled *= 1n << BigInt(exponent);
    let magnitude: bigint;
    if (unscaled === 0n) {
      magnitude = 0n;
    } else if (scale10 >= -9) {
      magnitude = unscaled * pow10(scale10 + 9);
    } else {
      const shift = -9 - scale10;
      if (shift > unscaled.toString().length) {
        magnitude = 1n;
      } else {
        const div = pow10(shift);
        magnitude = unscaled / div + (unscaled % div === 0n ? 0n : 1n);
      }
    }
    let fmt = format;
    if (fmt === 'BinarySI' && magnitude > INT64_MAX * NANO) magnitude = INT64_MAX * NANO;
    if (fmt === 'BinarySI' && magnitude > 0n && magnitude < NANO) fmt = 'DecimalSI';
    return new Quantity(positive ? magnitude : -magnitude, fmt);
  }

  /** resource.NewQuantity(value, format): an integer quantity. */
  static fromInt(value: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(value) * NANO, format);
  }

  /** resource.NewMilliQuantity(value, format): value / 1000. */
  static fromMilli(value: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(value) * 1_000_000n, format);
  }

  /** The canonical string Kubernetes serialises (String/MarshalJSON). */
  toString(): string {
    return this.#text ?? canonicalize(this.nanos, this.format);
  }

  toJSON(): string {
    return this.toString();
  }

  isZero(): boolean {
    return this.nanos === 0n;
  }

  isNegative(): boolean {
    return this.nanos < 0n;
  }

  sign(): -1 | 0 | 1 {
    return this.nanos < 0n ? -1 : this.nanos > 0n ? 1 : 0;
  }

  cmp(other: Quantity | string): -1 | 0 | 1 {
    const o = typeof other === 'string' ? Quantity.parse(other) : other;
    return this.nanos < o.nanos ? -1 : this.nanos > o.nanos ? 1 : 0;
  }

  equals(other: Quantity | string): boolean {
    return this.cmp(other) === 0;
  }

  /** A float approximation (AsApproximateFloat64), e.g. for HPA ratios. */
  toNumber(): number {
    return Number(this.nanos / NANO) + Number(this.nanos % NANO) / 1e9;
  }

  /** ScaledValue: the value in units of 10^scale, rounded away from zero. */
  scaledValue(scale: number): bigint {
    const shift = scale + 9;
    if (shift <= 0) return this.nanos * pow10(-shift);
    const div = pow10(shift);
    const q = this.nanos / div;
    if (this.nanos % div === 0n) return q;
    return this.nanos > 0n ? q + 1n : q - 1n;
  }

  /** Value(): the integer value rounded away from zero. */
  value(): number {
    return Number(this.scaledValue(0));
  }

  /** MilliValue(): the value × 1000 rounded away from zero. */
  milliValue(): number {
    return Number(this.scaledValue(-3));
  }

  /** Add: a zero receiver takes the other operand's format. */
  add(other: Quantity): Quantity {
    return new Quantity(this.nanos + other.nanos, this.nanos === 0n ? other.format : this.format);
  }

  sub(other: Quantity): Quantity {
    return new Quantity(this.nanos - other.nanos, this.nanos === 0n ? other.format : this.format);
  }

  neg(): Quantity {
    return new Quantity(-this.nanos, this.format);
  }

  mul(factor: number | bigint): Quantity {
    return new Quantity(this.nanos * BigInt(factor), this.format);
  }
}

/** CanonicalizeBytes: mantissa and suffix with the largest exponent that loses nothing. */
function canonicalize(nanos: bigint, format: QuantityFormat): string {
  if (nanos === 0n) return '0';
  let fmt = format;
  if (fmt === 'BinarySI') {
    // Small values and values with a fraction are shown in decimal form.
    if (abs(nanos) < 1024n * NANO || nanos % NANO !== 0n) fmt = 'DecimalSI';
    else {
      let v = nanos / NANO;
      let power = 0;
      while (power < binarySuffixByPower.length - 1 && abs(v) >= 1024n && v % 1024n === 0n) {
        v /= 1024n;
        power++;
      }
      return v.toString() + binarySuffixByPower[power];
    }
  }
  let mantissa = nanos;
  let exponent = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  while (exponent % 3 !== 0) {
    mantissa *= 10n;
    exponent--;
  }
  let suffix: string;
  if (fmt === 'DecimalSI' && decimalSuffixByExponent.has(exponent)) suffix = decimalSuffixByExponent.get(exponent)!;
  // DecimalSI has no suffix beyond E (10^18): such values use exponent notation.
  else suffix = exponent === 0 ? '' : `e${exponent}`;
  return mantissa.toString() + suffix;
}

/** ParseQuantity: throws QuantityError with Kubernetes' message. */
export function parseQuantity(text: string): Quantity {
  return Quantity.parse(text);
}

export function isValidQuantity(text: string): boolean {
  try {
    Quantity.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A quantity as it arrives in JSON: a string (surrounding space ignored, as UnmarshalJSON does) or a
 * number. Throws QuantityError for anything else or an invalid text.
 */
export function quantityFromJSON(value: unknown): Quantity {
  if (typeof value === 'string') return Quantity.parse(value.trim());
  if (typeof value === 'number' && Number.isFinite(value)) return Quantity.parse(String(value));
  if (typeof value === 'bigint') return Quantity.parse(value.toString());
  throw new QuantityError(ErrFormatWrong);
}

/** The string Kubernetes would store for a quantity field value (e.g. `1.5` → `1500m`). */
export function canonicalQuantity(value: unknown): string {
  return quantityFromJSON(value).toString();
}

/** Compares two quantities (or quantity strings): -1, 0 or 1. */
export function cmp(a: Quantity | string, b: Quantity | string): -1 | 0 | 1 {
  return (typeof a === 'string' ? Quantity.parse(a) : a).cmp(b);
}
