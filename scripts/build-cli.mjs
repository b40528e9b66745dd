// Bundles the `seam` command line for start-up speed: `bin/seam.js` imports dist/cli-bundle/main.js.
// Run by `npm run build` after tsc (dist/ from tsc stays the library API and its types).
//
// Why: `seam check` loads about 60 modules; resolving, reading and compiling each one cost more
// than the work of checking a file. One bundle with code splitting keeps the lazy parts lazy
// (compile, validate, graph, Ajv, Graphviz, each output format: separate chunks loaded by
// `import()`). Chevrotain is bundled from its ES module build, so only the parts Seam uses are
// kept. Commander is CommonJS: the banner gives the bundle a `require` for its `node:` imports.
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
 * with syntax errors. In the bundle its import becomes a `require()`, which esbuild turns into a
 * module initialised on first call, so a clean file never runs or compiles that code.
 */
const lazyRecovery = {
  name: "lazy-recovery",
  setup(b) {
    const target = join(root, "src", "parser", "recovering-parse.ts");
    b.onResolve({ filter: /^\.\/recovering-parse\.js$/ }, (args) =>
      args.importer === join(root, "src", "parser", "parse.ts") ? { path: target, namespace: "seam-lazy" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "seam-lazy" }, () => ({
      contents: `export function parseWithRecovery(...args) {\n  return require(${JSON.stringify(target)}).parseWithRecovery(...args);\n}\n`,
      resolveDir: root,
      loader: "js",
    }));
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { main: join(root, "src", "cli", "main.ts") },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [chevrotainInline, lazyRecovery],
  banner: { js: 'import { createRequire as __seamRequire } from "node:module"; const require = __seamRequire(import.meta.url);' },
});
