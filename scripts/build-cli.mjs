// Bundles the `seam` command line for start-up speed: `bin/seam.js` imports dist/cli-bundle/main.js.
// Run by `npm run build` after tsc (dist/ from tsc stays the library API and its types).
//
// Why: `seam check` loads about 60 modules; resolving, reading and compiling each one cost more
// than the work of checking a file. One bundle with code splitting keeps the lazy parts lazy
// (compile, validate, graph, Ajv, Graphviz, each output format: separate chunks loaded by
// `import()`). Chevrotain is bundled from its ES module build, so only the parts Seam uses are
// kept. Commander is CommonJS: the banner gives the bundle a `require` for its `node:` imports.
import { build } from "esbuild";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
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

await build({
  entryPoints: { main: join(root, "src", "cli", "main.ts") },
  outdir: join(root, "dist", "cli-bundle"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [chevrotainInline],
  banner: { js: 'import { createRequire as __seamRequire } from "node:module"; const require = __seamRequire(import.meta.url);' },
});
