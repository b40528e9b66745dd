/**
 * The memory store's accepted handoffs, by producer and `handoff_id`: a map per producer, so a
 * claim looks up two strings the envelope already holds, instead of building (and keeping, for
 * the task's whole life) a joined key per handoff. Another producer's use of a handoff id is
 * another entry: one sender cannot make another's handoff a duplicate.
 */

/** Values of type `T` keyed by (producer, handoff id); `null` is the producer of an envelope naming none. */
export class HandoffIndex<T> {
  readonly #byProducer = new Map<string | null, Map<string, T>>();

  /** The value of (`producer`, `handoffId`); undefined when none. */
  get(producer: string | null, handoffId: string): T | undefined {
    return this.#byProducer.get(producer)?.get(handoffId);
  }

  set(producer: string | null, handoffId: string, value: T): void {
    let ids = this.#byProducer.get(producer);
    if (ids === undefined) this.#byProducer.set(producer, (ids = new Map()));
    ids.set(handoffId, value);
  }

  /** Forgets (`producer`, `handoffId`), and the producer once it has no handoff left (memory stays bounded by what is kept). */
  delete(producer: string | null, handoffId: string): void {
    const ids = this.#byProducer.get(producer);
    if (ids === undefined) return;
    ids.delete(handoffId);
    if (ids.size === 0) this.#byProducer.delete(producer);
  }
}
