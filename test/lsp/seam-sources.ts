/** The `.seam` texts of the examples and of every test fixture, for the property tests of the editor features. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function seamFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return seamFiles(path);
      return entry.isFile() && entry.name.endsWith(".seam") ? [path] : [];
    })
    .sort();
}

/** Each `.seam` file under examples/ and test/fixtures/, by its path from the repository root. */
export const SEAM_SOURCES: readonly { readonly name: string; readonly text: string }[] = [
  ...seamFiles(join(ROOT, "examples")),
  ...seamFiles(join(ROOT, "test", "fixtures")),
].map((path) => ({ name: path.slice(ROOT.length), text: readFileSync(path, "utf8") }));
