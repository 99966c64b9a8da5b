import { access } from 'node:fs/promises';

/** @returns true when `file` exists (any kind of entry the process can see). */
export async function pathExists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
