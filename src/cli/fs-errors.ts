/**
 * Turns a Node file-system error into the two halves of Seam's one-line input error
 * (`seam: <path>: <what is wrong> (<what to do>)`), so no raw `ENOENT` text reaches the user.
 */

/** What is wrong with a path and what the user can do about it. */
export interface FsProblem {
  readonly problem: string;
  readonly hint: string;
}

/** Whether the failed call was reading a user's file or writing Seam's output. */
export type FsAccess = "read" | "write";

/**
 * The cause of a `node:fs` error as a short phrase (`permission denied`, `the name is too
 * long`...), for messages that say themselves what was being done. Unknown errors give Node's
 * message, which names the system call.
 *
 * @param error - whatever a `node:fs/promises` call rejected with
 */
export function describeFsCause(error: unknown): string {
  switch ((error as { code?: unknown } | null)?.code) {
    case "ENOENT":
      return "no such file or folder";
    case "ENOTDIR":
      return "a part of the path is not a folder";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a folder, not a file";
    case "ELOOP":
      return "too many levels of symbolic links";
    case "EMFILE":
    case "ENFILE":
      return "too many open files";
    case "ENAMETOOLONG":
      return "the name is too long";
    case "EROFS":
      return "the file system is read-only";
    case "ENOSPC":
      return "no space left on the device";
    case "EDQUOT":
      return "the disk quota is used up";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Describes an error thrown by `node:fs`. Unknown errors keep Node's message after
 * `cannot be read:` or `cannot be written:`; they are still input or output problems (exit 2),
 * not bugs.
 *
 * @param error - whatever a `node:fs/promises` call rejected with
 * @param access - what the failed call was doing (default `read`)
 */
export function describeFsError(error: unknown, access: FsAccess = "read"): FsProblem {
  const code = (error as { code?: unknown } | null)?.code;
  const cause = describeFsCause(error);
  switch (code) {
    case "ENOENT":
    case "ENOTDIR":
    case "ENAMETOOLONG":
      return { problem: access === "read" ? cause : `cannot be written: ${cause}`, hint: "check the path" };
    case "EACCES":
    case "EPERM":
      return {
        problem: access === "read" ? cause : `cannot be written: ${cause}`,
        hint: "check the permissions of the file and its folders",
      };
    case "EISDIR":
      return { problem: cause, hint: access === "read" ? "pass a file" : "remove the folder or write elsewhere" };
    case "ELOOP":
      return { problem: cause, hint: "fix the link" };
    case "EMFILE":
    case "ENFILE":
      return { problem: cause, hint: "raise the open-file limit or check fewer files at once" };
    case "EROFS":
    case "ENOSPC":
    case "EDQUOT":
      return { problem: `cannot be written: ${cause}`, hint: "write elsewhere or free some space" };
    default:
      return { problem: `cannot be ${access === "read" ? "read" : "written"}: ${cause}`, hint: "check the path and the file" };
  }
}
