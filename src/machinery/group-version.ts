// An apiVersion (`group/version`, or `version` for the core group) taken apart.

export interface GroupVersion { group: string; version: string }

/** As Go's schema.ParseGroupVersion: '' and '/' are empty, one part is the core group's version; undefined
 *  for more than one '/'. */
export function parseGroupVersion(apiVersion: string): GroupVersion | undefined {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** Splits at the first '/' whatever follows: for apiVersions already known to be well formed. */
export function splitApiVersion(apiVersion: string): GroupVersion {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
