// A test kind with one field of every merge shape, for the structured merge and field manager tests.
import { Type } from '@sinclair/typebox';
import { S } from '../../apis/meta/schema.ts';
import { LabelSelector, ObjectMeta } from '../../apis/meta/v1.ts';
import { rootType } from './schema-view.ts';
import type { FieldManagerScope } from './field-manager.ts';
import { FieldSet } from './fieldset.ts';
import { fieldElement } from './path.ts';

const Port = S.object({
  containerPort: S.int32(),
  protocol: S.string({ default: 'TCP' }),
  name: S.string(),
});

const Container = S.object({
  name: S.string(),
  image: S.string(),
  args: S.list(S.string()),
  ports: S.list(Port, { listType: 'map', listMapKeys: ['containerPort', 'protocol'] }),
});

const EnvVar = S.object({ name: S.string(), value: S.string() });

export const WidgetSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: ObjectMeta,
  spec: S.object({
    replicas: S.int32(),
    /** listType=map on name. */
    containers: S.list(Container, { listType: 'map', listMapKeys: ['name'] }),
    /** listType=set. */
    tags: S.list(S.string(), { listType: 'set' }),
    /** atomic (the default). */
    args: S.list(S.string()),
    /** No list type, patch strategy merge on name: associative on name. */
    env: Type.Array(EnvVar, { 'x-platform-patch-strategy': 'merge', 'x-platform-patch-merge-key': 'name' }),
    /** No list type, patch strategy merge, scalars: a set. */
    hosts: Type.Array(S.string(), { 'x-platform-patch-strategy': 'merge' }),
    /** Atomic struct. */
    selector: LabelSelector,
    /** Granular map. */
    options: S.map(S.string()),
    /** Atomic map. */
    pinned: S.map(S.string(), { atomic: true }),
    /** Free-form. */
    config: S.any(),
  }),
  data: S.map(S.string()),
  status: S.object({ phase: S.string(), ready: S.int32() }),
});

export const WIDGET = rootType(WidgetSchema);

export function widgetScope(over: Partial<FieldManagerScope> = {}): FieldManagerScope {
  return {
    type: WIDGET,
    apiVersion: 'example.io/v1',
    kind: 'Widget',
    subresource: '',
    resetFields: FieldSet.of([fieldElement('status')]),
    now: () => new Date('2024-05-01T10:00:00Z'),
    ...over,
  };
}
