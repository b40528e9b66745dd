/**
 * The command line's {@link SeamHost}: files from the disk, relative to the working folder,
 * bounded in size and decoded as strict UTF-8 (`readSourceFile`).
 */
import { createProgram, type Program } from "../program/program.js";
import type { SeamHost } from "../program/host.js";
import { readSourceFile } from "./read-source-file.js";

/** A host that reads paths relative to `cwd` (or absolute) from the disk. */
export function createDiskHost(cwd: string): SeamHost {
  return { readFile: (path) => Promise.resolve(readSourceFile(path, cwd)) };
}

/** The program of one command run: the disk host of `cwd`. */
export function createCliProgram(cwd: string): Program {
  return createProgram(createDiskHost(cwd));
}
