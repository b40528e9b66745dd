/**
 * A program: the set of `.seam` files a command or an editor works on, read through a
 * {@link SeamHost} and checked one file at a time, with a cache keyed by each file's text, so a
 * language server re-checks only the file that changed (TypeSpec's `Program`). Files are checked
 * independently today; the program is where imports between files will be resolved.
 */
import { check, type CheckOptions } from "../analysis/check.js";
import type { CheckResult } from "../analysis/model.js";
import { carryLineStarts, type SourceFile } from "../core/source-file.js";
import { rescan } from "../parser/rescan.js";
import { scan, type ScanResult } from "../parser/scanner.js";
import { reuseAcrossNameEdit } from "./name-edit.js";
import { reuseAcrossTokenEdit } from "./token-edit.js";
import type { ReadProblem, SeamHost } from "./host.js";

/** The outcome of checking one path: the result, or why the file could not be read. */
export type FileCheck = { readonly ok: true; readonly result: CheckResult } | { readonly ok: false; readonly problem: ReadProblem };

/** A set of source files and their checks. */
export interface Program {
  readonly host: SeamHost;
  /** Reads `path` through the host and checks it (from the cache when its text is unchanged). Never rejects. */
  checkPath(path: string): Promise<FileCheck>;
  /**
   * Checks a file already in memory (from the cache when the same path had the same text). The
   * result of a path's text holds until the path's next text is checked: a check carried across
   * an edit is the last one with its tree and model moved in place, so read the new result, not
   * an older one kept aside.
   */
  checkFile(file: SourceFile): CheckResult;
  /** The last result for `path`, if it was checked. */
  lastResult(path: string): CheckResult | undefined;
  /** Drops `path` from the cache (a deleted or closed file). */
  forget(path: string): void;
  /**
   * How many checks ran, how many came from the cache, how many were the previous check of
   * the path carried across an edit that left its tokens as they were ({@link reuseAcrossTokenEdit}),
   * and how many ran the rules on the previous tree with a name changed ({@link reuseAcrossNameEdit});
   * for tests and the bench.
   */
  readonly stats: { readonly checks: number; readonly cacheHits: number; readonly reused: number; readonly renamed: number };
}

/**
 * Creates a program over `host`. The cache holds one result per path: a new text for a path
 * replaces the old result, so memory stays one check per file. From a path's second text on, the
 * cache also holds the scan of its text (made once, then from the last one around each edit), so
 * that an edit which leaves the tokens as they were reuses the last check.
 */
export function createProgram(host: SeamHost, options: CheckOptions = {}): Program {
  const cache = new Map<string, { text: string; result: CheckResult; scanned?: ScanResult }>();
  const stats = { checks: 0, cacheHits: 0, reused: 0, renamed: 0 };
  const checkFile = (file: SourceFile): CheckResult => {
    const cached = cache.get(file.path);
    if (cached !== undefined && cached.text === file.text) {
      stats.cacheHits++;
      return cached.result;
    }
    if (cached === undefined) {
      // A path's first text (every file of `seam check`): no scan is kept, none would be used.
      stats.checks++;
      const result = check(file, options);
      cache.set(file.path, { text: file.text, result });
      return result;
    }
    // An editor's keystroke: when it left the tokens as they were, the last check, its offsets
    // moved, is this text's check.
    const before = cached.scanned ?? scan(cached.text);
    const change = rescan(before, cached.text, file.text);
    // The positions of this text's diagnostics are found from the last text's line starts.
    carryLineStarts(cached.result.file, file, change.edit);
    // Checked in full, the text is not scanned again: the rescan made its scan. A carried check
    // whose tree cannot be moved is checked so too, when its tree is first read.
    const recheck = (): CheckResult => {
      stats.checks++;
      return check(file, options, change.scan);
    };
    const reused = reuseAcrossTokenEdit(cached.result, before, file, change, recheck);
    // A letter typed in a name changes findings: the rules run again, on the last tree. Its move
    // waits until the tree is read: the rules took the time a short move saves a request, and
    // the diagnostics, which an editor waits for, are ready without it.
    const renamed = reused === undefined ? reuseAcrossNameEdit(cached.result, before, file, change, options, recheck) : undefined;
    if (renamed !== undefined) stats.renamed++;
    // A carried check's tree is moved when first read (`moved-check.ts`), so that an editor
    // shows the diagnostics without waiting for the move of every node after the edit; the
    // language server reads it right after publishing them.
    if (reused !== undefined) stats.reused++;
    const result = reused ?? renamed ?? recheck();
    cache.set(file.path, { text: file.text, result, scanned: change.scan });
    return result;
  };
  return {
    host,
    async checkPath(path) {
      const read = await host.readFile(path);
      return read.ok ? { ok: true, result: checkFile(read.file) } : read;
    },
    checkFile,
    lastResult: (path) => cache.get(path)?.result,
    forget: (path) => void cache.delete(path),
    stats,
  };
}
