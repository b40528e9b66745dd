// Copies the files tsc does not emit, run by `npm run build`: the reason catalogue into the Python
// package, and the Redis ledger script into
// dist/runtime (the JavaScript store reads it beside its module) and into the Python package
// (python/src/seam_handoff/ledger.lua, committed so `pip install ./python` needs no Node; a test
// holds the copy identical to src/runtime/ledger.lua, the one hand-kept source).
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const ledger = join(root, "src", "runtime", "ledger.lua");
mkdirSync(join(root, "dist", "runtime"), { recursive: true });
copyFileSync(ledger, join(root, "dist", "runtime", "ledger.lua"));
copyFileSync(ledger, join(root, "python", "src", "seam_handoff", "ledger.lua"));
// The runtime's reason catalogue, read by the Python runtime as package data (tsc copies it into dist).
copyFileSync(join(root, "src", "runtime", "reasons.json"), join(root, "python", "src", "seam_handoff", "reasons.json"));
