import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillgym } from "../cli/cli-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "card/SKILL.md": skillMd(
      "card",
      "Writes card.txt. Use when the user asks for a card.",
      "Write card.txt.",
    ),
    "card/evals/evals.json": JSON.stringify({ evals: [{ id: 1, prompt: "Make a card" }] }),
    "card/evals/triggers.json": JSON.stringify([{ query: "make me a card", should_trigger: true }]),
  });
  await mkdir(join(dir, "no-bwrap"));
});
afterEach(() => cleanup());

// A PATH without bubblewrap (the CLI runs under this Node's own path, so it needs nothing from PATH).
const withoutBwrap = () => ({ ...process.env, PATH: join(dir, "no-bwrap") });

describe("a sandbox that cannot be had stops the command before any agent starts", () => {
  it.each([
    ["eval", "--runs", "1", "--no-grade"],
    ["triggers", "--runs", "1"],
  ])("%s --sandbox without bwrap exits 3 and says how to install it", (command, ...rest) => {
    const args = [command, join(dir, "card"), "--simulate", "--sandbox", ...rest];
    const result = skillgym([...args, "--workspace", join(dir, "ws")], withoutBwrap());
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain("apt-get install bubblewrap");
    expect(result.stderr).toContain("dnf install bubblewrap");
  });

  it('"sandbox": true in evals.json asks for it as the flag does', async () => {
    await writeTree(dir, {
      "card/evals/evals.json": JSON.stringify({ sandbox: true, evals: [{ id: 1, prompt: "Make a card" }] }),
    });
    const args = ["eval", join(dir, "card"), "--simulate", "--runs", "1", "--no-grade"];
    const result = skillgym([...args, "--workspace", join(dir, "ws")], withoutBwrap());
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain("bubblewrap");
  });
});
