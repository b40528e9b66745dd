/**
 * Turns a Node file-system error into the two halves of Seam's one-line input error
 * (`seam: <path>: <what is wrong> (<what to do>)`), so no raw `ENOENT` text reaches the user.
 */

/** What is wrong with a path and what the user can do about it. */
export interface FsProblem {
  readonly problem: string;
  readonly hint: string;
}

/**
 * Describes an error thrown by `node:fs`. Unknown errors keep Node's message, which names the
 * system call; they are still input problems (exit 2), not bugs.
 *
 * @param error - whatever a `node:fs/promises` call rejected with
 */
export function describeFsError(error: unknown): FsProblem {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case "ENOENT":
      return { problem: "no such file or folder", hint: "check the path" };
    case "ENOTDIR":
      return { problem: "a part of the path is not a folder", hint: "check the path" };
    case "EACCES":
    case "EPERM":
      return { problem: "permission denied", hint: "check the permissions of the file and its folders" };
    case "EISDIR":
      return { problem: "is a folder, not a file", hint: "pass a file" };
    case "ELOOP":
      return { problem: "too many levels of symbolic links", hint: "fix the link" };
    case "EMFILE":
    case "ENFILE":
      return { problem: "too many open files", hint: "raise the open-file limit or check fewer files at once" };
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return { problem: `cannot be read: ${message}`, hint: "check the path and the file" };
    }
  }
}
