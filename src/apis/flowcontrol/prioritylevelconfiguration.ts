// PriorityLevelConfiguration (flowcontrol.apiserver.svc.io/v1, cluster-scoped): a priority level of API
// Priority and Fairness, either exempt or limited (with queuing or rejection), and its share of the
// server's concurrency.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { type FieldError, invalid, required, forbidden, notSupported, child } from '../../machinery/field-errors.ts';
import { GROUP, withUnion, conditionSchema, statusConditionErrors } from './common.ts';

export const DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;
export const DEFAULT_HAND_SIZE = 8;
export const DEFAULT_QUEUES = 64;
export const DEFAULT_QUEUE_LENGTH_LIMIT = 50;
export const MAX_QUEUES = 10_000_000;
/** Shuffle sharding draws a hand from one 60-bit hash. */
export const MAX_HASH_BITS = 60;
export const EXEMPT = 'exempt';

const NCS_LIMITED_DESCRIPTION = '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server\'s concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a "jail" for this priority level that is used to hold some request(s)';
const TYPE_DESCRIPTION = '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.';
const QUEUES_DESCRIPTION = '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.';
const HAND_SIZE_DESCRIPTION = '`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request\'s flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.';
const QUEUE_LENGTH_DESCRIPTION = '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.';
const LENDABLE_DESCRIPTION = '`lendablePercent` prescribes the fraction of the level\'s NominalCL that can be borrowed by other priority levels. The value of this field must be between 0 and 100, inclusive, and it defaults to 0. The number of seats that other levels can borrow from this level, known as this level\'s LendableConcurrencyLimit (LendableCL), is defined as follows.\n\nLendableCL(i) = round( NominalCL(i) * lendablePercent(i)/100.0 )';

const QueuingConfiguration = S.object({
  queues: S.int32({ proto: 1, description: QUEUES_DESCRIPTION }),
  handSize: S.int32({ proto: 2, description: HAND_SIZE_DESCRIPTION }),
  queueLengthLimit: S.int32({ proto: 3, description: QUEUE_LENGTH_DESCRIPTION }),
}, { proto: 2, ref: 'flowcontrol.v1.QueuingConfiguration', description: 'QueuingConfiguration holds the configuration parameters for queuing' });

const LimitResponse = withUnion(S.object({
  type: S.string({ proto: 1, default: '', description: '`type` is "Queue" or "Reject". "Queue" means that requests that can not be executed upon arrival are held in a queue until they can be executed or a queuing limit is reached. "Reject" means that requests that can not be executed upon arrival are rejected. Required.' }),
  queuing: { ...QueuingConfiguration, description: '`queuing` holds the configuration parameters for queuing. This field may be non-empty only if `type` is `"Queue"`.' },
}, { proto: 2, ref: 'flowcontrol.v1.LimitResponse', description: 'LimitResponse defines how to handle requests that can not be executed right now.' }), 'type', { queuing: 'Queuing' });

const LimitedPriorityLevelConfiguration = S.object({
  nominalConcurrencyShares: S.int32({ proto: 1, description: NCS_LIMITED_DESCRIPTION }),
  limitResponse: { ...LimitResponse, description: '`limitResponse` indicates what to do with requests that can not be executed right now' },
  lendablePercent: S.int32({ proto: 3, description: LENDABLE_DESCRIPTION }),
  borrowingLimitPercent: S.int32({ proto: 4, description: '`borrowingLimitPercent`, if present, configures a limit on how many seats this priority level can borrow from other priority levels. The limit is known as this level\'s BorrowingConcurrencyLimit (BorrowingCL) and is a limit on the total number of seats that this level may borrow at any one time. This field holds the ratio of that limit to the level\'s nominal concurrency limit. When this field is non-nil, it must hold a non-negative integer and the limit is calculated as follows.\n\nBorrowingCL(i) = round( NominalCL(i) * borrowingLimitPercent(i)/100.0 )\n\nThe value of this field can be more than 100, implying that this priority level can borrow a number of seats that is greater than its own nominal concurrency limit (NominalCL). When this field is left `nil`, the limit is effectively infinite.' }),
}, { proto: 2, ref: 'flowcontrol.v1.LimitedPriorityLevelConfiguration', description: 'LimitedPriorityLevelConfiguration specifies how to handle requests that are subject to limits. It addresses two issues:\n  - How are requests for this priority level limited?\n  - What should be done with requests that exceed the limit?' });

const ExemptPriorityLevelConfiguration = S.object({
  nominalConcurrencyShares: S.int32({ proto: 1, description: '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats nominally reserved for this priority level. This DOES NOT limit the dispatching from this priority level but affects the other priority levels through the borrowing mechanism. The server\'s concurrency limit (ServerCL) is divided among all the priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level. This field has a default value of zero.' }),
  lendablePercent: S.int32({ proto: 2, description: LENDABLE_DESCRIPTION }),
}, { proto: 3, ref: 'flowcontrol.v1.ExemptPriorityLevelConfiguration', description: 'ExemptPriorityLevelConfiguration describes the configurable aspects of the handling of exempt requests. In the mandatory exempt configuration object the values in the fields here can be modified by authorized users, unlike the rest of the `spec`.' });

const PriorityLevelConfigurationSpec = withUnion(S.object({
  type: S.string({ proto: 1, default: '', description: TYPE_DESCRIPTION }),
  limited: { ...LimitedPriorityLevelConfiguration, description: '`limited` specifies how requests are handled for a Limited priority level. This field must be non-empty if and only if `type` is `"Limited"`.' },
  exempt: { ...ExemptPriorityLevelConfiguration, description: '`exempt` specifies how requests are handled for an exempt priority level. This field MUST be empty if `type` is `"Limited"`. This field MAY be non-empty if `type` is `"Exempt"`. If empty and `type` is `"Exempt"` then the default values for `ExemptPriorityLevelConfiguration` apply.' },
}, { proto: 2, ref: 'flowcontrol.v1.PriorityLevelConfigurationSpec', description: 'PriorityLevelConfigurationSpec specifies the configuration of a priority level.' }), 'type', { limited: 'Limited', exempt: 'Exempt' });

const PriorityLevelConfigurationStatus = S.object({
  conditions: S.list(conditionSchema('flowcontrol.v1.PriorityLevelConfigurationCondition', 'PriorityLevelConfigurationCondition defines the condition of priority level.'), {
    proto: 1, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: '`conditions` is the current state of "request-priority".',
  }),
}, { proto: 3, ref: 'flowcontrol.v1.PriorityLevelConfigurationStatus', description: 'PriorityLevelConfigurationStatus represents the current state of a "request-priority".' });

export const PriorityLevelConfigurationSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: { ...PriorityLevelConfigurationSpec, description: '`spec` is the specification of the desired behavior of a "request-priority". More info: https://git.svc.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status' },
  status: { ...PriorityLevelConfigurationStatus, description: '`status` is the current status of a "request-priority". More info: https://git.svc.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status' },
}, { ref: 'flowcontrol.v1.PriorityLevelConfiguration', description: 'PriorityLevelConfiguration represents the configuration of a priority level.' });

interface Queuing { queues?: number; handSize?: number; queueLengthLimit?: number }
interface Limited { nominalConcurrencyShares?: number | null; limitResponse?: { type?: string; queuing?: Queuing | null }; lendablePercent?: number | null; borrowingLimitPercent?: number | null }
interface Exempt { nominalConcurrencyShares?: number | null; lendablePercent?: number | null }
interface Spec { type?: string; limited?: Limited | null; exempt?: Exempt | null }

const specOf = (o: ApiObject) => (o.spec ?? {}) as Spec;

/** v1 defaults: shares 30 only when unset (an explicit 0 stays), percents 0, queuing 8/64/50. */
function defaults(obj: ApiObject): void {
  const spec = (obj.spec ??= {}) as Spec;
  obj.status ??= {};
  const limited = spec.limited;
  if (limited && typeof limited === 'object') {
    limited.nominalConcurrencyShares ??= DEFAULT_NOMINAL_CONCURRENCY_SHARES;
    limited.lendablePercent ??= 0;
    const response = (limited.limitResponse ??= {});
    response.type ??= '';
    const q = response.queuing;
    if (q && typeof q === 'object') {
      if (!q.handSize) q.handSize = DEFAULT_HAND_SIZE;
      if (!q.queues) q.queues = DEFAULT_QUEUES;
      if (!q.queueLengthLimit) q.queueLengthLimit = DEFAULT_QUEUE_LENGTH_LIMIT;
    }
  }
  const exempt = spec.exempt;
  if (exempt && typeof exempt === 'object') {
    exempt.nominalConcurrencyShares ??= 0;
    exempt.lendablePercent ??= 0;
  }
}

/** The hash bits shuffle sharding needs to deal `handSize` of `deckSize` queues. */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

function queuingErrors(q: Queuing, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const queues = q.queues ?? 0, handSize = q.handSize ?? 0, limit = q.queueLengthLimit ?? 0;
  if (limit <= 0) errs.push(invalid(child(path, 'queueLengthLimit'), limit, 'must be positive'));
  if (queues <= 0) errs.push(invalid(child(path, 'queues'), queues, 'must be positive'));
  else if (queues > MAX_QUEUES) errs.push(invalid(child(path, 'queues'), queues, `must not be greater than ${MAX_QUEUES}`));
  if (handSize <= 0) errs.push(invalid(child(path, 'handSize'), handSize, 'must be positive'));
  else if (handSize > queues) errs.push(invalid(child(path, 'handSize'), handSize, `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS) {
    errs.push(invalid(child(path, 'handSize'), handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`));
  }
  return errs;
}

function limitResponseErrors(lr: Limited['limitResponse'], path: string): FieldError[] {
  const type = lr?.type ?? '';
  switch (type) {
    case 'Reject':
      return lr?.queuing ? [forbidden(child(path, 'queuing'), 'must be nil if limited.limitResponse.type is not Limited')] : [];
    case 'Queue':
      return lr?.queuing ? queuingErrors(lr.queuing, child(path, 'queuing')) : [required(child(path, 'queuing'), 'must not be empty if limited.limitResponse.type is Limited')];
    default:
      return [notSupported(child(path, 'type'), type, ['Queue', 'Reject'])];
  }
}

const percentErrors = (value: number | null | undefined, path: string): FieldError[] =>
  typeof value === 'number' && !(value >= 0 && value <= 100) ? [invalid(path, value, 'must be between 0 and 100, inclusive')] : [];

function limitedErrors(l: Limited, path: string): FieldError[] {
  const errs: FieldError[] = [];
  // Since v1.30 a limited level may have zero shares (a "jail").
  const ncs = l.nominalConcurrencyShares ?? 0;
  if (ncs < 0) errs.push(invalid(child(path, 'nominalConcurrencyShares'), ncs, 'must be a non-negative integer'));
  errs.push(...limitResponseErrors(l.limitResponse, child(path, 'limitResponse')));
  errs.push(...percentErrors(l.lendablePercent, child(path, 'lendablePercent')));
  if (typeof l.borrowingLimitPercent === 'number' && l.borrowingLimitPercent < 0) {
    errs.push(invalid(child(path, 'borrowingLimitPercent'), l.borrowingLimitPercent, 'if specified, must be a non-negative integer'));
  }
  return errs;
}

function exemptErrors(e: Exempt, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof e.nominalConcurrencyShares === 'number' && e.nominalConcurrencyShares < 0) {
    errs.push(invalid(child(path, 'nominalConcurrencyShares'), e.nominalConcurrencyShares, 'must be a non-negative integer'));
  }
  errs.push(...percentErrors(e.lendablePercent, child(path, 'lendablePercent')));
  return errs;
}

/** ValidatePriorityLevelConfigurationSpec: the type matches the name and the section it fills. */
function specErrors(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const type = spec.type ?? '';
  const errs: FieldError[] = [];
  if ((obj.metadata?.name === EXEMPT) !== (type === 'Exempt')) errs.push(invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  switch (type) {
    case 'Exempt':
      if (spec.limited) errs.push(forbidden('spec.limited', 'must be nil if the type is not Limited'));
      if (spec.exempt) errs.push(...exemptErrors(spec.exempt, 'spec.exempt'));
      break;
    case 'Limited':
      if (spec.exempt) errs.push(forbidden('spec.exempt', 'must be nil if the type is Limited'));
      if (!spec.limited) errs.push(required('spec.limited', 'must not be empty when type is Limited'));
      else errs.push(...limitedErrors(spec.limited, 'spec.limited'));
      break;
    default:
      errs.push(notSupported('spec.type', type, ['Exempt', 'Limited']));
  }
  return errs;
}

const validate = (obj: ApiObject) => [...specErrors(obj), ...statusConditionErrors(obj)];

/** A cell kubectl shows for a limited level's setting, `<none>` otherwise. */
function limitedCell(obj: ApiObject, pick: (l: Limited) => unknown): unknown {
  const l = specOf(obj).limited;
  if (!l) return '<none>';
  return pick(l) ?? '<none>';
}

export const priorityLevelConfigurationKind: KindDefinition = {
  group: GROUP,
  kind: 'PriorityLevelConfiguration',
  plural: 'prioritylevelconfigurations',
  singular: 'prioritylevelconfiguration',
  namespaced: false,
  versions: [{ name: 'v1', stability: 'stable', schema: PriorityLevelConfigurationSchema }],
  storageVersion: 'v1',
  status: {},
  trackGeneration: true,

  defaults,
  prepareForCreate(obj) {
    obj.status = {};
  },
  validate,
  validateUpdate: (obj, _old, ctx) => (ctx.subresource === 'status' ? statusConditionErrors(obj) : validate(obj)),

  tableColumns: [
    nameColumn,
    { name: 'Type', type: 'string', description: TYPE_DESCRIPTION, cell: (o) => specOf(o).type ?? '' },
    { name: 'NominalConcurrencyShares', type: 'string', description: NCS_LIMITED_DESCRIPTION, cell: (o) => limitedCell(o, (l) => l.nominalConcurrencyShares) },
    { name: 'Queues', type: 'string', description: QUEUES_DESCRIPTION, cell: (o) => limitedCell(o, (l) => l.limitResponse?.queuing?.queues) },
    { name: 'HandSize', type: 'string', description: HAND_SIZE_DESCRIPTION, cell: (o) => limitedCell(o, (l) => l.limitResponse?.queuing?.handSize) },
    { name: 'QueueLengthLimit', type: 'string', description: QUEUE_LENGTH_DESCRIPTION, cell: (o) => limitedCell(o, (l) => l.limitResponse?.queuing?.queueLengthLimit) },
    ageColumn,
  ],
};
