import { ENVELOPE_VERSION, envelopeFieldSince, envelopeSchemaFor } from "../../core/envelope-schema.js";
import type { EdgeDecl, FieldPath } from "../../parser/ast.js";
import { describeEdge } from "../describe.js";
import { listFieldPaths, resolveFieldPath } from "../field-paths.js";
import { defineRule } from "../rule.js";
import { boundedEditDistance } from "../suggest.js";

/** The field paths of each envelope minor version, listed once. */
const pathsByMinor = new Map<number, readonly string[]>();
function pathsOf(minor: number): readonly string[] {
  let paths = pathsByMinor.get(minor);
  if (paths === undefined) {
    paths = listFieldPaths(envelopeSchemaFor({ major: ENVELOPE_VERSION.major, minor }));
    pathsByMinor.set(minor, paths);
  }
  return paths;
}

/** The valid path nearest to `text` by edit distance, when it is plausibly what was meant. */
function nearestPath(validPaths: readonly string[], text: string): string | undefined {
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
function fieldsAt(validPaths: readonly string[], segments: readonly string[], count: number): string[] {
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
    // The graph's envelope version decides which fields exist (an unsupported version is
    // reported by unsupported-envelope; its paths are judged against the newest).
    const { major, minor: declared } = model.graph.envelope;
    const minor = major === ENVELOPE_VERSION.major && declared <= ENVELOPE_VERSION.minor ? declared : ENVELOPE_VERSION.minor;
    const schema = envelopeSchemaFor({ major: ENVELOPE_VERSION.major, minor });
    const validPaths = pathsOf(minor);
    const problems = new Map<string, ReturnType<typeof resolveFieldPath>>();
    const problemOf = (path: FieldPath): ReturnType<typeof resolveFieldPath> => {
      if (!problems.has(path.text)) problems.set(path.text, resolveFieldPath(path.segments, schema));
      return problems.get(path.text);
    };
    const checkPath = (path: FieldPath, where: () => string): void => {
      const problem = problemOf(path);
      if (problem === undefined) return;
      const since = problem.segment === 0 ? envelopeFieldSince(path.segments[0] as string) : undefined;
      if (since !== undefined) {
        report({
          range: path.range,
          message: `field '${path.text}' in ${where()} does not exist in envelope ${ENVELOPE_VERSION.major}.${minor}: envelope ${ENVELOPE_VERSION.major}.${since} added it; write \`envelope ${ENVELOPE_VERSION.major}.${since}\` or later, or drop the path.`,
        });
        return;
      }
      const suggestion = nearestPath(validPaths, path.text);
      const fix = suggestion
        ? `did you mean '${suggestion}'?`
        : `valid fields here: ${fieldsAt(validPaths, path.segments, problem.segment).join(", ") || "none"}.`;
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
