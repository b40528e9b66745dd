import { describe, expect, it } from "vitest";
import { escapeMermaid, mermaidPicture } from "../../src/emit/picture-mermaid.js";
import { FAULT_COLOR, UNREACHABLE_COLOR } from "../../src/emit/picture-model.js";
import { exampleNames, examplesDir, loadGraph, picturesDir, readPictureFixture } from "./picture-helpers.js";

describe("mermaidPicture", () => {
  it("matches the expected picture of the supplier due diligence example", () => {
    const graph = loadGraph(`${examplesDir}supplier-due-diligence.seam`);
    expect(mermaidPicture(graph)).toBe(readPictureFixture("supplier-due-diligence.mmd"));
  });

  it("matches the expected picture of a faulty graph, faults marked", () => {
    const text = mermaidPicture(loadGraph(`${picturesDir}faulty.seam`));
    expect(text).toBe(readPictureFixture("faulty.mmd"));
    // The unbounded cycle billing <-> refunds: links 3 and 4 (after start->triage, delegate, return).
    expect(text).toContain(`linkStyle 3,4 stroke:${FAULT_COLOR}`);
    expect(text).toMatch(/class a3,a4 fault/);
    expect(text).toContain(`stroke:${UNREACHABLE_COLOR}`);
    expect(text).toContain('a2 -.->|"transfer<br/>observe"| a3');
  });

  it("uses generated ids for names Mermaid treats specially, real names in quoted labels", () => {
    const text = mermaidPicture(loadGraph(`${picturesDir}tricky-names.seam`));
    const statements = text.split("\n").slice(4).filter((line) => line.trim() !== "");
    for (const line of statements) {
      // Outside quoted labels, only generated ids and Mermaid syntax appear.
      const bare = line.replace(/"[^"]*"/g, '""');
      expect(bare).not.toMatch(/\bend\b|\bo1\b|\bx_ray\b|\boo\b/);
      expect(bare).not.toMatch(/--> ?[ox]/);
    }
    expect(text).toContain('a0[["end<br/>supervisor 2.0 #quot;beta#quot; #35;1 #lt;b#gt;#amp;"]]');
    expect(text).toContain('a1("o1<br/>worker back\\slash")');
    expect(text).toContain("s0 --> a0");
    expect(text).toContain('a0 -->|"delegate<br/>max_rounds 1"| a2');
    // Every quoted label is closed on its own line (no stray quote from a name).
    for (const line of statements) expect((line.match(/"/g) ?? []).length % 2).toBe(0);
  });

  it("escapes # before the characters whose escapes contain #", () => {
    expect(escapeMermaid('a"#<>&\nb')).toBe("a#quot;#35;#lt;#gt;#amp; b");
    expect(escapeMermaid("a\u0000b\udc00c\td")).toBe("a\ufffdb\ufffdc\td");
  });

  it("renders every example", () => {
    const names = exampleNames();
    expect(names.length).toBeGreaterThanOrEqual(6);
    for (const name of names) {
      const text = mermaidPicture(loadGraph(`${examplesDir}${name}.seam`));
      expect(text).toMatch(/^---\ntitle: ".+: hop limit \d+ \((auto|declared)[^"]*"\n---\nflowchart TD\n/);
      expect(text).not.toContain(FAULT_COLOR); // the examples are clean
    }
  });
});
