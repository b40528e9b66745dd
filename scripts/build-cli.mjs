// Bundles the `seam` command line for start-up speed: `bin/seam.js` imports dist/cli-bundle/main.js.
// Run by `npm run build` after tsc (dist/ from tsc stays the library API and its types).
//
// Why: `seam check` loads about 60 modules; resolving, reading and compiling each one cost more
// than the work of checking a file. One bundle with code splitting keeps the lazy parts lazy
// (compile, validate, graph, Ajv, Graphviz, each output format: separate chunks loaded by
// `import()`). The parser is hand-written, so Chevrotain (the grammar specification) is in no
// command's bundle. Commander is CommonJS: the banner gives the bundle a `require` for its
// `node:` imports.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = join(root, "dist", "cli-bundle");
/** esbuild options of the CLI bundle. */
const common = {
  bundle: true,
  platform: "node",
  target: "node20.19",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
};

/**
 * Commander requires `node:child_process` when it loads, for subcommands that are separate
 * executables, which Seam does not have; loading it pulls in `net`, `dgram` and the stream
 * classes, a few milliseconds of every start. Inside commander it is replaced by a module that
 * loads the real one on first use, so behaviour is unchanged.
 */
const lazyChildProcess = {
  name: "lazy-child-process",
  setup(plugin) {
    plugin.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: "lazy-child-process", namespace: "seam-lazy" } : undefined,
    );
    plugin.onLoad({ filter: /^lazy-child-process$/, namespace: "seam-lazy" }, () => ({
      contents: 'let real; const load = () => (real ??= require("node:child_process")); module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });',
      loader: "js",
    }));
  },
};

/**
 * `seam check`, the command run on every save and commit, as one CommonJS file
 * (dist/cli-bundle/check.cjs) that bin/seam.js loads with `require`: Node 20 loads CommonJS
 * synchronously, where each ES module costs a resolution, an asynchronous read and a link, and
 * the check path is a few dozen chunks of the split bundle. It is built from
 * the same entry, so `seam check` behaves the same; the other commands' modules (never reached
 * when the command is `check`) are left as imports of the tsc output. `import.meta.url` is the
 * file's own URL: dist/cli-bundle/ is as deep as every tsc output folder, so the relative paths
 * of `core/package-files.ts` still find package.json and docs/.
 */
const otherCommandsFromTsc = {
  name: "other-commands-from-tsc",
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) =>
      args.path === "./commands/check.js" ? undefined : { path: `../cli/${args.path.slice(2)}`, external: true },
    );
  },
};

/**
 * The look-alike rules' Unicode table (src/analysis/unicode/confusables-data.ts, a 57 KB string)
 * is read only for names beyond ASCII (skeleton.ts), yet in check.cjs it would be read, compiled
 * and kept in the code cache on every start: a quarter of the bundle. There it is its own file,
 * confusables-data.cjs beside check.cjs, that the bundle requires on first use of a name from it.
 */
const confusablesData = join(root, "src", "analysis", "unicode", "confusables-data.ts");
const lazyConfusables = {
  name: "lazy-confusables",
  setup(plugin) {
    plugin.onResolve({ filter: /[\\/]confusables-data\.js$|^\.\/confusables-data\.js$/ }, () => ({ path: "confusables-data", namespace: "seam-lazy" }));
    plugin.onResolve({ filter: /^\.\/confusables-data\.cjs$/, namespace: "seam-lazy" }, (args) => ({ path: args.path, external: true }));
    plugin.onLoad({ filter: /^confusables-data$/, namespace: "seam-lazy" }, async () => {
      const { build: buildNames } = await import("esbuild");
      // The names the module exports, each a getter that loads the file once.
      const { metafile } = await buildNames({ entryPoints: [confusablesData], write: false, metafile: true, bundle: true, format: "esm", logLevel: "silent" });
      const names = Object.values(metafile.outputs)[0].exports;
      const getters = names.map((name) => `get ${name}() { return load().${name}; }`).join(", ");
      return { contents: `let real; const load = () => (real ??= require("./confusables-data.cjs")); module.exports = { ${getters} };`, loader: "js" };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { main: join(root, "src", "cli", "main.ts") },
  outdir,
  splitting: true,
  format: "esm",
  banner: { js: 'import { createRequire as __seamRequire } from "node:module"; const require = __seamRequire(import.meta.url);' },
  plugins: [lazyChildProcess],
});

await build({
  ...common,
  entryPoints: [join(root, "src", "cli", "main.ts")],
  outfile: join(outdir, "check.cjs"),
  format: "cjs",
  define: { "import.meta.url": "__seamModuleUrl" },
  banner: { js: 'const __seamModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [lazyChildProcess, otherCommandsFromTsc, lazyConfusables],
});
await build({ ...common, entryPoints: [confusablesData], outfile: join(outdir, "confusables-data.cjs"), format: "cjs" });

// The code cache of check.cjs (bin/check-bundle.js), made by checking the examples (which are
// clean: exit 0). Anything else fails the build rather than ship a bundle without its cache.
const cached = spawnSync(process.execPath, [join(root, "scripts", "write-check-cache.cjs"), "check", join(root, "examples")], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
});
if (cached.status !== 0 || !existsSync(join(outdir, "check.cjs.cache"))) {
  throw new Error(`scripts/write-check-cache.cjs exited ${cached.status ?? cached.signal} and wrote no ${join(outdir, "check.cjs.cache")}`);
}
