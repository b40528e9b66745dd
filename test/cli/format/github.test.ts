import { describe, expect, it } from "vitest";
import { escapeData, escapeProperty, formatGithub } from "../../../src/cli/format/github.js";
import { createDiagnostic, type RuleMeta } from "../../../src/core/diagnostic.js";
import { createSourceFile } from "../../../src/core/source-file.js";

const rule: RuleMeta = { id: "demo-rule", severity: "error", description: "A rule for tests." };

describe("formatGithub", () => {
  it("writes one workflow command per diagnostic with 1-based positions", () => {
    const file = createSourceFile("/repo/graphs/desk.seam", "graph g {\n  transfer a -> bee\n}\n");
    const error = createDiagnostic(rule, { file, range: { start: 26, end: 29 }, message: "unknown agent" });
    const warning = createDiagnostic(rule, { file, range: { start: 0, end: 5 }, message: "w", severity: "warning" });
    const info = createDiagnostic(rule, { file, range: { start: 0, end: 5 }, message: "i", severity: "info" });
    expect(formatGithub([error, warning, info], "/repo")).toBe(
      "::error file=graphs/desk.seam,line=2,endLine=2,col=17,endColumn=20,title=seam demo-rule::unknown agent\n" +
        "::warning file=graphs/desk.seam,line=1,endLine=1,col=1,endColumn=6,title=seam demo-rule::w\n" +
        "::notice file=graphs/desk.seam,line=1,endLine=1,col=1,endColumn=6,title=seam demo-rule::i\n",
    );
  });

  it("escapes %, CR and LF in the message (a line break as \\r\\n, as the pretty format shows it), and also : and , in properties", () => {
    const file = createSourceFile("/repo/a,b:c%.seam", "x\n");
    const d = createDiagnostic(rule, { file, range: { start: 0, end: 1 }, message: "100% sure,\r\nreally: yes" });
    expect(formatGithub([d], "/repo")).toBe(
      "::error file=a%2Cb%3Ac%25.seam,line=1,endLine=1,col=1,endColumn=2,title=seam demo-rule::100%25 sure,\\r\\nreally: yes\n",
    );
  });

  it("escapes data and properties by the runner's rules", () => {
    expect(escapeData("a%b\nc\rd:e,f")).toBe("a%25b%0Ac%0Dd:e,f");
    expect(escapeProperty("a%b\nc\rd:e,f")).toBe("a%25b%0Ac%0Dd%3Ae%2Cf");
  });
});
