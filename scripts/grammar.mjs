// `npm run grammar`: writes grammar/seam.ebnf and grammar/diagrams.html (railroad diagrams) from
// the Chevrotain grammar specification, using the built code in dist/ (run `npm run build`
// first). test/grammar/ebnf.test.ts and diagrams.test.ts check that the committed files equal
// what this script writes from the current source.
import { existsSync, writeFileSync } from "node:fs";

const dist = new URL("../dist/parser/spec/", import.meta.url);
if (!existsSync(new URL("syntax-diagrams.js", dist)) || !existsSync(new URL("ebnf.js", dist))) {
  console.error("grammar: dist/parser/spec/ is missing; run `npm run build` first");
  process.exit(1);
}
const { renderSyntaxDiagrams } = await import(new URL("syntax-diagrams.js", dist).href);
const { renderEbnf } = await import(new URL("ebnf.js", dist).href);
writeFileSync(new URL("../grammar/diagrams.html", import.meta.url), renderSyntaxDiagrams());
writeFileSync(new URL("../grammar/seam.ebnf", import.meta.url), renderEbnf());
console.log("grammar: wrote grammar/seam.ebnf and grammar/diagrams.html");
