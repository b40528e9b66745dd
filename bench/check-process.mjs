// `seam check --format json FILE` as a process of its own, for the scale section's whole-process
// row: the file read and decoded, parsed, checked, the diagnostics sorted and printed as JSON on
// stdout, through the same modules the CLI uses, but without the CLI's 10 MiB limit on a file
// (the 10^5-agent bench graph is 21 MB). Prints `maxrss <bytes>` on stderr last.
// usage: node bench/check-process.mjs FILE
import { readFileSync } from "node:fs";

const path = process.argv[2];
const [{ createProgram }, { createSourceFile }, { sortDiagnostics }, { formatJson }] = await Promise.all([
  import("../dist/program/program.js"),
  import("../dist/core/source-file.js"),
  import("../dist/core/diagnostic.js"),
  import("../dist/cli/format/json.js"),
]);
const program = createProgram({ readFile: async (file) => ({ ok: true, file: createSourceFile(file, readFileSync(file, "utf8")) }) });
const checked = await program.checkPath(path);
if (!checked.ok) throw new Error(`${path}: ${checked.problem.problem}`);
process.stdout.write(formatJson(sortDiagnostics(checked.result.diagnostics), process.cwd()));
process.stderr.write(`maxrss ${process.resourceUsage().maxRSS * 1024}\n`);
