/**
 * Where a program's source files come from (TypeSpec's `CompilerHost`): the disk for the command
 * line, the editor's open buffers for a language server. A host reads; it never throws for a
 * file that cannot be read, it says why.
 */
import { createSourceFile, type SourceFile } from "../core/source-file.js";

/** Why a file could not be read: what is wrong and what to do, for a one-line report. */
export interface ReadProblem {
  /** The path as given. */
  readonly path: string;
  /** What is wrong, e.g. `no such file or folder`. */
  readonly problem: string;
  /** What to do, e.g. `check the path`. */
  readonly hint: string;
}

/** A file read and decoded, or why it could not be. */
export type HostReadResult = { readonly ok: true; readonly file: SourceFile } | { readonly ok: false; readonly problem: ReadProblem };

/** The source of a program's files. */
export interface SeamHost {
  /** Reads `path` (as the user or the editor names it). Never rejects. */
  readFile(path: string): Promise<HostReadResult>;
}

/** A host whose files can be set and removed (an editor's open buffers), over a fallback host. */
export interface OverlayHost extends SeamHost {
  /** Sets the text of `path` (an opened or changed buffer); it shadows the fallback. */
  set(path: string, text: string): void;
  /** Forgets `path` (a closed buffer): the fallback answers again. */
  delete(path: string): void;
  /** The text set for `path`, if any. */
  get(path: string): string | undefined;
}

/**
 * A host of in-memory texts (open buffers) in front of `fallback` (for an editor: the disk, so a
 * file that is not open is read from there). Without a fallback, a path never set is "not open".
 */
export function createOverlayHost(fallback?: SeamHost): OverlayHost {
  const texts = new Map<string, string>();
  return {
    async readFile(path) {
      const text = texts.get(path);
      if (text !== undefined) return { ok: true, file: createSourceFile(path, text) };
      if (fallback !== undefined) return fallback.readFile(path);
      return { ok: false, problem: { path, problem: "is not open", hint: "open the file first" } };
    },
    set: (path, text) => void texts.set(path, text),
    delete: (path) => void texts.delete(path),
    get: (path) => texts.get(path),
  };
}
