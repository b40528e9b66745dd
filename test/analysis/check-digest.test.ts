import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { check } from "../../src/analysis/check.js";
import { formatJson } from "../../src/cli/format/json.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { corpus } from "./corpus.js";

// Digests of the whole check of each corpus text (tree with every range, checked model,
// diagnostics, and `--format json` of them), recorded with the build of main before the scanner's
// keyword comparison and the parser's one-item blocks changed (branch scale2). An optimisation of
// the parse or the check must leave every one as it is; a change meant to alter what a check
// says records new digests in the same commit, and says why.
const RECORDED: Readonly<Record<string, string>> = {
  "40-1": "3729f3dec1784a7d",
  "40-1-cut1": "689a2a730188266f",
  "40-1-cut5": "40f6a1b1c2802216",
  "40-1-cut40": "a7b1358b786ff8d5",
  "40-2": "e12bd6034c440e21",
  "40-2-cut1": "9950f5aa3a2e4335",
  "40-2-cut5": "a5d5bd6ece47cdd5",
  "40-2-cut40": "6c8420de845cc587",
  "40-24225": "b6d6b5dd7fdadb78",
  "40-24225-cut1": "c43690689b8e5b48",
  "40-24225-cut5": "e0bf021b505026f9",
  "40-24225-cut40": "088be019e48da0bb",
  "300-1": "4539984c1d41b76a",
  "300-1-cut1": "7e9f005b7d8dd691",
  "300-1-cut5": "82f4ce2a041c6cf6",
  "300-1-cut40": "4afce4cf87bc366b",
  "300-2": "20d4ef560921e1a8",
  "300-2-cut1": "487f5733d52a2be9",
  "300-2-cut5": "f190cc880872a56e",
  "300-2-cut40": "977fae87d38bc30d",
  "300-24225": "85d9a0e0ec783c76",
  "300-24225-cut1": "863e14900a668a83",
  "300-24225-cut5": "4fa9eefc34c24433",
  "300-24225-cut40": "ab0e22c2e919fdb5",
  "2000-1": "2f73063dd2519f09",
  "2000-1-cut1": "a0d536a572141bef",
  "2000-1-cut5": "aabe38e0c8549e6d",
  "2000-1-cut40": "396149443966420c",
  "2000-2": "a0e340e3710d67c7",
  "2000-2-cut1": "eecc4559bf5a68dd",
  "2000-2-cut5": "fdce88cef6e6ca36",
  "2000-2-cut40": "a927b73a583c2e61",
  "2000-24225": "4c9bf375c576edf9",
  "2000-24225-cut1": "d6aaf3bb569d419b",
  "2000-24225-cut5": "9c052ac4094a1e3c",
  "2000-24225-cut40": "30008cb2c0a04f16"
};

/** The digest of one check: JSON of the tree, the graphs and the diagnostics (not the file), then the CLI's JSON. */
function digest(text: string): string {
  const result = check(createSourceFile("corpus.seam", text));
  const json = JSON.stringify({ ast: result.ast, graphs: result.graphs, diagnostics: result.diagnostics }, (key, value: unknown) =>
    key === "file" ? undefined : value === Infinity ? "Infinity" : value,
  );
  return createHash("sha256").update(json).update(formatJson(result.diagnostics, "/")).digest("hex").slice(0, 16);
}

describe("check digests", () => {
  it("checks every text of the corpus as the recorded build did", () => {
    const texts = corpus();
    expect(texts.map((t) => t.name)).toEqual(Object.keys(RECORDED));
    expect(Object.fromEntries(texts.map(({ name, text }) => [name, digest(text)]))).toEqual(RECORDED);
  });
});
