import { lstat, readlink, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, relative } from "node:path";
import { isFile } from "../fs-probe.js";
import { MASKED_FILES, SYSTEM_FOLDERS, type SystemEntry } from "./bwrap-args.js";
import { type SystemMasks, systemMasks } from "./system-masks.js";

// The sandbox is Linux only (bubblewrap), where relative() never gives an absolute path: that is Windows' other drives.
export const inside = (path: string, dir: string) => !relative(dir, path).startsWith("..");

/** Those of the system folders the host has: a real folder, or a link to make again inside. */
export async function systemEntries(folders: readonly string[] = SYSTEM_FOLDERS): Promise<SystemEntry[]> {
  const entries: SystemEntry[] = [];
  for (const path of folders) {
    try {
      const info = await lstat(path);
      if (info.isSymbolicLink()) entries.push({ path, link: await readlink(path) });
      else if (info.isDirectory()) entries.push({ path });
    } catch {}
  }
  return entries;
}

/** The system's secrets a sandbox covers: the named ones, and whatever under /etc others may not read. */
export async function maskedPaths(
  secrets: readonly string[] = MASKED_FILES,
  found: SystemMasks = systemMasks(),
): Promise<{ masked: string[]; maskedFolders: string[] }> {
  const named: string[] = [];
  for (const path of secrets) if (await isFile(path)) named.push(path);
  const files = [...new Set([...named, ...found.files])];
  return {
    masked: files.filter((f) => !found.folders.some((folder) => inside(f, folder))),
    maskedFolders: found.folders,
  };
}

// An npm-installed agent reads its whole package (and its platform package beside it): the node_modules folder
// holding it; any other binary, its own folder.
function installFolder(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === "node_modules") return dir;
  }
  return dirname(file);
}

/** The folders a command needs to read: its binary's install, a script it is given, the Node skillgym runs on. */
export async function installFolders(
  command: { command: string; args: readonly string[] },
  system: readonly SystemEntry[],
): Promise<string[]> {
  const files = [command.command, process.execPath, ...command.args.filter((a) => isAbsolute(a))];
  const folders: string[] = [];
  for (const file of files) {
    const real = await realpath(file).catch(() => undefined);
    if (!real || !(await isFile(real))) continue;
    const folder = installFolder(real);
    if (system.some((s) => s.link === undefined && inside(folder, s.path))) continue;
    if (!folders.includes(folder)) folders.push(folder);
  }
  return folders.filter((f) => !folders.some((other) => other !== f && inside(f, other)));
}
