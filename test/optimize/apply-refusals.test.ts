import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JudgeError } from "../../src/judge/judge.js";
import { proposeDescription } from "../../src/optimize/improve.js";
import { applyDescription, withDescription } from "../../src/optimize/index.js";
import { scriptedImprover } from "./word-agent.js";

// SKILL.md files --apply cannot write into, and an improver that fails or breaks in other ways than a model error.
describe("withDescription refuses", () => {
  it.each([
    ["no frontmatter", "# Just a body\n"],
    ["a frontmatter that never closes", "---\nname: rn\ndescription: Old.\n"],
    ["a fence that is not the first line", "\n---\nname: rn\ndescription: Old.\n---\n"],
  ])("a SKILL.md with %s", (_what, text) => {
    expect(() => withDescription(text, "New.", "skills/rn/SKILL.md")).toThrow(
      expect.objectContaining({
        code: "INVALID_SKILL",
        message: "skills/rn/SKILL.md: no frontmatter to write the description into",
      }),
    );
  });

  it.each([
    ["no description", "---\nname: rn\n---\nBody\n"],
    ["a description that is not text", "---\nname: rn\ndescription:\n  - a\n  - b\n---\nBody\n"],
    ["a frontmatter that is a list", "---\n- a\n- b\n---\nBody\n"],
  ])("a frontmatter with %s", (_what, text) => {
    expect(() => withDescription(text, "New.", "skills/rn/SKILL.md")).toThrow(
      expect.objectContaining({
        code: "INVALID_SKILL",
        message: "skills/rn/SKILL.md: the frontmatter has no description to replace",
      }),
    );
  });

  it("keeps a closing fence with trailing spaces", () => {
    expect(withDescription("---\nname: rn\ndescription: Old.\n---  \nBody\n", "New.", "f")).toBe(
      "---\nname: rn\ndescription: New.\n---  \nBody\n",
    );
  });
});

describe("proposeDescription", () => {
  const input = {
    skillName: "rn",
    currentDescription: "Old.",
    skillBody: "Body.",
    threshold: 0.5,
    trainFailures: [],
    attempts: [],
  };

  it("records a judge failure that cost nothing as free", async () => {
    const improver = scriptedImprover([new JudgeError("refused", false)], { costUsd: 1 });
    const proposal = await proposeDescription(improver.judge, input);
    expect(proposal).toMatchObject({ error: "the improver failed: refused", costUsd: 0, asks: 0 });
  });

  it("throws on an error that is not the judge's", async () => {
    const broken = new TypeError("bad state");
    await expect(proposeDescription(scriptedImprover([broken]).judge, input)).rejects.toBe(broken);
  });

  it("hands the improver the signal that cancels the optimization", async () => {
    const improver = scriptedImprover(["New."]);
    const controller = new AbortController();
    await proposeDescription(improver.judge, input, { signal: controller.signal });
    expect(improver.requests[0]!.signal).toBe(controller.signal);
  });

  it("asks for 2048 tokens unless told otherwise", async () => {
    const improver = scriptedImprover(["New."]);
    await proposeDescription(improver.judge, input);
    await proposeDescription(improver.judge, input, { maxTokens: 100 });
    expect(improver.requests.map((r) => r.maxTokens)).toEqual([2048, 100]);
  });
});

describe("withDescription reads", () => {
  it("a SKILL.md with old Mac line endings (CR alone), writing it back with LF", () => {
    expect(withDescription("---\rname: rn\rdescription: Old.\r---\rBody\r", "New.", "f")).toBe(
      "---\nname: rn\ndescription: New.\n---\nBody\n",
    );
  });

  it("a quoted description that ends in a newline, which the new one does not take", () => {
    expect(withDescription('---\nname: rn\ndescription: "Old.\\n"\n---\n', "New.", "f")).toBe(
      '---\nname: rn\ndescription: "New."\n---\n',
    );
  });
});

describe("applyDescription refuses", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillgym-apply-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it.each([
    ["has lost its frontmatter", "# Just a body\n"],
    ["has an empty frontmatter", "---\n---\nBody\n"],
    ["has a description that is not text", "---\nname: rn\ndescription: 42\n---\nBody\n"],
  ])("a SKILL.md that %s since the loop began, saying what to do instead", async (_what, text) => {
    const file = join(dir, "SKILL.md");
    await writeFile(file, text);
    await expect(applyDescription(file, "New.", "Old.")).rejects.toThrow(
      expect.objectContaining({
        code: "BAD_INPUT",
        message: `${file}: its description changed while the optimizer ran; the best description was not written`,
        hint: "copy best_description from results.json by hand, or run optimize again",
      }),
    );
    expect(await readFile(file, "utf8")).toBe(text);
  });
});
