import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Emitted validator modules import `seam-handoff/runtime`, which resolves to the built `dist/`.
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
  },
});
