// The bench's sections, in the order `npm run bench` runs them; each is bench/<name>.mjs.
export const SECTIONS = ["startup", "scale", "runtime", "diff", "python-target", "ingest", "redis", "lsp"];
