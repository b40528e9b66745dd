/**
 * The runtime package's envelope modules (`python/src/seam_handoff/envelopes/`) are what the
 * generator writes from the current envelope schema, one per envelope version, and a graph
 * module takes its envelope validator and classes from them instead of carrying its own.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emitPythonEnvelopeModule, emitPythonEnvelopePackage, envelopeModuleName, envelopeVersions } from "../../../src/emit/python/envelope-module.js";
import { emitPythonModule } from "../../../src/emit/python/python-module.js";
import { checkedGraphs, projectRoot } from "../helpers.js";

const folder = join(projectRoot, "python", "src", "seam_handoff", "envelopes");

describe("seam_handoff/envelopes", () => {
  it("holds one module per envelope version, and nothing else", () => {
    const names = readdirSync(folder).filter((name) => name.endsWith(".py")).sort();
    expect(names).toEqual(["__init__.py", ...envelopeVersions().map((v) => `${envelopeModuleName(v)}.py`)].sort());
  });

  it.each(envelopeVersions().map((v) => [envelopeModuleName(v), v] as const))("%s is what the generator writes (run `npm run build` when not)", (name, version) => {
    expect(readFileSync(join(folder, `${name}.py`), "utf8") === emitPythonEnvelopeModule(version)).toBe(true);
  });

  it("has the package file the generator writes", () => {
    expect(readFileSync(join(folder, "__init__.py"), "utf8")).toBe(emitPythonEnvelopePackage());
  });

  it("gives a graph module its envelope validator and classes, which the module does not define", () => {
    const text = readFileSync(join(projectRoot, "examples", "invoice-payouts.seam"), "utf8");
    const [graph] = checkedGraphs(text, "invoice-payouts.seam");
    const module = emitPythonModule(graph!, { text });
    expect(module).toContain("from seam_handoff.envelopes import v1_4 as _envelope\n");
    expect(module).toContain("_envelope_into: Final = _envelope.validate_into\n");
    expect(module).not.toMatch(/^def validate_envelope\(/m);
    expect(module).not.toMatch(/^class Envelope\(/m);
    expect(module).toMatch(/^def _validate_0\(data: object, path: str, errors: list\[SchemaError\]\) -> None:\n {4}# [^\n]+\n {4}_envelope_into\(data, path, errors\)$/m);
  });
});
