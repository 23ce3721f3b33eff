// Lease (coordination.svc.io/v1): a lock held by one holder for a duration, renewed by heartbeats (node
// agents, leader election). PUT may create one, and every update must name the resourceVersion it read.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, forbidden, notSupported } from '../../machinery/field-errors.ts';
import { isQualifiedName } from '../../machinery/validation/strings.ts';
import { withProto } from '../core/schema-helpers.ts';
import { featureGates } from '../../config/feature-gates.ts';

export const GROUP = 'coordination.svc.io';

/**
 * Feature gates this kind obeys, read from the server's gate registry. CoordinatedLeaderElection is alpha in
 * v1.32 and so off: without it `strategy` and `preferredHolder` are dropped on write unless the stored lease
 * already had them.
 */
export const leaseFeatureGates = {
  get CoordinatedLeaderElection(): boolean { return featureGates.enabled('CoordinatedLeaderElection'); },
  set CoordinatedLeaderElection(on: boolean) { featureGates.set({ CoordinatedLeaderElection: on }); },
};

export const LEASE_STRATEGIES = ['OldestEmulationVersion'] as const;

const HOLDER_DESCRIPTION = 'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.';

export const LeaseSpec = S.object({
  holderIdentity: S.string({ proto: 1, description: HOLDER_DESCRIPTION }),
  leaseDurationSeconds: S.int32({ proto: 2, description: 'leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.' }),
  acquireTime: S.microTime({ proto: 3, description: 'acquireTime is a time when the current lease was acquired.' }),
  renewTime: S.microTime({ proto: 4, description: 'renewTime is a time when the current holder of a lease has last updated the lease.' }),
  leaseTransitions: S.int32({ proto: 5, description: 'leaseTransitions is the number of transitions of a lease between holders.' }),
  strategy: S.string({ proto: 6, description: 'Strategy indicates the strategy for picking the leader for coordinated leader election. If the field is not specified, there is no active coordination for this lease. (Alpha) Using this field requires the CoordinatedLeaderElection feature gate to be enabled.' }),
  preferredHolder: S.string({ proto: 7, description: 'PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up. This field can only be set if Strategy is also set.' }),
}, { proto: 2, ref: 'coordination.v1.LeaseSpec', description: 'LeaseSpec is a specification of a Lease.' });

export const LeaseSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: LeaseSpec,
}, { ref: 'coordination.v1.Lease', description: 'Lease defines a lease concept.' });

interface LeaseSpecT {
  holderIdentity?: string | null;
  leaseDurationSeconds?: number | null;
  leaseTransitions?: number | null;
  strategy?: string | null;
  preferredHolder?: string | null;
}

const specOf = (o: ApiObject) => (o.spec ?? {}) as LeaseSpecT;
const isSet = (v: unknown) => v !== undefined && v !== null;

/** Without the gate, alpha fields survive only where the stored object already uses them. */
function dropDisabledFields(obj: ApiObject, old: ApiObject | undefined): void {
  if (leaseFeatureGates.CoordinatedLeaderElection) return;
  const spec = obj.spec as LeaseSpecT | undefined;
  if (!spec) return;
  const oldSpec = old ? specOf(old) : undefined;
  if (!isSet(oldSpec?.strategy)) delete spec.strategy;
  if (!isSet(oldSpec?.preferredHolder)) delete spec.preferredHolder;
}

function strategyErrors(strategy: string): FieldError[] {
  // Kubernetes reports these one level too deep, at spec.strategy.strategy.
  const path = 'spec.strategy.strategy';
  if (strategy.split('/').length === 1) {
    return (LEASE_STRATEGIES as readonly string[]).includes(strategy) ? [] : [notSupported(path, strategy, LEASE_STRATEGIES)];
  }
  // Strategies outside Kubernetes' own are domain-prefixed names.
  return isQualifiedName(strategy).map((msg) => invalid(path, strategy, msg));
}

function validateLeaseSpec(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const errs: FieldError[] = [];
  if (isSet(spec.leaseDurationSeconds) && spec.leaseDurationSeconds! <= 0) {
    errs.push(invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (isSet(spec.leaseTransitions) && spec.leaseTransitions! < 0) {
    errs.push(invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  if (isSet(spec.strategy)) errs.push(...strategyErrors(String(spec.strategy)));
  if (spec.preferredHolder && !spec.strategy) {
    errs.push(forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

export const leaseKind: KindDefinition = {
  group: GROUP,
  kind: 'Lease',
  plural: 'leases',
  singular: 'lease',
  namespaced: true,
  versions: [{ name: 'v1', stability: 'stable', schema: LeaseSchema }],
  storageVersion: 'v1',
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  trackGeneration: false,

  defaults(obj) {
    // Go always serializes the spec struct.
    obj.spec ??= {};
  },
  prepareForCreate: (obj) => dropDisabledFields(obj, undefined),
  prepareForUpdate: (obj, old) => dropDisabledFields(obj, old),
  validate: (obj) => validateLeaseSpec(obj),
  validateUpdate: (obj) => validateLeaseSpec(obj),

  tableColumns: [
    nameColumn,
    { name: 'Holder', type: 'string', description: HOLDER_DESCRIPTION, cell: (o) => specOf(o).holderIdentity ?? '' },
    ageColumn,
  ],
};
