import { describe, expect, it } from "vitest";
import { dotPicture, escapeDot } from "../../src/emit/picture-dot.js";
import { FAULT_COLOR } from "../../src/emit/picture-model.js";
import { exampleNames, examplesDir, loadGraph, picturesDir, readPictureFixture } from "./picture-helpers.js";

describe("dotPicture", () => {
  it("matches the expected picture of the supplier due diligence example", () => {
    expect(dotPicture(loadGraph(`${examplesDir}supplier-due-diligence.seam`))).toBe(readPictureFixture("supplier-due-diligence.dot"));
  });

  it("matches the expected picture of a faulty graph, faults marked", () => {
    const text = dotPicture(loadGraph(`${picturesDir}faulty.seam`));
    expect(text).toBe(readPictureFixture("faulty.dot"));
    expect(text).toContain(`"billing" -> "refunds" [label=" transfer ", color="${FAULT_COLOR}"`);
    expect(text).toContain(`"loop_a" [label="loop_a\\npeer\\nno terminal path", shape="ellipse", color="${FAULT_COLOR}"`);
    expect(text).toMatch(/"archive" \[[^\]]*style="rounded,dashed"/);
  });

  it("quotes and escapes every id and label", () => {
    const text = dotPicture(loadGraph(`${picturesDir}tricky-names.seam`));
    expect(text).toContain('"end" [label="end\\nsupervisor 2.0 \\"beta\\" #1 <b>&", shape="box", peripheries="2"];');
    expect(text).toContain('"o1" [label="o1\\nworker back\\\\slash"');
    for (const line of text.split("\n").slice(1, -2)) {
      // Every statement is `"id" [...]` or `"id" -> "id" [...]`.
      expect(line).toMatch(/^ {2}("([^"\\]|\\.)*"( -> "([^"\\]|\\.)*")?|graph|node|edge)( \[.*\])?;$/);
    }
  });

  it("escapes backslashes, quotes and line breaks", () => {
    expect(escapeDot('a\\l"b\nc')).toBe('a\\\\l\\"b\\nc');
    expect(escapeDot("a\u0000b\ud800c\u001bd\u{1F600}")).toBe("a\ufffdb\ufffdc\ufffdd\u{1F600}");
  });

  it("renders every example", () => {
    for (const name of exampleNames()) {
      const text = dotPicture(loadGraph(`${examplesDir}${name}.seam`));
      expect(text).toMatch(/^digraph "[a-z_]+" \{\n/);
      expect(text.endsWith("}\n")).toBe(true);
    }
  });
});
