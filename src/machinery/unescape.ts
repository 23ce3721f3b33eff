// Percent-escapes read as Go's URL parsing reads them, for paths and header keys that carry them.

/** `s` with its %XX escapes decoded; as it is when it has none, or when one is malformed. */
export function unescaped(s: string): string {
  if (!s.includes('%')) return s;
  try { return decodeURIComponent(s); } catch { return s; }
}
