/**
 * A lookup table's own entry for a key that may come from outside (a server's status, permission or
 * action name, a route segment, a file extension). `table[key]` on an object literal also finds what
 * every object inherits: `constructor`, `toString`, `__proto__` came back as functions and objects
 * where a string or a row was expected. `test/unit/security/tableLookups.test.ts` holds every
 * string-keyed table in `src/` to this door.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
