/** Whether an object has any enumerable key, without building the list of them (an empty query has none). */
export function hasKeys(object: object): boolean {
  for (const _ in object) return true;
  return false;
}
