/** Drops undefined members, so a JSON answer stays small and a spread of overrides never erases a default. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}
