/** Equal as JSON values, whatever the order of object keys (the server and the store build them differently). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  const aEntries = Object.entries(a).filter(([, value]) => value !== undefined);
  const bRecord = b as Record<string, unknown>;
  const bCount = Object.values(b).filter((value) => value !== undefined).length;
  return aEntries.length === bCount && aEntries.every(([key, value]) => sameJson(value, bRecord[key]));
}
