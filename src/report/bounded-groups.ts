/**
 * Groups keyed by text from the logs (edges, producers, fields, versions) with a cap on how many
 * distinct keys are kept, so a log of any size, even a hostile one with a fresh producer id on
 * every line, is summarised in bounded memory. Past the cap, new keys share one
 * {@link OTHER_KEY} group and the report says that it was cut.
 */

/** The key of the group that collects every key past the cap. */
export const OTHER_KEY = "(other)";

/** A map from key to group that stops growing at its cap. */
export interface BoundedGroups<V> {
  /** The group of `key`, created on first use; {@link OTHER_KEY}'s group once the cap is reached. */
  get(key: string): V;
  /** Every group, in the order created ({@link OTHER_KEY} last when it exists). */
  entries(): [string, V][];
  /** Whether some key went into {@link OTHER_KEY}. */
  readonly overflowed: boolean;
}

/**
 * Creates a {@link BoundedGroups}.
 *
 * @param cap - the most distinct keys kept besides {@link OTHER_KEY}
 * @param create - makes a new, empty group
 */
export function createBoundedGroups<V>(cap: number, create: () => V): BoundedGroups<V> {
  const groups = new Map<string, V>();
  let other: V | undefined;
  return {
    get(key) {
      const found = groups.get(key);
      if (found !== undefined) return found;
      if (groups.size < cap) {
        const made = create();
        groups.set(key, made);
        return made;
      }
      return (other ??= create());
    },
    entries() {
      const list = [...groups.entries()];
      if (other !== undefined) list.push([OTHER_KEY, other]);
      return list;
    },
    get overflowed() {
      return other !== undefined;
    },
  };
}
