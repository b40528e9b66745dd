// Writes grammar/diagrams.html, the railroad diagrams of the Seam grammar, from the built
// parser in dist/ (run `npm run build` first). test/grammar/diagrams.test.ts checks that the
// committed file equals what this script writes from the current source.
import { existsSync, writeFileSync } from "node:fs";

const built = new URL("../dist/parser/syntax-diagrams.js", import.meta.url);
if (!existsSync(built)) {
  console.error("grammar: dist/parser/syntax-diagrams.js is missing; run `npm run build` first");
  process.exit(1);
}
const { renderSyntaxDiagrams } = await import(built.href);
const target = new URL("../grammar/diagrams.html", import.meta.url);
writeFileSync(target, renderSyntaxDiagrams());
console.log("grammar: wrote grammar/diagrams.html");
