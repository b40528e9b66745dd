/**
 * The `seam` commands and their options, read from the commander program itself, and a check of
 * a command line written in the docs against them (no hand-kept list of flags).
 */
import type { Command, Option } from "commander";
import { createProgram } from "../../src/cli/run.js";
import { createFakeIo } from "../cli/fake-io.js";
import { root } from "./markdown.js";

/** The program `seam` runs. */
export const program: Command = createProgram(createFakeIo(root), () => {});

/** Every command of `seam`, by name. */
export const commands: ReadonlyMap<string, Command> = new Map(program.commands.map((c) => [c.name(), c]));

/** Whether an option takes a value (`--format <format>`), as opposed to a switch (`--check`). */
function takesValue(option: Option): boolean {
  return option.required || option.optional;
}

/**
 * What is wrong with `args` (the words after `seam`) as a command line: an unknown command, an
 * unknown option, a missing value or a value outside the option's choices. Values that are shell
 * expansions or placeholders (`$VAR`, `<file>`) are not judged.
 */
export function invocationProblems(args: readonly string[]): string[] {
  const [name, ...rest] = args;
  const command = name === undefined ? undefined : commands.get(name);
  if (command === undefined) return [`no command ${JSON.stringify(name)}; seam has ${[...commands.keys()].join(", ")}`];
  const problems: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i] as string;
    if (!word.startsWith("-") || word === "-") continue;
    if (word === "--help" || word === "-h") continue;
    const [flag, inline] = word.split("=", 2) as [string, string | undefined];
    const option = command.options.find((o) => o.long === flag || o.short === flag);
    if (option === undefined) {
      problems.push(`seam ${name} has no option ${flag}`);
      continue;
    }
    if (!takesValue(option)) continue;
    const value = inline ?? rest[++i];
    if (value === undefined) problems.push(`seam ${name} ${flag} needs a value`);
    else if (option.argChoices !== undefined && !/^[$<]/.test(value) && !option.argChoices.includes(value)) {
      problems.push(`seam ${name} ${flag} takes ${option.argChoices.join(", ")}, not ${JSON.stringify(value)}`);
    }
  }
  return problems;
}

/**
 * What is wrong with a synopsis line (`seam check <paths...> [--format pretty|json] [--max-warnings N]`):
 * an unknown command or option, or a list of alternatives that differs from the option's choices.
 */
export function synopsisProblems(line: string): string[] {
  const words = line.trim().split(/\s+/);
  if (words[0] !== "seam") return [`a synopsis line starts with seam: ${line}`];
  const name = words[1] as string;
  const command = commands.get(name);
  if (command === undefined) return [`no command ${JSON.stringify(name)}`];
  const problems: string[] = [];
  for (const match of line.matchAll(/(--[a-z-]+)(?:[ =]([^\s\]]+))?/g)) {
    const flag = match[1] as string;
    const option = command.options.find((o) => o.long === flag);
    if (option === undefined) {
      if (flag !== "--help") problems.push(`seam ${name} has no option ${flag}`);
      continue;
    }
    const value = match[2];
    if (value?.includes("|") && option.argChoices !== undefined) {
      const shown = [...value.split("|")].sort();
      if (shown.join() !== [...option.argChoices].sort().join()) {
        problems.push(`seam ${name} ${flag} takes ${option.argChoices.join("|")}, the synopsis says ${value}`);
      }
    }
  }
  return problems;
}

/**
 * Splits a shell command into words: single and double quotes group, `${{ ... }}` (a GitHub
 * expression) stays one word, and the command ends at a redirection or an operator.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\$\{\{[^}]*\}\})|([^\s"'|&;<>]+)|([|&;<>]+)/g;
  for (const match of command.matchAll(pattern)) {
    if (match[5] !== undefined) break;
    words.push(match[1] ?? match[2] ?? match[3] ?? (match[4] as string));
  }
  return words;
}

/** The words after `seam` when `words` runs seam (`seam ...`, `npx seam ...`, `npx --no-install seam ...`), else undefined. */
export function seamArgs(words: readonly string[]): string[] | undefined {
  if (words[0] === "seam") return words.slice(1);
  if (words[0] !== "npx") return undefined;
  const at = words.findIndex((w, i) => i > 0 && !w.startsWith("-"));
  return words[at] === "seam" ? words.slice(at + 1) : undefined;
}
