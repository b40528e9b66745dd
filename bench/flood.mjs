// The hostile envelope of the runtime and Python target sections: a valid envelope whose
// `decisions` is filled with empty objects up to a size (1 MiB, the default limit of
// parseEnvelope), so that its edge validator reports five missing fields per item, 1.7 * 10^6
// errors in all: what an attacker within the size limit can make one check do.

/** The number of decisions that fill `base` up to `bytes` of compact JSON. */
function itemsToFill(base, bytes) {
  const empty = JSON.stringify({ ...base, decisions: [] }).length;
  // Each further `{}` adds three characters, `{}` and a comma.
  return Math.max(1, Math.floor((bytes - empty + 1) / 3));
}

/**
 * `base` with `decisions` replaced by empty objects, as many as fit in `bytes` of compact JSON.
 * @returns {{ envelope: object, items: number, bytes: number }}
 */
export function floodedEnvelope(base, bytes) {
  const items = itemsToFill(base, bytes);
  const envelope = { ...base, decisions: Array.from({ length: items }, () => ({})) };
  return { envelope, items, bytes: JSON.stringify(envelope).length };
}
