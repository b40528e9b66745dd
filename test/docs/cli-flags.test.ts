/**
 * Every command and option of `seam` is documented: each command has its section in docs/cli.md
 * and a row in the README's command table, and each option its `--flag` (with every choice it
 * takes) in that section. Commands and options are read from the commander program, so a new
 * option without docs fails here.
 */
import { describe, expect, it } from "vitest";
import { commands, program } from "./cli-options.js";
import { readPage } from "./markdown.js";

const page = readPage("docs/cli.md");
const readme = readPage("README.md");

/** The text of `## \`seam <name>\`` in docs/cli.md, up to the next `## `; undefined when there is none. */
function section(name: string): string | undefined {
  return page.split(/^## /m).find((s) => s.startsWith(`\`seam ${name}\`\n`));
}

const options = [...commands].flatMap(([name, command]) => command.options.map((option) => [name, option] as const));

describe("docs/cli.md documents every command and option", () => {
  it.each([...commands.keys()])("seam %s has a section and a row in the README's command table", (name) => {
    expect(section(name)).toBeDefined();
    expect(readme).toMatch(new RegExp(`^\\| \`seam ${name}[ \`]`, "m"));
  });

  it.each(options.map(([name, option]) => [name, option.long ?? option.flags, option] as const))("seam %s %s", (name, flag, option) => {
    const text = section(name) ?? "";
    expect(text).toMatch(new RegExp(`${flag}(?![a-z-])`));
    for (const choice of option.argChoices ?? []) expect([flag, text.includes(choice)]).toEqual([flag, true]);
  });

  it("states the options every command has: --help and --version", () => {
    const global = program.options.map((o) => o.long as string);
    expect(global).toEqual(["--version"]);
    for (const flag of [...global, "--help"]) expect(page.split(/^## /m)[0]).toMatch(new RegExp(`${flag}(?![a-z-])`));
  });
});
