/**
 * Every relative link and image in README.md and docs/ resolves: the file exists (inside the
 * checkout), and a `#anchor` names a heading of the page it points to, as GitHub computes anchors.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { anchors, docPages, fromRoot, links, root, slug } from "./markdown.js";

const external = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
const all = docPages().flatMap(links).filter((l) => !external.test(l.target));

/** What is wrong with one link target from `page`, or undefined when it resolves. */
function problem(page: string, target: string): string | undefined {
  const [path = "", anchor] = target.split("#", 2);
  const file = path === "" ? page : fromRoot(normalize(join(dirname(join(root, page)), decodeURIComponent(path))));
  if (file.startsWith("..")) return `${target} points outside the checkout`;
  if (!existsSync(join(root, file))) return `${target}: no such file ${file}`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith(".md") || statSync(join(root, file)).isDirectory()) return `${target}: an anchor into a file that is not a page`;
  return anchors(file).has(anchor) ? undefined : `${target}: ${file} has no heading with anchor #${anchor}`;
}

describe("links in README.md and docs/", () => {
  it.each(all.map((l) => [`${l.page}:${l.line} ${l.target}`, l] as const))("%s", (_, link) => {
    expect(problem(link.page, link.target)).toBeUndefined();
  });

  it("reports a missing page and a missing anchor (the check is not vacuous)", () => {
    expect(problem("docs/README.md", "nowhere.md")).toBe("nowhere.md: no such file docs/nowhere.md");
    expect(problem("docs/README.md", "cli.md#seam-frobnicate")).toBe("cli.md#seam-frobnicate: docs/cli.md has no heading with anchor #seam-frobnicate");
    expect(problem("docs/README.md", "../../etc/passwd")).toBe("../../etc/passwd points outside the checkout");
  });

  it("computes anchors as GitHub does", () => {
    expect(["## `seam check`", "## 1. Install", "## Forgetting: TTLs", "## Rolling contracts out: observe, warn, enforce"].map((h) => slug(h.slice(3)))).toEqual([
      "seam-check",
      "1-install",
      "forgetting-ttls",
      "rolling-contracts-out-observe-warn-enforce",
    ]);
  });
});
