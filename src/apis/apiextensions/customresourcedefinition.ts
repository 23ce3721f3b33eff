// CustomResourceDefinition (apiextensions.svc.io/v1, cluster-scoped). Kubernetes always serves this group;
// Capstan serves no custom resources, so it holds no definitions and accepts none: the list is empty and a
// get is 404, while writes are refused with 405. Clients still need the list: kubectl's client-side
// validation asks it whether a kind it checks is a custom one, and fails when the server cannot answer.
import type { ComputedKindDefinition, ComputedSource } from '../computed-kind.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { withProto } from '../core/schema-helpers.ts';
import { nameColumn, createdAtColumn } from '../meta/table.ts';

export const CustomResourceDefinitionSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({}, { proto: 2, preserveUnknownFields: true, description: 'spec describes how the user wants the resources to appear' }),
  status: S.object({}, { proto: 3, preserveUnknownFields: true, description: 'status indicates the actual state of the CustomResourceDefinition' }),
}, { ref: 'apiextensions.v1.CustomResourceDefinition', description: 'CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.' });

/** No definitions: Capstan serves no custom resources. */
const noDefinitions: ComputedSource = {
  list: async () => [],
  get: async () => undefined,
};

export const customResourceDefinitionKind: ComputedKindDefinition = {
  group: 'apiextensions.svc.io',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  versions: [{ name: 'v1', stability: 'stable', schema: CustomResourceDefinitionSchema }],
  storageVersion: 'v1',
  trackGeneration: false,
  computed: { verbs: ['get', 'list'], source: () => noDefinitions },
  // Kubernetes prints CRDs with its default table convertor: Name and Created At, described as ObjectMeta's fields.
  tableColumns: [nameColumn, createdAtColumn],
};
