import type { EdgeDecl, FieldPath } from "../../parser/ast.js";
import { describeEdge } from "../describe.js";
import { listFieldPaths, resolveFieldPath } from "../field-paths.js";
import { defineRule } from "../rule.js";
import { boundedEditDistance } from "../suggest.js";

const validPaths = listFieldPaths();

/** The valid path nearest to `text` by edit distance, when it is plausibly what was meant. */
function nearestPath(text: string): string | undefined {
  const limit = Math.max(2, Math.floor(text.length / 2));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const path of validPaths) {
    const d = boundedEditDistance(text, path, bestDistance - 1);
    if (d < bestDistance) {
      best = path;
      bestDistance = d;
    }
  }
  return best;
}

/** The fields one level below the resolved prefix `segments[0 .. count)`. */
function fieldsAt(segments: readonly string[], count: number): string[] {
  const prefix = segments.slice(0, count);
  return validPaths.filter((path) => {
    const parts = path.split(/\.|(?=\[\])|(?<=\[\])/).filter(Boolean);
    return parts.length === count + 1 && prefix.every((p, i) => parts[i] === p);
  });
}

/**
 * `unknown-field` (error): a `require` or `loop_signature` path that the envelope schema lacks,
 * with the nearest valid path suggested.
 */
export const unknownFieldRule = defineRule({
  meta: {
    id: "unknown-field",
    severity: "error",
    description: "A require or loop_signature path names no field of the envelope schema.",
  },
  check({ model, report }) {
    // The same few paths recur on thousands of edges: resolve each text once.
    const problems = new Map<string, ReturnType<typeof resolveFieldPath>>();
    const problemOf = (path: FieldPath): ReturnType<typeof resolveFieldPath> => {
      if (!problems.has(path.text)) problems.set(path.text, resolveFieldPath(path.segments));
      return problems.get(path.text);
    };
    const checkPath = (path: FieldPath, where: () => string): void => {
      const problem = problemOf(path);
      if (problem === undefined) return;
      const suggestion = nearestPath(path.text);
      const fix = suggestion
        ? `did you mean '${suggestion}'?`
        : `valid fields here: ${fieldsAt(path.segments, problem.segment).join(", ") || "none"}.`;
      report({ range: path.range, message: `unknown field '${path.text}' in ${where()}: ${problem.reason}; ${fix}` });
    };
    const { settings, edges, requirePaths } = model.bound.items;
    for (const item of settings) {
      if (item.kind === "LoopSignature") {
        for (const path of item.paths) checkPath(path, () => "loop_signature");
      } else if (item.kind === "Contract") {
        for (const req of item.requires) for (const path of req.paths) checkPath(path, () => `contract ${item.edgeKind.value}`);
      }
    }
    for (const { edge, path } of requirePaths) {
      checkPath(path, () => `require of ${describeEdge(edges[edge] as EdgeDecl)}`);
    }
  },
});
