/**
 * Every code sample in README.md and docs/ is run or type-checked, by the language of its fence:
 *
 * - `seam`: checked; clean, except a rule page's failing example, which must report its rule;
 * - `js`, `ts`: type-checked (strict, as a module) against the validator modules compiled from
 *   the README's graph, the help desk of conformance/ and the page's own graphs;
 * - `python`: run with Python 3 beside the Python modules compiled from the same graphs (and
 *   their pydantic models); `venv=<name>` runs it in an agent framework's venv (`.venv-import/`);
 * - `console`: each `$ seam ...` command run through the CLI; its output must be the block's;
 * - `sh`, `yaml`: each `seam` command line checked against the CLI's definition and, in `sh`,
 *   run; `npm` scripts must exist;
 * - `json`: parsed; `synopsis`: every option named exists, with the choices the CLI has;
 * - blocks another test runs (`lua`: test/lsp/neovim.test.ts; the tutorial's files and commands:
 *   getting-started.test.ts; `sh hook`: ci-hook.test.ts) are checked to be read by that test.
 *
 * A block tagged `fragment: <why>` is deliberately incomplete; it is skipped, and the test's
 * name says why. A block with no language fails.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import type { CheckedGraph } from "../../src/analysis/model.js";
import { run } from "../../src/cli/run.js";
import { emitCompileOutput } from "../../src/emit/compile-output.js";
import { createFakeIo } from "../cli/fake-io.js";
import { python, skipLine } from "../emit/python/python.js";
import { ensureBuilt } from "../global-setup.js";
import { invocationProblems, seamArgs, shellWords, synopsisProblems } from "./cli-options.js";
import { codeBlocks, docPages, readPage, root, tag, type CodeBlock } from "./markdown.js";
import { ROLLOUT } from "./rollout-page.js";

const blocks = docPages().flatMap(codeBlocks);
const where = (block: CodeBlock): string => `${block.page}:${block.line}`;
const fragmentReason = (block: CodeBlock): string | undefined => /^fragment:\s*(.*)$/.exec(block.tags)?.[1];
const byLang = (...langs: string[]): CodeBlock[] => blocks.filter((b) => langs.includes(b.lang) && fragmentReason(b) === undefined);

/** Blocks another test runs, and the test that must read their page. */
const TUTORIAL = "docs/getting-started.md";
function delegatedTo(block: CodeBlock): string | undefined {
  if (block.lang === "lua") return "test/lsp/neovim.test.ts";
  if (block.lang === "sh" && block.tags === "hook") return "test/docs/ci-hook.test.ts";
  if (block.page === TUTORIAL && (block.lang === "console" || tag(block, "file") !== undefined)) return "test/docs/getting-started.test.ts";
  if (block.page === ROLLOUT.page && block.section === ROLLOUT.section && (block.lang === "sh" || block.lang === "python")) return "test/docs/rollout.test.ts";
  return undefined;
}

/** Languages handled here; anything else is an unknown fence and fails. */
const HANDLED = new Set(["seam", "js", "ts", "python", "console", "sh", "yaml", "json", "synopsis", "lua"]);

/** The graphs every page's samples may import: the README's, and the help desk of the conformance suite. */
function sharedGraphs(): CheckedGraph[] {
  const readme = codeBlocks("README.md").find((b) => b.lang === "seam") as CodeBlock;
  const helpDesk = readFileSync(join(root, "conformance/help-desk/graph.seam"), "utf8");
  return [...checkText("README.seam", readme.text).graphs, ...checkText("help-desk.seam", helpDesk).graphs];
}

/** The shared graphs, with those a page defines in its own clean `seam` blocks in place of equal names. */
function graphsFor(page: string): CheckedGraph[] {
  const own = codeBlocks(page)
    .filter((b) => b.lang === "seam" && fragmentReason(b) === undefined && !b.page.startsWith("docs/rules/"))
    .flatMap((b) => {
      const result = checkText("sample.seam", b.text);
      return result.diagnostics.length === 0 ? result.graphs : [];
    });
  const names = new Set(own.map((g) => g.name));
  return [...sharedGraphs().filter((g) => !names.has(g.name)), ...own];
}

let work = "";
// ensureBuilt() runs tsc and bundles the CLI when src/ is newer than dist/: minutes on a busy
// two-core machine, as in bin.test.ts, not the default hook timeout's 10 s.
beforeAll(() => {
  ensureBuilt();
  mkdirSync(join(root, ".tmp"), { recursive: true });
  // Inside the package, so `seam-handoff/runtime` resolves to this checkout as it would from node_modules.
  work = mkdtempSync(join(root, ".tmp", "docs-samples-"));
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A folder for one page's samples, holding its compiled modules under out/ (JS and Python). */
const pageFolders = new Map<string, string>();
function pageFolder(page: string): string {
  const known = pageFolders.get(page);
  if (known !== undefined) return known;
  const folder = join(work, page.replace(/[/.]/g, "_"));
  mkdirSync(join(folder, "out"), { recursive: true });
  // The graphs come from several blocks: the Python headers hash no one source text here.
  for (const file of emitCompileOutput(graphsFor(page), ["js", "python"], "", { pydantic: true })) {
    writeFileSync(join(folder, file.path.endsWith(".py") ? file.path : join("out", file.path)), file.content);
  }
  pageFolders.set(page, folder);
  return folder;
}

describe("every code block names its language", () => {
  it.each(blocks.map((b) => [where(b), b] as const))("%s", (_, block) => {
    expect(block.lang, "a fence needs a language, or `text fragment: <why>`").not.toBe("");
    if (fragmentReason(block) === undefined) expect(HANDLED.has(block.lang), `unknown language ${block.lang}`).toBe(true);
    else expect(fragmentReason(block), "a fragment says why it cannot run").not.toBe("");
  });
});

describe("fragments", () => {
  const byReason = new Map<string, CodeBlock[]>();
  for (const block of blocks.filter((b) => fragmentReason(b) !== undefined)) {
    const key = `${block.lang} fragment, not run: ${fragmentReason(block)}`;
    byReason.set(key, [...(byReason.get(key) ?? []), block]);
  }
  for (const [reason, these] of byReason) it.skip(`${reason} (${these.map(where).join(", ")})`, () => {});
});

describe("samples run by another test", () => {
  it.each(blocks.filter((b) => delegatedTo(b) !== undefined).map((b) => [where(b), delegatedTo(b) as string, b] as const))(
    "%s: by %s",
    (_, test, block) => {
      expect(readFileSync(join(root, test), "utf8")).toContain(block.page);
    },
  );
});

describe("seam samples", () => {
  it.each(byLang("seam").map((b) => [where(b), b] as const))("%s", (_, block) => {
    const rule = block.page.match(/^docs\/rules\/([a-z-]+)\.md$/)?.[1];
    const found = checkText("sample.seam", block.text).diagnostics.map((d) => `${d.rule}: ${d.message}`);
    if (rule !== undefined && block.section === "Failing example") expect(found.map((f) => f.split(":")[0])).toContain(rule);
    else expect(found).toEqual([]);
  });
});

/** Names the samples take from the service around them, declared so that they type-check as written. */
const SERVICE_DECLARATIONS = `
type SampleStore = import("seam-handoff/runtime").SeenStore;
/** The body of the request that carried the envelope. */
declare const body: string;
/** The queue message it came in. */
declare const message: { readonly timestamp: number; readonly receiptHandle: string; retryLater(): unknown; ack(): unknown };
/** The service's store (a sample that needs one creates it; some only use it). */
declare const seen: SampleStore;
/** The producer the service's transport authenticated (an mTLS subject, a token's subject). */
declare const producerId: string;
/** The service's artefact store. */
declare const artefactStore: { canRead(ref: string, scope?: string): boolean };
/** The service's answer to a request whose body is no envelope (an HTTP 400, say). */
declare class BadRequest extends Error { constructor(reasons: unknown); }
/** The service's work on an accepted handoff. */
declare function handle(record: unknown): Promise<void>;
/** Where an accepted handoff goes next. */
declare function queue(route: string, record: unknown): void;
/** Sends a rejection back to its producer, or to a person. */
declare function reject(rejection: unknown): void;
`;

/**
 * For a `ts types` block (types the page restates): each type it declares must be mutually
 * assignable with the runtime's type of that name.
 */
function sameTypesAsRuntime(text: string): string {
  const names = [...text.matchAll(/^(?:interface|type) ([A-Za-z]+)/gm)].map((m) => m[1] as string);
  const checks = names.map((n) => `const same${n}: Same<${n}, Runtime.${n}> = true;\nvoid same${n};`);
  return `\nimport type * as Runtime from "seam-handoff/runtime";\ntype Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;\n${checks.join("\n")}\n`;
}

/** The compiler options of the samples: strict, except that plain JavaScript may leave parameters untyped. */
function sampleOptions(lang: string): ts.CompilerOptions {
  return {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    moduleDetection: ts.ModuleDetectionKind.Force,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noImplicitAny: lang === "ts",
    allowJs: true,
    checkJs: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
    typeRoots: [join(root, "node_modules/@types")],
  };
}

describe("js and ts samples type-check", () => {
  const samples = byLang("js", "ts");
  const diagnostics = new Map<string, string[]>();
  beforeAll(() => {
    const env = join(work, "service.d.ts");
    writeFileSync(env, SERVICE_DECLARATIONS);
    for (const lang of ["js", "ts"]) {
      const these = samples.filter((b) => b.lang === lang);
      const files = these.map((block) => {
        const file = join(pageFolder(block.page), `sample-${block.line}.${lang === "ts" ? "mts" : "mjs"}`);
        writeFileSync(file, block.tags === "types" ? block.text + sameTypesAsRuntime(block.text) : block.text);
        return file;
      });
      const program = ts.createProgram([env, ...files], sampleOptions(lang));
      these.forEach((block, i) => {
        const found = ts.getPreEmitDiagnostics(program, program.getSourceFile(files[i] as string)).map((d) => {
          const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
          return `line ${line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
        });
        diagnostics.set(where(block), found);
      });
    }
  }, 120_000);

  it.each(samples.map((b) => [where(b)] as const))("%s", (name) => {
    expect(diagnostics.get(name)).toEqual([]);
  });

  it("fails on a sample that misuses the compiled module (the check is not vacuous)", () => {
    const folder = pageFolder("README.md");
    const file = join(folder, "wrong.mjs");
    writeFileSync(file, 'import { accept } from "./out/refund_desk.validators.mjs";\naccept({}, { me: "nobody" });\n');
    const program = ts.createProgram([file], sampleOptions("js"));
    const messages = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(messages.join("\n")).toContain(`Type '"nobody"' is not assignable to type`);
  });
});

/**
 * The Python a sample runs with: `venv=<name>` names an agent framework's venv
 * (`.venv-import/<name>`, made by `.ci/run`) or `venv=.venv` the package's own (pydantic);
 * otherwise the machine's Python 3.
 */
function sampleVenv(block: CodeBlock): { python: string | undefined; missing: string } {
  const venv = tag(block, "venv");
  if (venv === undefined) return { python, missing: skipLine("python3") };
  const folder = venv === ".venv" ? join(root, ".venv") : join(root, ".venv-import", venv);
  const interpreter = join(folder, "bin", "python");
  return { python: existsSync(interpreter) ? interpreter : undefined, missing: `skipped: needs ${folder} (made by .ci/run)` };
}

describe("python samples run", () => {
  it.each(byLang("python").filter((b) => delegatedTo(b) === undefined).map((b) => [where(b), b] as const))("%s", (_, block) => {
    const { python: interpreter, missing } = sampleVenv(block);
    if (interpreter === undefined) {
      if (process.env["CI"] === "true") throw new Error(`CI=true: ${missing}`);
      return console.log(missing);
    }
    const folder = pageFolder(block.page);
    const file = join(folder, `sample_${block.line}.py`);
    writeFileSync(file, block.text);
    const result = spawnSync(interpreter, [file], {
      cwd: folder,
      encoding: "utf8",
      // No framework phones home from a test.
      env: { ...process.env, OTEL_SDK_DISABLED: "true", CREWAI_DISABLE_TELEMETRY: "true", OPENAI_AGENTS_DISABLE_TRACING: "1", LANGSMITH_TRACING: "false" },
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});

/**
 * What a user copies is checked as the package is: each Python sample that runs with the
 * package's own venv or the machine's Python passes mypy --strict beside its page's modules.
 */
describe("python samples pass mypy --strict", () => {
  const mypy = join(root, ".venv", "bin", "mypy");
  const typed = byLang("python").filter((b) => delegatedTo(b) === undefined && [undefined, ".venv"].includes(tag(b, "venv")));
  it.each(typed.map((b) => [where(b), b] as const))("%s", (_, block) => {
    if (!existsSync(mypy)) {
      if (process.env["CI"] === "true") throw new Error(`CI=true: needs ${mypy} (made by .ci/run)`);
      return console.log(`skipped: needs ${mypy} (made by .ci/run)`);
    }
    const folder = pageFolder(block.page);
    const file = join(folder, `typed_${block.line}.py`);
    writeFileSync(file, block.text);
    const args = ["--strict", "--no-incremental", "--cache-dir=/dev/null", "--no-error-summary", file];
    const result = spawnSync(mypy, args, { cwd: folder, encoding: "utf8", env: { ...process.env, MYPYPATH: [folder, join(root, "python", "src")].join(":") } });
    expect(result.stdout.replaceAll(`${folder}/`, "")).toBe("");
    expect(result.status).toBe(0);
  });
});

/** The `$ command` lines of a console block, each with the output that follows it. */
function consoleSteps(text: string): { command: string; output: string }[] {
  const steps: { command: string; output: string }[] = [];
  for (const line of text.split(/(?<=\n)/)) {
    if (line.startsWith("$ ")) steps.push({ command: line.slice(2).trimEnd(), output: "" });
    else if (steps.length > 0) (steps.at(-1) as { output: string }).output += line;
    else throw new Error(`console output before any $ command: ${line}`);
  }
  return steps;
}

describe("console samples print what the CLI prints", () => {
  it.each(byLang("console").filter((b) => delegatedTo(b) === undefined).map((b) => [where(b), b] as const))("%s", async (_, block) => {
    for (const step of consoleSteps(block.text)) {
      const args = seamArgs(shellWords(step.command));
      expect(args, `${step.command} runs seam`).toBeDefined();
      const io = createFakeIo(root);
      await run(args as string[], io);
      expect(io.out()).toBe(step.output);
    }
  });
});

/** The commands of a shell script: comments dropped, one per line or `&&` part. */
function shellCommands(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => !line.startsWith("#!"))
    .map((line) => line.replace(/(^|\s)#.*$/, "").trim())
    .filter((line) => line !== "")
    .flatMap((line) => line.split("&&").map((part) => part.trim()));
}

const npmScripts = Object.keys((JSON.parse(readPage("package.json")) as { scripts: Record<string, string> }).scripts);

describe("sh samples", () => {
  it.each(byLang("sh").filter((b) => delegatedTo(b) === undefined).map((b) => [where(b), b] as const))("%s", async (_, block) => {
    for (const command of shellCommands(block.text)) {
      const words = shellWords(command);
      const args = seamArgs(words);
      if (args !== undefined) {
        expect(invocationProblems(args)).toEqual([]);
        const io = createFakeIo(root);
        const code = await run(args, io);
        expect([command, io.err()]).toEqual([command, ""]);
        expect(code).toBe(0);
      } else if (words[0] === "npm" && (words[1] === "test" || words[1] === "run")) {
        expect(npmScripts).toContain(words[1] === "test" ? "test" : words[2]);
      } else {
        expect([command, words[0] === "npm" && words[1] === "ci"], "an sh sample runs seam or an npm script").toEqual([command, true]);
      }
    }
  });
});

/** The `run:` commands of a workflow, folded (`run: >`) ones joined into one line. */
function workflowCommands(text: string): string[] {
  const lines = text.split("\n");
  const commands: string[] = [];
  lines.forEach((line, i) => {
    const match = /^(\s*)(?:- )?run: ?(.*)$/.exec(line);
    if (match === null) return;
    if (match[2] !== ">" && match[2] !== "|") return void commands.push(match[2] as string);
    const indent = (match[1] as string).length;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && /^\s*/.exec(lines[j] as string)![0].length > indent; j++) body.push((lines[j] as string).trim());
    commands.push(body.join(" "));
  });
  return commands;
}

describe("yaml samples: every seam command line is one the CLI accepts", () => {
  it.each(byLang("yaml").map((b) => [where(b), b] as const))("%s", (_, block) => {
    const seamLines = workflowCommands(block.text)
      .map((c) => seamArgs(shellWords(c)))
      .filter((a) => a !== undefined);
    expect(seamLines.length).toBeGreaterThan(0);
    for (const args of seamLines) expect(invocationProblems(args)).toEqual([]);
  });

  it("reads folded run steps (the check is not vacuous)", () => {
    expect(workflowCommands("      - name: x\n        run: >\n          npx seam diff --against main .\n          --fail-on nothing\n")).toEqual([
      "npx seam diff --against main . --fail-on nothing",
    ]);
    expect(invocationProblems(["diff", "--against", "main", ".", "--fail-on", "nothing"])).toEqual([
      'seam diff --fail-on takes breaking, missing-version-bump, not "nothing"',
    ]);
  });
});

describe("json samples parse", () => {
  it.each(byLang("json").map((b) => [where(b), b] as const))("%s", (_, block) => {
    expect(() => JSON.parse(block.text)).not.toThrow();
  });
});

describe("synopsis samples name only options the CLI has, with its choices", () => {
  it.each(byLang("synopsis").map((b) => [where(b), b] as const))("%s", (_, block) => {
    const lines = block.text.split("\n").filter((l) => l.trim() !== "");
    for (const line of lines) expect(synopsisProblems(line.replace(/\s#.*$/, "").replace(/\s\(default: .*\)$/, ""))).toEqual([]);
  });

  it("reports an option the CLI lacks and choices that differ (the check is not vacuous)", () => {
    expect(synopsisProblems("seam check <paths...> [--format pretty|json] [--quiet]")).toEqual([
      "seam check --format takes pretty|json|sarif|github, the synopsis says pretty|json",
      "seam check has no option --quiet",
    ]);
  });
});
