/** Writing a file without following a symbolic link and without a half-written state. */
import { rename, rm, writeFile } from "node:fs/promises";

/**
 * Writes `content` to `target` through a temporary file and a rename, so that a symbolic link
 * already standing at `target` is replaced rather than followed (a committed link in an output
 * folder must not let `seam compile` overwrite whatever it points to), and no reader ever sees a
 * half-written file.
 *
 * @throws the file system's error; the temporary file is removed first
 */
export async function writeReplacing(target: string, content: string): Promise<void> {
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, content, { encoding: "utf8", flag: "wx" });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
