// The authentication.svc.io group: its kinds in discovery order (TokenRequest is a ServiceAccount
// sub-resource, declared in tokenrequest.ts).
import type { KindDefinition } from '../kind.ts';
import { selfSubjectReviewKind } from './selfsubjectreview.ts';
import { tokenReviewKind } from './tokenreview.ts';

export const kinds: KindDefinition[] = [selfSubjectReviewKind, tokenReviewKind];
