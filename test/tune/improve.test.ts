import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ImproveInput, improveSkill } from "../../src/tune/improve.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { type FakeRun, fakeAgent } from "./fake-agent.js";
import { skillMd } from "./tune-helpers.js";

const DESCRIPTION = "Writes greeting cards.";
const V0 = skillMd("greeter", DESCRIPTION, "Write card.txt.");
const V1 = skillMd("greeter", DESCRIPTION, "BETTER: write card.txt with the name.");

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, { "best/greeter/SKILL.md": V0, "best/greeter/references/tips.md": "Be kind.\n" });
});
afterEach(() => cleanup());

function input(runs: FakeRun[], overrides: Partial<ImproveInput> = {}, simulated = false) {
  const { agent, requests } = fakeAgent(runs, simulated);
  const full: ImproveInput = {
    agent,
    skillName: "greeter",
    sourceDir: join(dir, "best", "greeter"),
    outDir: join(dir, "improved", "greeter"),
    changesFile: join(dir, "iteration-2-changes.md"),
    changesName: "iteration-2-changes.md",
    transcriptDir: join(dir, "improve"),
    prompt: "skillgym tune iteration 2: improve ./greeter/",
    timeoutMs: 30_000,
    ...overrides,
  };
  return { full, requests };
}

const exists = (path: string) =>
  readFile(path).then(
    () => true,
    () => false,
  );

describe("improveSkill", () => {
  it("keeps a valid edit and the improver's notes; the agent edits a copy in a fresh folder", async () => {
    const costs: number[] = [];
    const { full, requests } = input(
      [{ write: { "greeter/SKILL.md": V1, "iteration-2-changes.md": "- Named the guest\n" }, costUsd: 0.25 }],
      { model: "opus", onAttemptCost: (c) => costs.push(c), mayStart: () => true },
    );
    expect(await improveSkill(full)).toEqual({ status: "improved", attempts: 1, costUsd: 0.25 });
    expect(costs).toEqual([0.25]);
    expect(await readFile(join(dir, "improved", "greeter", "SKILL.md"), "utf8")).toBe(V1);
    expect(await readFile(join(dir, "improved", "greeter", "references", "tips.md"), "utf8")).toBe(
      "Be kind.\n",
    );
    expect(await readFile(full.changesFile, "utf8")).toBe("- Named the guest\n");
    // The best version is never written to.
    expect(await readFile(join(dir, "best", "greeter", "SKILL.md"), "utf8")).toBe(V0);
    const request = requests[0];
    expect(request).toMatchObject({
      prompt: full.prompt,
      timeoutMs: 30_000,
      model: "opus",
      transcriptPath: join(dir, "improve", "attempt-1.jsonl"),
    });
    expect(request).not.toHaveProperty("signal");
    expect(request?.home).toBe(join(request?.cwd as string, "..", "home"));
    // The temporary folder is gone.
    expect(await exists(join(request?.cwd as string, "greeter", "SKILL.md"))).toBe(false);
    const transcript = await readFile(join(dir, "improve", "attempt-1.md"), "utf8");
    expect(transcript.startsWith("# improve greeter, attempt 1\n")).toBe(true);
    expect(transcript).toContain(full.prompt);
    expect(transcript).toContain("run 1");
  });

  it("writes the edit as a diff when the improver left no notes; a simulated agent costs nothing", async () => {
    const costs: number[] = [];
    const { full } = input(
      [{ write: { "greeter/SKILL.md": V1 }, costUsd: 3 }],
      { onAttemptCost: (c) => costs.push(c) },
      true,
    );
    expect(await improveSkill(full)).toEqual({ status: "improved", attempts: 1, costUsd: 0 });
    expect(costs).toEqual([0]);
    expect(await readFile(full.changesFile, "utf8")).toBe(
      [
        "The improver wrote no iteration-2-changes.md; the edit, as a diff:",
        "",
        "```diff",
        "--- a/greeter/SKILL.md",
        "+++ b/greeter/SKILL.md",
        "@@ -3,4 +3,4 @@",
        ` description: ${DESCRIPTION}`,
        " ---",
        " ",
        "-Write card.txt.",
        "+BETTER: write card.txt with the name.",
        "```",
        "",
      ].join("\n"),
    );
  });

  it("tries once more after an edit that changed nothing, renamed the skill or broke it, then gives up", async () => {
    const renamed = skillMd("card-writer", DESCRIPTION, "Other.");
    const { full, requests } = input([{ write: {} }, { write: { "greeter/SKILL.md": renamed } }]);
    expect(await improveSkill(full)).toEqual({
      status: "failed",
      error: 'the edit renamed the skill to "card-writer"; its name must stay "greeter"',
      attempts: 2,
      costUsd: 0,
    });
    expect(requests.map((r) => r.transcriptPath)).toEqual([
      join(dir, "improve", "attempt-1.jsonl"),
      join(dir, "improve", "attempt-2.jsonl"),
    ]);
    expect((await readdir(join(dir, "improve"))).sort()).toEqual(["attempt-1.md", "attempt-2.md"]);
    expect(await exists(join(dir, "improved", "greeter", "SKILL.md"))).toBe(false);
    expect(await exists(full.changesFile)).toBe(false);

    const nothing = input([{ write: { "greeter/SKILL.md": "no frontmatter" } }, { write: {} }]);
    expect(await improveSkill(nothing.full)).toMatchObject({
      status: "failed",
      error: "the improver changed nothing",
      attempts: 2,
    });
    const broken = input([{ write: {} }, { write: { "greeter/SKILL.md": "no frontmatter" } }]);
    const result = await improveSkill(broken.full);
    expect(result.status === "failed" && result.error).toMatch(/^the edited skill is not valid: \S/);
  });

  it("an edit the skill rules refuse is not kept, each of its errors named", async () => {
    const refused = skillMd("greeter", `Writes <cards> ${"x".repeat(1_100)}`, "Other.");
    const { full } = input([{ write: { "greeter/SKILL.md": refused } }]);
    const result = await improveSkill(full);
    expect(result).toMatchObject({ status: "failed", attempts: 2 });
    const error = result.status === "failed" ? result.error : "";
    const parts = error.split("; error: ");
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatch(/^the edited skill is not valid: error: \S+\/greeter\/SKILL\.md: line 3: /);
    expect(parts[0]).toContain("`description` is 1115 characters; the limit is 1024");
    expect(parts[1]).toMatch(/^\S+\/greeter\/SKILL\.md: line 3: `description` must not contain `<` or `>`/);
    expect(await exists(join(dir, "improved", "greeter", "SKILL.md"))).toBe(false);
  });

  it("a simulated improver's transcript says its cost is simulated", async () => {
    const { full } = input(
      [
        {
          write: { "greeter/SKILL.md": V1 },
          events: [
            { kind: "result", isError: false, subtype: "success", text: "done", costUsd: 2, numTurns: 1 },
          ],
        },
      ],
      {},
      true,
    );
    expect(await improveSkill(full)).toMatchObject({ status: "improved", costUsd: 0 });
    expect(await readFile(join(dir, "improve", "attempt-1.md"), "utf8")).toContain(
      "Finished (success) after 1 turns, cost $0 (simulated).",
    );
  });

  it("an edit that succeeds on the second try counts both attempts' cost", async () => {
    const costs: number[] = [];
    const { full } = input(
      [
        { outcome: "timeout", message: "timed out after 30 s", costUsd: 0.5 },
        { write: { "greeter/SKILL.md": V1 }, costUsd: 0.25 },
      ],
      { onAttemptCost: (c) => costs.push(c) },
    );
    expect(await improveSkill(full)).toEqual({ status: "improved", attempts: 2, costUsd: 0.75 });
    expect(costs).toEqual([0.5, 0.25]);
  });

  it("names how a failed run ended", async () => {
    const { full } = input([{ outcome: "crash", message: "exit 1" }, { outcome: "rate_limited" }]);
    expect(await improveSkill(full)).toEqual({
      status: "failed",
      error: "the improver's run ended with rate_limited",
      attempts: 2,
      costUsd: 0,
    });
    const first = input([{ outcome: "crash", message: "exit 1" }]);
    expect(await improveSkill(first.full)).toMatchObject({
      error: "the improver's run ended with crash: exit 1",
    });
  });

  it("stops on cancellation, and before an attempt the spending limit refuses", async () => {
    const cancelled = input([{ outcome: "cancelled", write: { "greeter/SKILL.md": V1 } }]);
    expect(await improveSkill(cancelled.full)).toEqual({ status: "cancelled", attempts: 1, costUsd: 0 });
    expect(await exists(join(dir, "improved", "greeter", "SKILL.md"))).toBe(false);

    const controller = new AbortController();
    const aborted = input([{ write: { "greeter/SKILL.md": V1 }, onStart: () => controller.abort() }], {
      signal: controller.signal,
    });
    expect(await improveSkill(aborted.full)).toEqual({ status: "cancelled", attempts: 1, costUsd: 0 });
    expect(aborted.requests[0]?.signal).toBe(controller.signal);

    const refused = input([{ write: { "greeter/SKILL.md": V1 } }], { mayStart: () => false });
    expect(await improveSkill(refused.full)).toEqual({ status: "budget", attempts: 0, costUsd: 0 });
    expect(refused.requests).toEqual([]);

    let allowed = 1;
    const second = input([{ outcome: "timeout", costUsd: 1 }], { mayStart: () => allowed-- > 0 });
    expect(await improveSkill(second.full)).toEqual({ status: "budget", attempts: 1, costUsd: 1 });
  });
});
