// Writes python/tests/refund_desk_validators.py, the generated module the Python package's own
// tests (pytest) run against, from test/fixtures/cases/envelopes/graph.seam. Run after changing
// the generator: test/python/package.test.ts fails while the committed copy is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { checkText } = await import(join(root, "dist", "index.js"));
const { emitPythonModule } = await import(join(root, "dist", "emit", "python", "python-module.js"));
const source = join(root, "test", "fixtures", "cases", "envelopes", "graph.seam");
const text = readFileSync(source, "utf8");
const [graph] = checkText("graph.seam", text).graphs;
writeFileSync(join(root, "python", "tests", "refund_desk_validators.py"), emitPythonModule(graph, { text }));
