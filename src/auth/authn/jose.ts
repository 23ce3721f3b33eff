// JOSE (46 modules) loads when the first token is signed or verified (see machinery/lazy.ts).
import type * as Jose from 'jose';
import { lazyClass, lazyFunction, lazyModule } from '../../machinery/lazy.ts';

const jose = lazyModule<typeof Jose>('jose', import.meta.url);

export const CompactSign = lazyClass(() => jose().CompactSign);
export type CompactSign = Jose.CompactSign;
export const compactVerify = lazyFunction(() => jose().compactVerify as (...args: never[]) => unknown) as typeof Jose.compactVerify;
export const decodeProtectedHeader = lazyFunction(() => jose().decodeProtectedHeader as (...args: never[]) => unknown) as typeof Jose.decodeProtectedHeader;
