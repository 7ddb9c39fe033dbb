import { chmod, copyFile, lstat, mkdir, readFile, realpath, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { SkillgymError } from "../errors.js";
import { listSkillFiles } from "../skill/files.js";
import { resolveLink } from "../tree/links.js";
import { copyFileReplacing } from "../workspace/copy-tree.js";
import { copyTree } from "../workspace/index.js";
import { unifiedDiff } from "./unified-diff.js";

/** Copies a skill's own files (what its hash and package cover: no evals/, no secrets, no caches, no outside links). */
export async function copySkillFiles(from: string, to: string): Promise<void> {
  await rm(to, { recursive: true, force: true });
  await mkdir(to, { recursive: true });
  for (const file of await listSkillFiles(from)) {
    const target = join(to, ...file.path.split("/"));
    await mkdir(dirname(target), { recursive: true });
    await copyFile(file.absolutePath, target);
    if (file.executable) await chmod(target, 0o755);
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

/** A skill folder's evals/ (fixtures a suite names relative to the skill live there), when it has one. */
export async function copyEvalsFolder(skillDir: string, to: string): Promise<void> {
  const evals = join(skillDir, "evals");
  if (await isFolder(evals)) await copyTree(evals, join(to, "evals"));
}

function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

async function filesOf(dir: string): Promise<Map<string, string>> {
  return new Map((await listSkillFiles(dir)).map((f) => [f.path, f.absolutePath]));
}

/** The unified diff of two versions of a skill, file by file, with `a/<name>/…` and `b/<name>/…` labels. */
export async function skillDiff(oldDir: string, newDir: string, name: string): Promise<string> {
  const before = await filesOf(oldDir);
  const after = await filesOf(newDir);
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const parts: string[] = [];
  for (const path of paths) {
    const a = before.get(path);
    const b = after.get(path);
    const oldBytes = a ? await readFile(a) : Buffer.alloc(0);
    const newBytes = b ? await readFile(b) : Buffer.alloc(0);
    // An empty file on one side only has no lines to show either.
    if (oldBytes.equals(newBytes)) continue;
    const oldName = a ? `a/${name}/${path}` : "/dev/null";
    const newName = b ? `b/${name}/${path}` : "/dev/null";
    if (looksBinary(oldBytes) || looksBinary(newBytes)) {
      parts.push(`Binary files ${oldName} and ${newName} differ\n`);
      continue;
    }
    parts.push(unifiedDiff(oldBytes.toString("utf8"), newBytes.toString("utf8"), oldName, newName));
  }
  return parts.join("");
}

/**
 * Makes `to` hold exactly the skill files of `from`; its evals/ and excluded entries are left alone. Nothing is
 * deleted or written through a link that leaves `to`: such a link on the way to a file stops the write.
 */
export async function replaceSkillFiles(from: string, to: string): Promise<void> {
  const files = await listSkillFiles(from);
  const wanted = new Set(files.map((f) => f.path));
  const realTo = await realpath(to);
  const targets: string[] = [];
  for (const file of files) targets.push(await writableTarget(to, realTo, file.path));
  for (const file of await listSkillFiles(to)) {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, the file was just listed; only another process could remove it first
    if (!wanted.has(file.path)) await rm(file.absolutePath, { force: true });
  }
  for (const [i, file] of files.entries()) {
    const target = targets[i] as string;
    await mkdir(dirname(target), { recursive: true });
    await copyFileReplacing(file.absolutePath, target);
    if (file.executable) await chmod(target, 0o755);
  }
}

// Every existing folder on the way to a file must really lie inside the skill, or writing would land outside it.
async function writableTarget(root: string, realRoot: string, relPath: string): Promise<string> {
  const parts = relPath.split("/");
  let at = root;
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    const info = await lstat(at).catch(() => undefined);
    if (info === undefined) break;
    // Stryker disable next-line ConditionalExpression: equivalent, a plain folder inside the skill resolves inside it
    if (!info.isSymbolicLink()) continue;
    const link = await resolveLink(realRoot, at);
    if (link.status !== "inside") {
      throw new SkillgymError(
        "BAD_INPUT",
        `${at} is a link to ${link.target}, outside the skill; nothing was written`,
        {
          file: at,
          hint: "remove the link from the skill (skillgym validate lists such links), then apply again",
        },
      );
    }
  }
  return join(root, ...parts);
}
