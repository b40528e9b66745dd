/**
 * Every file `seam compile` writes has a name of at most 255 UTF-8 bytes, however long the graph
 * and agent ids: a valid graph with a 300-character agent once could not be compiled
 * (`the name is too long`). An over-long name keeps a prefix and gains a hash of the whole name.
 */
import { createHash } from "node:crypto";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { fitFileStem, MAX_FILE_NAME_BYTES } from "../../src/emit/fit-file-name.js";
import { createFakeIo } from "../cli/fake-io.js";
import { makeTempDir, removeTempDirs } from "./helpers.js";

afterAll(removeTempDirs);

const hash = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 12);
const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

/** A graph `graphName` whose entry `s` transfers to an agent `agent`. */
function graph(graphName: string, agent: string): string {
  return `seam 1\n\ngraph ${graphName} {\n  envelope 1.3\n  entry s\n  agent s: peer { terminal ok complete "d" }\n  agent ${agent}: peer { terminal done complete "d" }\n  transfer s -> ${agent}\n}\n`;
}

async function compile(text: string): Promise<{ code: number; out: string; err: string; files: string[] }> {
  const dir = makeTempDir("seam-long-names-");
  writeFileSync(join(dir, "g.seam"), text);
  const io = createFakeIo(dir);
  const code = await run(["compile", "g.seam", "--out", "out", "--target", "js,python", "--pydantic"], io);
  const files = code === 0 ? readdirSync(join(dir, "out")).sort() : [];
  return { code, out: io.out(), err: io.err(), files };
}

describe("fitFileStem", () => {
  it("keeps a stem that fits, up to exactly 255 bytes with its extension", () => {
    const stem = "a".repeat(MAX_FILE_NAME_BYTES - ".schema.json".length);
    expect(fitFileStem(stem, ".schema.json")).toBe(stem);
    expect(fitFileStem("g.s-transfer-b", ".schema.json")).toBe("g.s-transfer-b");
  });

  it("shortens a longer one to a prefix and a hash of the whole stem, whole code points only", () => {
    const stem = "a".repeat(MAX_FILE_NAME_BYTES - ".schema.json".length + 1);
    expect(fitFileStem(stem, ".schema.json")).toBe(`${"a".repeat(230)}_${hash(stem)}`);
    const wide = "é".repeat(200); // 400 UTF-8 bytes
    const fitted = fitFileStem(wide, ".py");
    expect(fitted).toBe(`${"é".repeat(119)}_${hash(wide)}`);
    expect(bytes(`${fitted}.py`)).toBe(254); // one more é would make 256
  });
});

describe("seam compile with long ids", () => {
  it("compiles a 300-character agent, every name within 255 bytes", async () => {
    const agent = "a".repeat(300);
    const r = await compile(graph("longn", agent));
    const edge = `longn.s-transfer-${"a".repeat(255 - 17 - 13 - 12)}_${hash(`longn.s-transfer-${agent}`)}.schema.json`;
    expect(bytes(edge)).toBe(255);
    expect(r).toEqual({
      code: 0,
      out: ["envelope.schema.json", edge.slice("longn.".length), "validators.mjs", "validators.d.mts"]
        .map((name) => `out/longn.${name}\n`)
        .concat(["out/longn_validators.py\n", "out/longn_models.py\n", "out/longn.mmd\n", "out/longn.dot\n"])
        .join(""),
      err: "",
      files: [edge, "longn.dot", "longn.envelope.schema.json", "longn.mmd", "longn.validators.d.mts", "longn.validators.mjs", "longn_models.py", "longn_validators.py"].sort(),
    });
  });

  it("shortens names from a long non-ASCII graph name, the Python modules still module names", async () => {
    const name = "ü".repeat(260); // 520 UTF-8 bytes; each ü is written as _ in a file name
    const r = await compile(graph(name, "b"));
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    for (const file of r.files) expect(bytes(file)).toBeLessThanOrEqual(MAX_FILE_NAME_BYTES);
    const python = r.files.filter((file) => file.endsWith(".py"));
    const stem = `${"_".repeat(255 - 13 - "_validators.py".length)}_${hash("_".repeat(260))}`;
    expect(python).toEqual([`${stem}_models.py`, `${stem}_validators.py`]);
    for (const file of python) expect(file.slice(0, -3)).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
    const mjs = r.files.filter((file) => file.endsWith(".mjs") || file.endsWith(".d.mts"));
    expect(mjs.map((file) => file.replace(/\.(d\.mts|mjs)$/, ""))).toEqual([mjs[0]?.replace(/\.(d\.mts|mjs)$/, ""), mjs[0]?.replace(/\.(d\.mts|mjs)$/, "")]);
  });

  it("leaves a name of exactly 255 bytes as it is", async () => {
    const agent = "c".repeat(255 - "longn.s-transfer-".length - ".schema.json".length);
    const r = await compile(graph("longn", agent));
    expect(r.code).toBe(0);
    expect(r.files).toContain(`longn.s-transfer-${agent}.schema.json`);
    expect(r.files.filter((file) => /_[0-9a-f]{12}\./.test(file))).toEqual([]);
  });
});
