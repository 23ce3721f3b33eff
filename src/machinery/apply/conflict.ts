// Apply conflicts and the 409 Kubernetes answers for them:
//   Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas
//   Apply failed with 2 conflicts: conflicts with "a":\n- .data.x\nconflicts with "b" using v1:\n- .data.y
// with one cause per field (reason FieldManagerConflict).
import { StatusError, type StatusCause } from '../status.ts';
import { FieldSet } from './fieldset.ts';
import { pathString, type Path } from './path.ts';
import { parseManagerIdentifier } from './managers.ts';
import { compareStrings } from './value.ts';
import { goQuote } from '../go-format.ts';

export interface Conflict {
  /** The manager identifier. */
  manager: string;
  path: Path;
}

/** Thrown by Apply when it would change fields other managers own. */
export class ApplyConflicts extends Error {
  readonly conflicts: Conflict[];
  constructor(conflicts: Conflict[]) {
    super(conflictMessage(conflicts));
    this.conflicts = conflicts;
  }
}

/** Conflicts by manager, in sorted manager order, each manager's paths in set order. */
export function conflictsFromManagers(sets: Map<string, FieldSet>): Conflict[] {
  const out: Conflict[] = [];
  for (const manager of [...sets.keys()].sort(compareStrings)) {
    for (const path of sets.get(manager)!.paths()) out.push({ manager, path });
  }
  return out;
}

export function conflictsToSet(conflicts: readonly Conflict[]): FieldSet {
  return FieldSet.of(...conflicts.map((c) => c.path));
}

/** How a manager is named in conflict messages. */
export function printManager(id: string): string {
  const info = parseManagerIdentifier(id);
  let s = goQuote(info.manager);
  if (info.subresource) s += ` with subresource ${goQuote(info.subresource)}`;
  if (info.operation === 'Update') s += ` using ${info.apiVersion}`;
  return s;
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].manager)}: ${pathString(conflicts[0].path)}`;
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const list = byManager.get(c.manager) ?? [];
    list.push(c.path);
    byManager.set(c.manager, list);
  }
  const lines: string[] = [];
  for (const m of [...byManager.keys()].sort(compareStrings)) {
    lines.push(`conflicts with ${printManager(m)}:`);
    for (const p of byManager.get(m)!) lines.push(`- ${pathString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** The 409 Conflict status: no name or kind in the details, one cause per conflicting field. */
export function conflictError(conflicts: readonly Conflict[]): StatusError {
  const causes: StatusCause[] = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: pathString(c.path) }));
  return new StatusError(409, 'Conflict', conflictMessage(conflicts), { causes });
}
