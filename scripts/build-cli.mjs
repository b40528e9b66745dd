// Bundles the `seam` command line for start-up speed: `bin/seam.js` imports dist/cli-bundle/main.js.
// Run by `npm run build` after tsc (dist/ from tsc stays the library API and its types).
//
// Why: `seam check` loads about 60 modules; resolving, reading and compiling each one cost more
// than the work of checking a file. One bundle with code splitting keeps the lazy parts lazy
// (compile, validate, graph, Ajv, Graphviz, each output format: separate chunks loaded by
// `import()`), and the Chevrotain parser is a separate file read only for files with syntax
// errors. Commander is CommonJS: the banner gives the bundle a `require` for its `node:` imports
// (and for recovery.cjs).
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = join(root, "dist", "cli-bundle");
const chevrotainEntry = createRequire(import.meta.url).resolve("chevrotain");
const chevrotainBundle = join(dirname(chevrotainEntry), "..", "chevrotain.mjs");

/** `src/parser/chevrotain.ts` finds Chevrotain at run time; in the bundle it is a plain import. */
const chevrotainInline = {
  name: "chevrotain-inline",
  setup(b) {
    b.onResolve({ filter: /[/\\]chevrotain\.js$/ }, (args) =>
      args.importer.includes(`${join("src", "parser")}`) ? { path: "chevrotain", namespace: "seam-chevrotain" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "seam-chevrotain" }, () => ({
      contents: `export * as chevrotain from ${JSON.stringify(chevrotainBundle)};\n`,
      resolveDir: root,
      loader: "js",
    }));
  },
};

/**
 * `parse()` takes the Chevrotain parser (and Chevrotain, about 10 ms of start-up) only for files
 * with syntax errors. In the bundle its module is a separate CommonJS file, `recovery.cjs`,
 * which `parse()` loads with `require()` (synchronous, as `parse()` is) on first use: a clean
 * file never reads, compiles or runs that code.
 */
const lazyRecovery = {
  name: "lazy-recovery",
  setup(b) {
    b.onResolve({ filter: /^\.\/recovering-parse\.js$/ }, (args) =>
      args.importer === join(root, "src", "parser", "parse.ts") ? { path: "recovery", namespace: "seam-lazy" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "seam-lazy" }, () => ({
      contents: `export function parseWithRecovery(...args) {\n  return require("./recovery.cjs").parseWithRecovery(...args);\n}\n`,
      loader: "js",
    }));
  },
};

/** Options shared by the CLI bundle and the recovery bundle. */
const common = {
  bundle: true,
  platform: "node",
  target: "node20.19",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
};

rmSync(outdir, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { main: join(root, "src", "cli", "main.ts") },
  outdir,
  splitting: true,
  format: "esm",
  external: ["./recovery.cjs"],
  plugins: [chevrotainInline, lazyRecovery],
  banner: { js: 'import { createRequire as __seamRequire } from "node:module"; const require = __seamRequire(import.meta.url);' },
});
await build({
  ...common,
  entryPoints: [join(root, "src", "parser", "recovering-parse.ts")],
  outfile: join(outdir, "recovery.cjs"),
  format: "cjs",
  plugins: [chevrotainInline],
});
