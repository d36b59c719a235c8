/**
 * One instance per database (a group-commit batcher, a batch loader): the first caller's `arg`
 * creates it, later callers with the same key (`keyOf(arg)`, their Sequelize instance) share it,
 * whatever deps object carries the key (the assistant builds its own). Keyed weakly, so a closed
 * database (tests open many) takes its instance with it.
 */
export function perDatabase<A, K extends object, V>(keyOf: (arg: A) => K, create: (arg: A) => V): (arg: A) => V {
  const byKey = new WeakMap<K, V>();
  return (arg) => {
    const key = keyOf(arg);
    let value = byKey.get(key);
    if (value === undefined) byKey.set(key, (value = create(arg)));
    return value;
  };
}
