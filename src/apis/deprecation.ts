// The deprecation warning Kubernetes sends for a request to a deprecated API version (apiserver
// endpoints/deprecation WarningMessage): `<group/>version Kind is deprecated in vX.Y+`, then
// `, unavailable in vA.B+` when the removal release is known and `; use group/version Kind` when there is
// a replacement.
import { apiVersionOf } from './kind.ts';

export interface DeprecationInfo {
  group: string;
  version: string;
  kind: string;
  /** The release that deprecated it: `1.19`. */
  deprecatedIn: string;
  /** The release that stops serving it: `1.25`. */
  removedIn?: string;
  replacement?: { group: string; version: string; kind: string };
}

export function deprecationWarning(d: DeprecationInfo): string {
  let text = `${apiVersionOf(d.group, d.version)} ${d.kind} is deprecated in v${d.deprecatedIn}+`;
  if (d.removedIn) text += `, unavailable in v${d.removedIn}+`;
  if (d.replacement) text += `; use ${apiVersionOf(d.replacement.group, d.replacement.version)} ${d.replacement.kind}`;
  return text;
}

/** What VersionDefinition.deprecated holds for a version deprecated as `d` says. */
export function deprecated(d: DeprecationInfo): { warning: string; removedRelease?: string } {
  return d.removedIn ? { warning: deprecationWarning(d), removedRelease: d.removedIn } : { warning: deprecationWarning(d) };
}
