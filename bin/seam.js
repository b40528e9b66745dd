#!/usr/bin/env node
import module from "node:module";

// Node 22.1+ can keep compiled code between runs, which shortens every start; Node 20 has no
// such cache and skips this. The CLI is imported afterwards so that it benefits.
module.enableCompileCache?.();
const { main } = await import("../dist/cli/main.js");
await main();
