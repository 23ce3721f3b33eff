// The authorization.svc.io group: its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { localSubjectAccessReviewKind, selfSubjectAccessReviewKind, selfSubjectRulesReviewKind, subjectAccessReviewKind } from './access-review.ts';

export const kinds: KindDefinition[] = [localSubjectAccessReviewKind, selfSubjectAccessReviewKind, selfSubjectRulesReviewKind, subjectAccessReviewKind];
