/**
 * Writes an output file through a temporary file and a rename, so that a symbolic link already
 * standing at the target is replaced rather than followed (a committed link must not let Seam
 * overwrite whatever it points to), and no reader ever sees a half-written file.
 */
import { rename, rm, writeFile } from "node:fs/promises";

/**
 * Writes `content` (UTF-8) to `target`, replacing what is there.
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
