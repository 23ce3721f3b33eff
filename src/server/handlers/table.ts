// Server-side printing: a `Table` of the kind's columns for `kubectl get`.
import type { ApiObject } from '../../apis/meta/v1.ts';
import type { TableColumn } from '../../apis/kind.ts';
import type { ServedResource } from '../apis.ts';
import type { Representation } from '../negotiate.ts';

const defaultColumns: TableColumn[] = [
  { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://platform.io/docs/concepts/overview/working-with-objects/names#names', cell: (o) => o.metadata?.name ?? '' },
  { name: 'Created At', type: 'date', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.', cell: (o) => o.metadata?.creationTimestamp ?? '' },
];

export function partialMetadata(obj: ApiObject, rep: Pick<Representation, 'group' | 'version'>): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: `${rep.group || 'meta.k8s.io'}/${rep.version || 'v1'}`, metadata: obj.metadata };
}

export function tableColumns(served: ServedResource): TableColumn[] {
  return served.def.tableColumns?.length ? served.def.tableColumns : defaultColumns;
}

export function toTable(served: ServedResource, objects: ApiObject[], includeObject: 'None' | 'Metadata' | 'Object', rep: Representation, listMeta: Record<string, unknown> | undefined, withColumns = true): Record<string, unknown> {
  const columns = tableColumns(served);
  const table: Record<string, unknown> = {
    kind: 'Table',
    apiVersion: `${rep.group}/${rep.version}`,
    metadata: listMeta ?? { resourceVersion: objects[0]?.metadata?.resourceVersion ?? '' },
  };
  if (withColumns) {
    table.columnDefinitions = columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description, priority: c.priority ?? 0 }));
  }
  table.rows = objects.map((o) => {
    const row: Record<string, unknown> = { cells: columns.map((c) => c.cell(o) ?? '') };
    if (includeObject === 'Object') row.object = o;
    else if (includeObject === 'Metadata') row.object = partialMetadata(o, rep);
    return row;
  });
  return table;
}
