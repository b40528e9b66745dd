/**
 * A reason's JSON Pointer as a field name to group by (dashboards, `seam report`): which field a
 * producer gets wrong matters, not which array item, so indices become `*`; and a property the
 * producer invented (rule `additional-property`) is named by its parent, since its name is the
 * producer's text and would give every typo its own series.
 */

/** A JSON Pointer with its array indices as `*`: `/artefacts/3/ref` -> `/artefacts/*\/ref`. */
export function fieldOf(pointer: string): string {
  return pointer.replace(/\/(0|[1-9][0-9]*)(?=\/|$)/g, "/*");
}

/**
 * The field a reason is grouped under: {@link fieldOf} its path, and for `additional-property`
 * the parent's pointer followed by `/*` (`/goal/notes` -> `/goal/*`).
 *
 * @param path - the reason's JSON Pointer (RFC 6901)
 * @param rule - the reason's rule id
 */
export function fieldLabel(path: string, rule: string): string {
  const field = fieldOf(path);
  return rule === "additional-property" ? `${field.slice(0, field.lastIndexOf("/"))}/*` : field;
}
