/**
 * Names of the generated validators (the same in the JavaScript and the Python module) and of the
 * Python envelope types, one per edge: `validate_<kind>__<from>__<to>`, from the edge's kind and agents, so adding, removing or reordering edges and `require` lines never
 * renames another edge's validator. Agent ids are escaped to ASCII identifiers deterministically
 * and reversibly: letters and digits stay, any other code point becomes `_<hex>x` (`-` is
 * `_2dx`, `_` is `_5fx`, `é` is `_e9x`). An escaped id never holds `__`, nor ends in `_`, so the
 * `__` separators split a name back into its parts unambiguously.
 */
import type { EdgeKind } from "../core/vocabulary.js";

/** The escaped form of one agent id (see the module comment). */
export function escapeAgentId(id: string): string {
  let out = "";
  for (const char of id) {
    out += /^[A-Za-z0-9]$/.test(char) ? char : `_${(char.codePointAt(0) as number).toString(16)}x`;
  }
  return out;
}

/**
 * The validator name of the edge `from -kind-> to`.
 *
 * @param edge - the edge's kind and agent ids
 * @returns an ASCII identifier, valid in JavaScript and Python
 */
export function edgeValidatorName(edge: { readonly kind: EdgeKind; readonly from: string; readonly to: string }): string {
  return `validate_${edge.kind}__${escapeAgentId(edge.from)}__${escapeAgentId(edge.to)}`;
}

/**
 * The validator name of each distinct contract: that of the first edge (in edge order) using it.
 *
 * @param edges - the graph's edges, in order
 * @param edgeContracts - the contract index of each edge (`GraphSchemas.edgeContracts`)
 * @returns one name per contract, indexed like the contracts
 */
export function contractValidatorNames(
  edges: readonly { readonly kind: EdgeKind; readonly from: string; readonly to: string }[],
  edgeContracts: readonly number[],
): string[] {
  const names: string[] = [];
  edges.forEach((edge, e) => {
    const contract = edgeContracts[e] as number;
    names[contract] ??= edgeValidatorName(edge);
  });
  return names;
}

/**
 * The `TypedDict` name of the envelopes of the edge `from -kind-> to`:
 * `<Kind>Envelope__<from>__<to>` (`DelegateEnvelope__triage__billing`), escaped as validator names are.
 */
export function edgeEnvelopeClassName(edge: { readonly kind: EdgeKind; readonly from: string; readonly to: string }): string {
  return `${edge.kind[0]!.toUpperCase()}${edge.kind.slice(1)}Envelope__${escapeAgentId(edge.from)}__${escapeAgentId(edge.to)}`;
}
