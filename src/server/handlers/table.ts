// Server-side printing: a `Table` of the kind's columns for `kubectl get`, and the metadata-only views
// (PartialObjectMetadata) a Table row or a metadata client asks for.
import type { ApiObject } from '../../apis/meta/v1.ts';
import type { TableColumn } from '../../apis/kind.ts';
import { nameColumn, createdAtColumn } from '../../apis/meta/table.ts';
import type { ApiResource } from '../apis.ts';
import type { Representation } from '../negotiate.ts';

const defaultColumns: TableColumn[] = [nameColumn, createdAtColumn];

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** The object's metadata as `PartialObjectMetadata` in the group and version the client named. */
export function partialMetadata(obj: ApiObject, rep: Pick<Representation, 'group' | 'version'>): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: `${rep.group || 'meta.k8s.io'}/${rep.version || 'v1'}`, metadata: obj.metadata ?? {} };
}

/** The objects' metadata as a PartialObjectMetadataList under the list's `metadata`. */
export function partialMetadataList(objects: ApiObject[], rep: Pick<Representation, 'group' | 'version'>, listMeta: Record<string, unknown>): Record<string, unknown> {
  return { kind: 'PartialObjectMetadataList', apiVersion: `${rep.group}/${rep.version}`, metadata: listMeta, items: objects.map((o) => partialMetadata(o, rep)) };
}

export function tableColumns(served: ApiResource): TableColumn[] {
  return served.def.tableColumns?.length ? served.def.tableColumns : defaultColumns;
}

export function columnDefinitions(served: ApiResource): Record<string, unknown>[] {
  return tableColumns(served).map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description, priority: c.priority ?? 0 }));
}

/** One row per object; `row.object` per includeObject (a PartialObjectMetadata by default). */
export function tableRows(served: ApiResource, objects: ApiObject[], includeObject: IncludeObject, rep: Pick<Representation, 'group' | 'version'>): Record<string, unknown>[] {
  const columns = tableColumns(served);
  return objects.map((o) => {
    const row: Record<string, unknown> = { cells: columns.map((c) => c.cell(o) ?? '') };
    // Go's TableRow.object is a RawExtension, which marshals as null when empty (includeObject=None).
    row.object = includeObject === 'Object' ? o : includeObject === 'Metadata' ? partialMetadata(o, rep) : null;
    return row;
  });
}

/**
 * A Table of `objects`. `listMeta` is the list's metadata (resourceVersion, continue, remainingItemCount);
 * for one object the table carries that object's resourceVersion. Without `withColumns` the column
 * definitions are left out, as on every watch event after the first.
 */
export function toTable(served: ApiResource, objects: ApiObject[], includeObject: IncludeObject, rep: Representation, listMeta: Record<string, unknown> | undefined, withColumns = true): Record<string, unknown> {
  const table: Record<string, unknown> = {
    kind: 'Table',
    apiVersion: `${rep.group}/${rep.version}`,
    metadata: listMeta ?? { resourceVersion: objects[0]?.metadata?.resourceVersion ?? '' },
  };
  if (withColumns) table.columnDefinitions = columnDefinitions(served);
  table.rows = tableRows(served, objects, includeObject, rep);
  return table;
}
