import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Emitted validator modules import `seam-handoff/runtime`, which resolves to the built `dist/`.
    globalSetup: ["test/global-setup.ts"],
    // Emitted Python modules import the runtime package `seam_handoff`, from its source.
    env: { PYTHONPATH: fileURLToPath(new URL("python/src", import.meta.url)), PYTHONDONTWRITEBYTECODE: "1" },
    testTimeout: 30_000,
  },
});
