// Libraries that most servers never use (protobuf's wire format, YAML, JOSE) load on first use instead of
// at start: each costs memory in every process that imports it (~8 KB of native memory per module, plus
// its code and data). `require` loads them synchronously, so the call sites stay synchronous.
import { createRequire } from 'node:module';

/** A loader of `specifier`, resolved from the module at `fromUrl`, that requires it on the first call. */
export function lazyModule<T>(specifier: string, fromUrl: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= createRequire(fromUrl)(specifier) as T);
}

/** Stands for a class of a lazily loaded module: `new`, static members and `instanceof` reach the real one. */
export function lazyClass<C extends abstract new (...args: never[]) => unknown>(load: () => C): C {
  return new Proxy(function placeholder() {} as unknown as C, {
    construct: (_target, args) => Reflect.construct(load() as unknown as new (...a: unknown[]) => object, args),
    get: (_target, name) => Reflect.get(load(), name),
  });
}

/** Stands for a function of a lazily loaded module. */
export function lazyFunction<F extends (...args: never[]) => unknown>(load: () => F): F {
  return ((...args: never[]) => load()(...args)) as F;
}
