// The syntax check of resource.ParseQuantity, with its error texts. It only accepts or refuses a text;
// the canonical form of a quantity is another module's job.

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

const SUFFIXES = new Set(['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']);
const SUFFIX_LETTERS = 'eEinumkKMGTP';

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** Null when `text` parses as a Quantity, else Go's error text. */
export function quantitySyntaxError(text: string): string | null {
  const str = text.trim();
  if (str.length === 0) return QUANTITY_FORMAT_ERROR;
  if (str === '0') return null;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-' || str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return null;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos >= end) return null;
  if (str[pos] === '.') {
    pos++;
    while (pos < end && isDigit(str[pos])) pos++;
    if (pos >= end) return null;
  }
  const suffixStart = pos;
  while (pos < end && SUFFIX_LETTERS.includes(str[pos])) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) return QUANTITY_FORMAT_ERROR;
  const suffix = str.slice(suffixStart);
  if (SUFFIXES.has(suffix)) return null;
  // Decimal exponent: e3, E-2.
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?\d+$/.test(suffix.slice(1))) return null;
  return QUANTITY_SUFFIX_ERROR;
}
