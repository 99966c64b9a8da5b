/**
 * @returns `make` with each key's value made once and kept (a Map by key), for a pure `make`:
 *   one copy of a string thousands of policies repeat, one lookup of a directory's project file,
 *   one marker object of a commit thousands of scopes carry.
 */
export function memoized<T>(make: (key: string) => T): (key: string) => T {
  const made = new Map<string, T>();
  return (key) => {
    const known = made.get(key);
    if (known !== undefined || made.has(key)) return known as T;
    const value = make(key);
    made.set(key, value);
    return value;
  };
}
