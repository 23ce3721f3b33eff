import { randomInt } from 'node:crypto';

// Kubernetes' generateName alphabet: no vowels (no words) and no look-alike characters.
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export function generateNameSuffix(length = 5): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function nowRfc3339(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** RFC 3339 with microseconds, as metav1.MicroTime serialises. */
export function nowMicroTime(): string {
  return new Date().toISOString().replace(/Z$/, '000Z');
}
