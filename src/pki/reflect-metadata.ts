// @peculiar/x509 resolves its algorithm plug-ins through tsyringe, which refuses to load unless
// `Reflect.getMetadata` exists. The package that normally provides it (reflect-metadata) is not a
// dependency, and tsyringe only needs three functions, so this module supplies exactly those when
// nothing else has. It must be imported before @peculiar/x509 (see x509.ts).

type MetadataTarget = object;
type MetadataTable = Map<unknown, unknown>;

interface ReflectMetadataApi {
  getMetadata(key: unknown, target: MetadataTarget, propertyKey?: PropertyKey): unknown;
  getOwnMetadata(key: unknown, target: MetadataTarget, propertyKey?: PropertyKey): unknown;
  defineMetadata(key: unknown, value: unknown, target: MetadataTarget, propertyKey?: PropertyKey): void;
}

const reflect = Reflect as typeof Reflect & Partial<ReflectMetadataApi>;

if (typeof reflect.getMetadata !== 'function') {
  const store = new WeakMap<MetadataTarget, Map<PropertyKey | undefined, MetadataTable>>();

  const ownTable = (target: MetadataTarget, propertyKey: PropertyKey | undefined, create: boolean): MetadataTable | undefined => {
    let byProperty = store.get(target);
    if (!byProperty) {
      if (!create) return undefined;
      byProperty = new Map();
      store.set(target, byProperty);
    }
    let table = byProperty.get(propertyKey);
    if (!table && create) {
      table = new Map();
      byProperty.set(propertyKey, table);
    }
    return table;
  };

  const api: ReflectMetadataApi = {
    getOwnMetadata(key, target, propertyKey) {
      return ownTable(target, propertyKey, false)?.get(key);
    },
    getMetadata(key, target, propertyKey) {
      // Metadata is inherited along the prototype chain, as with reflect-metadata.
      for (let current: MetadataTarget | null = target; current; current = Object.getPrototypeOf(current)) {
        const table = ownTable(current, propertyKey, false);
        if (table?.has(key)) return table.get(key);
      }
      return undefined;
    },
    defineMetadata(key, value, target, propertyKey) {
      ownTable(target, propertyKey, true)!.set(key, value);
    },
  };

  for (const [name, fn] of Object.entries(api)) {
    Object.defineProperty(Reflect, name, { value: fn, writable: true, configurable: true, enumerable: false });
  }
}
