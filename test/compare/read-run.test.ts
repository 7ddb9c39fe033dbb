import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readRun } from "../../src/compare/read-run.js";
import { SkillgymError } from "../../src/errors.js";
import {
  buildWorkspace,
  EXPECTATIONS,
  makeTempDir,
  removeDir,
  TASK,
  TOKENS,
  type Workspace,
  writeTree,
} from "./fixtures.js";

let root: string;
let ws: Workspace;

beforeEach(async () => {
  root = await makeTempDir();
  ws = await buildWorkspace(root);
});
afterEach(async () => {
  await removeDir(root);
});

describe("readRun", () => {
  it("reads the outputs, transcript, metadata and skill of a run folder", async () => {
    const run = await readRun(ws.withSkill);
    expect(run.runDir).toBe(path.resolve(ws.withSkill));
    expect(run.configuration).toBe("with_skill");
    expect(run.evalDir).toBe(ws.evalDir);
    expect(run.outputs.map((f) => f.path)).toEqual(["chart.png", "notes/extra.txt", "report.md"]);
    const report = run.outputs.find((f) => f.path === "report.md");
    expect(report?.content).toContain(TOKENS.with_skill);
    expect(report?.binary).toBe(false);
    const chart = run.outputs.find((f) => f.path === "chart.png");
    expect(chart).toMatchObject({ binary: true, content: undefined, bytes: 9 });
    expect(run.transcriptTail).toContain("## Result");
    expect(run.finalMessage).toContain(`Token ${TOKENS.with_skill}.`);
    expect(run.finalMessage).not.toContain("Finished (success)");
    expect(run.metadata?.assertions).toEqual(EXPECTATIONS);
    expect(run.prompt).toBe(TASK);
    expect(run.skillPath).toBe(ws.skillDir);
    expect((await readRun(ws.withoutSkill)).skillPath).toBeNull();
  });

  it("clips long files and long transcripts", async () => {
    await writeTree(ws.withSkill, {
      "outputs/big.md": "x".repeat(50_000),
      "transcript.md": `start${"y".repeat(30_000)}`,
    });
    const run = await readRun(ws.withSkill, { maxFileChars: 1000, maxTranscriptChars: 500 });
    const big = run.outputs.find((f) => f.path === "big.md");
    expect(big?.content?.length).toBe(1000);
    expect(big?.clipped).toBe(true);
    expect(run.transcriptTail).not.toContain("start");
    expect(run.transcriptTail).toMatch(/^… \(29505 earlier characters not shown\)/);
  });

  it("takes the prompt from the transcript when eval_metadata.json is missing", async () => {
    await removeDir(path.join(ws.evalDir, "eval_metadata.json"));
    const run = await readRun(ws.withSkill);
    expect(run.metadata).toBeUndefined();
    expect(run.prompt).toBe(TASK);
  });

  it("rejects a folder that is not a run, naming it", async () => {
    const error = await readRun(ws.evalDir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillgymError);
    expect((error as SkillgymError).code).toBe("BAD_INPUT");
    expect((error as SkillgymError).message).toContain(ws.evalDir);
    expect((error as SkillgymError).message).toContain("not a run folder");
    const missing = path.join(root, "nope");
    await expect(readRun(missing)).rejects.toThrow(`${missing}: no such folder`);
  });

  it("names the file and the place of a broken eval_metadata.json", async () => {
    const file = path.join(ws.evalDir, "eval_metadata.json");
    await writeFile(file, JSON.stringify({ eval_id: 1, eval_name: "q", assertions: [] }));
    const error = (await readRun(ws.withSkill).catch((e: unknown) => e)) as SkillgymError;
    expect(error.code).toBe("BAD_INPUT");
    expect(error.message).toContain(`${file}: prompt`);
  });
});
