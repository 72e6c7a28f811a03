/**
 * A key a lesson names: the key itself, or `prefix*` for any key starting with `prefix`, for keys
 * whose tail the run makes up (the unlock latch `redisson_unlock_latch:{myLock}:<request id>`).
 * Used by key checks and by the keys a step's highlight cites.
 */
export function keyMatches(pattern: string, key: string): boolean {
  return pattern.endsWith('*') ? key.startsWith(pattern.slice(0, -1)) : key === pattern;
}

/** The first of `keys` (in their order) that `pattern` names. */
export function firstKeyMatching(pattern: string, keys: Iterable<string>): string | undefined {
  if (!pattern.endsWith('*')) {
    for (const k of keys) if (k === pattern) return k;
    return undefined;
  }
  for (const k of keys) if (keyMatches(pattern, k)) return k;
  return undefined;
}
