// The YAML library (72 modules) loads when the first YAML document is read or written (see lazy.ts).
import type * as Yaml from 'yaml';
import { lazyFunction, lazyModule } from './lazy.ts';

const yaml = lazyModule<typeof Yaml>('yaml', import.meta.url);

export const parse = lazyFunction(() => yaml().parse as (...args: never[]) => unknown) as typeof Yaml.parse;
export const parseDocument = lazyFunction(() => yaml().parseDocument as (...args: never[]) => unknown) as typeof Yaml.parseDocument;
export const stringify = lazyFunction(() => yaml().stringify as (...args: never[]) => unknown) as typeof Yaml.stringify;

export default { parse, parseDocument, stringify };
