// Go's time.Duration text form, which Kubernetes uses in flags and prints in messages:
// parseDuration("1h30m") === 5_400_000 and formatDuration(300_000) === "5m0s".
// Arithmetic is done in whole nanoseconds (BigInt), as Go does, so results match Go exactly.
import { goTimeQuote } from '../machinery/schema/go-time.ts';

const NS_PER_UNIT: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 micro sign
  'μs': 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX_NS = (1n << 63n) - 1n;
const NS_PER_MS = 1_000_000n;

// ParseDuration's errors quote with the time package's quote (bytes past ASCII and control bytes as \x).
const quote = goTimeQuote;

/** Parses a Go duration ("300ms", "1.5h", "2h45m", "-5s", "0") into nanoseconds; throws Go's error texts. */
export function parseDurationNanoseconds(text: string): bigint {
  const invalid = () => new Error(`time: invalid duration ${quote(text)}`);
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') throw invalid();
  let total = 0n;
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    const [matched, whole, fraction] = number;
    if ((whole ?? '') === '' && (fraction ?? '') === '') throw invalid();
    rest = rest.slice(matched.length);
    const unitText = /^[^.0-9]*/.exec(rest)![0];
    if (unitText === '') throw new Error(`time: missing unit in duration ${quote(text)}`);
    rest = rest.slice(unitText.length);
    const unit = NS_PER_UNIT[unitText];
    if (unit === undefined) throw new Error(`time: unknown unit ${quote(unitText)} in duration ${quote(text)}`);
    const wholeValue = BigInt(whole === '' ? '0' : whole);
    let value = wholeValue * unit;
    if (fraction) {
      // Go keeps the fraction to nanosecond precision and truncates the rest.
      const scale = 10n ** BigInt(fraction.length);
      value += (BigInt(fraction) * unit) / scale;
    }
    total += value;
    if (wholeValue > MAX_NS || total > MAX_NS + (negative ? 1n : 0n)) throw invalid();
  }
  return negative ? -total : total;
}

/** Parses a Go duration into milliseconds (fractional below a millisecond). */
export function parseDuration(text: string): number {
  const ns = parseDurationNanoseconds(text);
  return Number(ns / NS_PER_MS) + Number(ns % NS_PER_MS) / 1e6;
}

/** Digits of v / 10^precision after the point, without trailing zeros (and without the point if none). */
function fraction(v: bigint, precision: number): { text: string; rest: bigint } {
  let digits = '';
  let printing = false;
  let value = v;
  for (let i = 0; i < precision; i++) {
    const digit = value % 10n;
    printing ||= digit !== 0n;
    if (printing) digits = digit.toString() + digits;
    value /= 10n;
  }
  return { text: printing ? `.${digits}` : '', rest: value };
}

/** Formats nanoseconds the way Go's Duration.String does: "1h0m0s", "1.5s", "300ms", "0s". */
export function formatDurationNanoseconds(ns: bigint): string {
  const negative = ns < 0n;
  let u = negative ? -ns : ns;
  let text: string;
  if (u < 1_000_000_000n) {
    if (u === 0n) return '0s';
    const [precision, unit] = u < 1_000n ? [0, 'ns'] : u < 1_000_000n ? [3, 'µs'] : [6, 'ms'];
    const { text: frac, rest } = fraction(u, precision);
    text = `${rest}${frac}${unit}`;
  } else {
    const { text: frac, rest } = fraction(u, 9);
    u = rest;
    text = `${u % 60n}${frac}s`;
    u /= 60n;
    if (u > 0n) {
      text = `${u % 60n}m${text}`;
      u /= 60n;
      if (u > 0n) text = `${u}h${text}`;
    }
  }
  return negative ? `-${text}` : text;
}

/** Formats milliseconds as Go prints a Duration; sub-millisecond parts are kept to the nanosecond. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) throw new Error(`cannot format ${ms} as a duration`);
  const whole = Math.trunc(ms);
  const ns = BigInt(whole) * NS_PER_MS + BigInt(Math.round((ms - whole) * 1e6));
  return formatDurationNanoseconds(ns);
}
