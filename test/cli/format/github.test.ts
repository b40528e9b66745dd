import { describe, expect, it } from "vitest";
import { escapeData, escapeProperty, formatGithub } from "../../../src/cli/format/github.js";
import { createDiagnostic, type RuleMeta } from "../../../src/core/diagnostic.js";
import { createSourceFile } from "../../../src/core/source-file.js";

const rule: RuleMeta = { id: "demo-rule", severity: "error", description: "A rule for tests." };

/**
 * A workflow command line read back as the GitHub runner reads it (actions/runner,
 * `ActionCommand.cs`): properties split at `,` and at their first `=`, then unescaped `%0D`,
 * `%0A`, `%3A`, `%2C`, then `%25` last; the message unescaped `%0D`, `%0A`, then `%25`.
 */
function readCommand(line: string): { name: string; properties: Record<string, string>; message: string } {
  const unescape = (text: string, tokens: [string, string][]): string => tokens.reduce((t, [escaped, char]) => t.split(escaped).join(char), text);
  const data: [string, string][] = [["%0D", "\r"], ["%0A", "\n"], ["%25", "%"]];
  const property: [string, string][] = [["%0D", "\r"], ["%0A", "\n"], ["%3A", ":"], ["%2C", ","], ["%25", "%"]];
  expect(line.startsWith("::")).toBe(true);
  const end = line.indexOf("::", 2);
  const head = line.slice(2, end);
  const space = head.indexOf(" ");
  const properties: Record<string, string> = {};
  for (const pair of head.slice(space + 1).split(",")) {
    const eq = pair.indexOf("=");
    properties[pair.slice(0, eq)] = unescape(pair.slice(eq + 1), property);
  }
  return { name: head.slice(0, space), properties, message: unescape(line.slice(end + 2), data) };
}

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

  it("escapes %, CR and LF in the message, and also : and , in properties", () => {
    const file = createSourceFile("/repo/a,b:c%.seam", "x\n");
    const d = createDiagnostic(rule, { file, range: { start: 0, end: 1 }, message: "100% sure,\r\nreally: yes" });
    expect(formatGithub([d], "/repo")).toBe(
      "::error file=a%2Cb%3Ac%25.seam,line=1,endLine=1,col=1,endColumn=2,title=seam demo-rule::100%25 sure,%0D%0Areally: yes\n",
    );
  });

  it("writes file names and messages that the runner reads back exactly: line breaks, colons, commas, percent signs", () => {
    const names = ["new\nline.seam", "a:b,c%d.seam", "%0A and %25 as text.seam", "crlf\r\n.seam", "back\\slash n.seam"];
    const messages = ["100% sure,\r\nreally: yes", "two\nlines", "%0A is not a line break", "a \\n is two characters"];
    for (const name of names) {
      for (const message of messages) {
        const d = createDiagnostic(rule, { file: createSourceFile(`/repo/${name}`, "x\n"), range: { start: 0, end: 1 }, message });
        const out = formatGithub([d], "/repo");
        // One workflow command, on one line: a line break in a name cannot start a second one.
        expect(out.indexOf("\n")).toBe(out.length - 1);
        const command = readCommand(out.slice(0, -1));
        expect(command.properties.file).toBe(name);
        expect(command.properties.title).toBe("seam demo-rule");
        expect(command.message).toBe(message);
      }
    }
  });

  it("still writes as escapes the controls that would act in the runner's log (ESC, BEL, bidirectional)", () => {
    const file = createSourceFile("/repo/\u001b[2Jx\u202e.seam", "x\n");
    const d = createDiagnostic(rule, { file, range: { start: 0, end: 1 }, message: "\u001b]0;owned\u0007\nnext" });
    const out = formatGithub([d], "/repo");
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    const command = readCommand(out.slice(0, -1));
    expect(command.properties.file).toBe("\\u001b[2Jx\\u202e.seam");
    expect(command.message).toBe("\\u001b]0;owned\\u0007\nnext");
  });

  it("escapes data and properties by the runner's rules", () => {
    expect(escapeData("a%b\nc\rd:e,f")).toBe("a%25b%0Ac%0Dd:e,f");
    expect(escapeProperty("a%b\nc\rd:e,f")).toBe("a%25b%0Ac%0Dd%3Ae%2Cf");
  });
});
