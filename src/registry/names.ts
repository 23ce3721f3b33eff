import { randomInt } from 'node:crypto';

// Kubernetes' generateName alphabet: no vowels (no words) and no look-alike characters.
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Length of the random part Kubernetes appends to generateName. */
export const GENERATED_SUFFIX_LENGTH = 5;
/** A generated name is at most a DNS label long: the prefix is cut to leave room for the suffix. */
const MAX_GENERATED_PREFIX_LENGTH = 63 - GENERATED_SUFFIX_LENGTH;

export function generateNameSuffix(length = GENERATED_SUFFIX_LENGTH): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

/** `metadata.generateName` plus a random suffix, the prefix cut to 58 characters (SimpleNameGenerator). */
export function generateName(prefix: string): string {
  return prefix.slice(0, MAX_GENERATED_PREFIX_LENGTH) + generateNameSuffix();
}

let lastSecond = NaN;
let lastText = '';

/** RFC 3339 with second precision, as metav1.Time serialises (the writes of one second share the text). */
export function nowRfc3339(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    lastSecond = second;
  }
  return lastText;
}

/** RFC 3339 with microseconds, as metav1.MicroTime serialises. */
export function nowMicroTime(): string {
  return new Date().toISOString().replace(/Z$/, '000Z');
}
