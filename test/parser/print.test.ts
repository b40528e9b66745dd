import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSourceFile } from "../../src/core/source-file.js";
import { parse } from "../../src/parser/parse.js";
import { formatSource } from "../../src/parser/print.js";
import { gap, validFile } from "./generate.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Every `.seam` file under `dir`, recursively. */
function seamFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".seam"))
    .map((f) => join(dir, f))
    .sort();
}

function format(text: string): string {
  const result = formatSource(createSourceFile("f.seam", text));
  if (!result.ok) throw new Error(`not formatted: ${result.diagnostics.map((d) => d.message).join("; ")}`);
  return result.text;
}

/** The tree without ranges (and without comments, compared on their own). */
function shape(text: string): unknown {
  const { ast } = parse(createSourceFile("f.seam", text));
  return JSON.parse(JSON.stringify({ ...ast, comments: [] }, (key, value: unknown) => (key === "range" || key === "observe" ? undefined : value)));
}

/** The comments' texts, with LF line ends (the printer writes LF inside a block comment too). */
function commentTexts(text: string): string[] {
  return parse(createSourceFile("f.seam", text)).ast.comments.map((c) => c.text.replace(/\r\n?/g, "\n").trimEnd());
}

/** What must hold for every file that parses: idempotent, same tree, same comments, observe kept. */
function expectCanonical(text: string): void {
  const once = format(text);
  expect(format(once)).toBe(once);
  expect(shape(once)).toEqual(shape(text));
  expect(commentTexts(once)).toEqual(commentTexts(text));
  const observed = (t: string) => (t.match(/\bobserve\b/g) ?? []).length;
  expect(observed(once)).toBe(observed(text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "")) + observed(commentTexts(text).join("\n")));
}

describe("seam fmt's layout", () => {
  it("writes one item per line, two-space indents, short blocks on one line, comments in place", () => {
    const text = [
      "// the desk",
      "seam 1",
      "graph   desk{entry a // start here",
      "",
      "",
      "agent a : supervisor{terminal done complete \"ok\"   version \"1.0.0\"}",
      "  /* the worker */ agent b: worker {}",
      "delegate a->b observe{max_rounds 007 repairs   02}",
      "contract transfer {}",
      "transfer b -> a { require goal.statement, decisions[].rationale require constraints }",
      "  // before the end",
      "}",
      "graph second { entry x agent x: peer { terminal t } }",
    ].join("\n");
    expect(format(text)).toBe(
      [
        "// the desk",
        "seam 1",
        "",
        "graph desk {",
        "  entry a // start here",
        "",
        "  agent a: supervisor {",
        '    terminal done complete "ok"',
        '    version "1.0.0"',
        "  }",
        "  /* the worker */",
        "  agent b: worker",
        "  delegate a -> b observe {",
        "    max_rounds 7",
        "    repairs 2",
        "  }",
        "  contract transfer {}",
        "  transfer b -> a {",
        "    require goal.statement, decisions[].rationale",
        "    require constraints",
        "  }",
        "  // before the end",
        "}",
        "",
        "graph second {",
        "  entry x",
        "  agent x: peer { terminal t }",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("writes guards, floors, gates and effects in their canonical spacing, numbers as written", () => {
    const messy = [
      "graph g {",
      "  agent a: worker {gate   effect \"pays\"}",
      "  return a->b   when status is ready,partial and confidence>=0.80",
      "  return a -> c otherwise observe {min_confidence 0.5 for x,y gate}",
      "}",
      "",
    ].join("\n");
    expect(format(messy)).toBe(
      [
        "graph g {",
        "  agent a: worker {",
        "    gate",
        '    effect "pays"',
        "  }",
        "  return a -> b when status is ready, partial and confidence >= 0.80",
        "  return a -> c otherwise observe {",
        "    min_confidence 0.5 for x, y",
        "    gate",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    expect(format(format(messy))).toBe(format(messy));
  });

  it("writes LF line ends throughout a CRLF or CR file, inside block comments too", () => {
    const lf = 'graph g {\n  /* block\n     more */\n  entry a /* one\n  two */\n  agent a: worker { terminal done complete "d" }\n}\n';
    expect(format(lf.replace(/\n/g, "\r\n"))).toBe(lf);
    expect(format(lf.replace(/\n/g, "\r"))).toBe(lf);
    expect(format(lf)).toBe(lf);
  });

  it("aligns the comments at the ends of consecutive lines", () => {
    expect(format("graph g {\n  entry a // one\n  agent a: worker { terminal t } // two\n}")).toBe(
      "graph g {\n  entry a                        // one\n  agent a: worker { terminal t } // two\n}\n",
    );
  });

  it("moves a comment inside an item's own text to its own line before the item, in order", () => {
    expect(format("graph g {\n  delegate a /* via */ -> b\n  return b // back\n  -> a\n}")).toBe(
      "graph g {\n  /* via */\n  delegate a -> b\n  // back\n  return b -> a\n}\n",
    );
  });

  it("does not format a file with syntax errors", () => {
    const result = formatSource(createSourceFile("bad.seam", "graph g { agent a worker }"));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.diagnostics.map((d) => d.message)).toEqual(["expected ':' after 'a', found 'worker'"]);
  });
});

describe("seam fmt's properties", () => {
  const files = [...seamFiles("examples"), ...seamFiles("test/fixtures")];

  it("every example is formatted", () => {
    for (const path of seamFiles("examples")) {
      const text = readFileSync(join(root, path), "utf8");
      expect(format(text), path).toBe(text);
    }
  });

  it.each(files)("%s: idempotent, same tree, same comments", (path) => {
    const text = readFileSync(join(root, path), "utf8");
    if (parse(createSourceFile(path, text)).diagnostics.length > 0) return; // a fixture of errors: not formatted
    expectCanonical(text);
  });

  it("holds on files generated from the grammar, with comments between any tokens", () => {
    const withComments = fc.tuple(validFile, fc.array(fc.tuple(fc.nat(), gap), { maxLength: 6 })).map(([text, gaps]) => {
      const parts = text.split(" ");
      for (const [at, g] of gaps) parts.splice(at % (parts.length + 1), 0, g);
      return parts.join(" ");
    });
    fc.assert(
      fc.property(withComments, (text) => {
        if (parse(createSourceFile("g.seam", text)).diagnostics.length > 0) return;
        expectCanonical(text);
      }),
      { numRuns: Number(process.env["SEAM_FUZZ_RUNS"] ?? 300) },
    );
  });
});
