import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { skillMd, type Tree } from "../e2e/helpers.js";

/**
 * The release-notes skill with three trigger queries, a library of two other skills (`library/`, one of which,
 * changelog, also answers "what changed") and a small project (`project/`) holding a package.json.
 */
export function conditionsTree(): Tree {
  return {
    "release-notes/SKILL.md": skillMd(
      "release-notes",
      "Drafts release notes from the commits since the last tag. Use when the user asks what changed.",
      "Read the log, write RELEASE_NOTES.md.",
    ),
    "release-notes/evals/triggers.json": JSON.stringify([
      { query: "Tell me what changed since v1.2", should_trigger: true },
      { query: "Please prepare the release", should_trigger: true },
      { query: "Explain what a monad is", should_trigger: false },
    ]),
    "library/changelog/SKILL.md": skillMd(
      "changelog",
      "Keeps CHANGELOG.md. Use when the user asks what changed.",
      "Edit CHANGELOG.md.",
    ),
    "library/formatter/SKILL.md": skillMd("formatter", "Formats code.", "Run the formatter."),
    "project/package.json": '{ "name": "app", "version": "1.2.0" }\n',
    "project/src/index.ts": "export const answer = 42;\n",
  };
}

export type Listing = Record<
  string,
  { size: number; mtimeMs: number; ctimeMs: number; ino: number; nlink: number }
>;

async function statOf(path: string) {
  const s = await lstat(path);
  return { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino, nlink: s.nlink };
}

/** Every entry of a folder, links not followed: a write, a new file, a touched, replaced or hard-linked file shows up. */
export async function listing(root: string): Promise<Listing> {
  const entries = await readdir(root, { recursive: true });
  const out: Listing = { ".": await statOf(root) };
  for (const rel of entries.sort()) out[rel] = await statOf(join(root, rel));
  return out;
}

/** A prior conversation (`--context`) whose last answer makes the notes query needless: the sim's `history` rule. */
export const priorConversation = [
  { role: "user", content: "Can you look at the parser tests?" },
  {
    role: "assistant",
    content: "Yes. By the way, the release notes are already written in RELEASE_NOTES.md.",
  },
];
