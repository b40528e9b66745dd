// Writes the generated modules the Python package's own tests (pytest) run against:
// python/tests/refund_desk_validators.py from test/fixtures/cases/envelopes/graph.seam, and
// python/tests/payouts_validators.py (guards, floors, an approval gate) from
// conformance/approvals/graph.seam. Run after changing the generator: test/python/package.test.ts
// fails while a committed copy is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { checkText } = await import(join(root, "dist", "index.js"));
const { emitPythonModule } = await import(join(root, "dist", "emit", "python", "python-module.js"));
for (const [source, module] of [
  [["test", "fixtures", "cases", "envelopes", "graph.seam"], "refund_desk_validators.py"],
  [["conformance", "approvals", "graph.seam"], "payouts_validators.py"],
]) {
  const text = readFileSync(join(root, ...source), "utf8");
  const [graph] = checkText("graph.seam", text).graphs;
  writeFileSync(join(root, "python", "tests", module), emitPythonModule(graph, { text }));
}
