import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Emitted validator modules import `seam-handoff/runtime`, which resolves to the built `dist/`.
    globalSetup: ["test/global-setup.ts"],
    // Emitted Python modules import the runtime package `seam_handoff`, from its source, or from
    // the folder SEAM_TEST_PYTHONPATH names (the compiled build: docs/runtime-python.md).
    env: {
      PYTHONPATH: process.env["SEAM_TEST_PYTHONPATH"] ? resolve(process.env["SEAM_TEST_PYTHONPATH"]) : fileURLToPath(new URL("python/src", import.meta.url)),
      PYTHONDONTWRITEBYTECODE: "1",
    },
    testTimeout: 30_000,
  },
});
