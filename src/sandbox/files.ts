import { randomBytes } from 'node:crypto';
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';

/**
 * Write via temp file + rename: readers never see a half-written file, and a
 * hard-linked file (see core.ts) is replaced rather than modified in place.
 */
export async function writeFileAtomic(file: string, content: string, mode = 0o644): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, content, { mode });
  await chmod(tmp, mode); // writeFile's mode is filtered by the umask
  await rename(tmp, file);
}

export async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
}

export async function writeJson(file: string, value: unknown, mode = 0o644): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, mode);
}
