import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { finalMessageOf, readRun } from "../../src/compare/read-run.js";
import { SkillgymError } from "../../src/errors.js";
import { EXPECTATIONS, removeDir, TASK, TOKENS, useWorkspace, writeTree } from "./fixtures.js";

const ws = useWorkspace();

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
    const missing = path.join(ws.root, "nope");
    await expect(readRun(missing)).rejects.toThrow(`${missing}: no such folder`);
  });

  it("names the file and the place of a broken eval_metadata.json", async () => {
    const file = path.join(ws.evalDir, "eval_metadata.json");
    await writeFile(file, JSON.stringify({ eval_id: 1, eval_name: "q", assertions: [] }));
    const error = (await readRun(ws.withSkill).catch((e: unknown) => e)) as SkillgymError;
    expect(error.code).toBe("BAD_INPUT");
    expect(error.message).toContain(`${file}: prompt`);
  });

  const hint = "pass a run folder such as <workspace>/iteration-1/eval-1/with_skill/run-1";

  it("says what to pass for a missing path, a file, and a folder that holds no run", async () => {
    const missing = path.join(ws.root, "nope");
    const file = path.join(ws.withSkill, "transcript.md");
    const cases = [
      [missing, `${missing}: no such folder`],
      [file, `${file}: not a folder`],
      [ws.evalDir, `${ws.evalDir}: not a run folder (it has neither outputs/ nor transcript.md)`],
    ];
    for (const [dir, message] of cases) {
      const error = (await readRun(dir ?? "").catch((e: unknown) => e)) as SkillgymError;
      expect(error).toBeInstanceOf(SkillgymError);
      expect({ code: error.code, message: error.message, hint: error.hint, file: error.file }).toEqual({
        code: "BAD_INPUT",
        message,
        hint,
        file: dir,
      });
    }
  });

  it("reads a run that has only outputs, or only a transcript", async () => {
    await removeDir(path.join(ws.withSkill, "transcript.md"));
    const outputsOnly = await readRun(ws.withSkill);
    expect(outputsOnly.transcriptTail).toBe("");
    expect(outputsOnly.finalMessage).toBeUndefined();
    expect(outputsOnly.prompt).toBe(TASK);

    await removeDir(path.join(ws.withoutSkill, "outputs"));
    const transcriptOnly = await readRun(ws.withoutSkill);
    expect(transcriptOnly.outputs).toEqual([]);
    expect(transcriptOnly.finalMessage).toContain(TOKENS.without_skill);
  });

  it("shows a transcript of exactly the limit in full", async () => {
    await writeTree(ws.withSkill, { "transcript.md": "z".repeat(500) });
    expect((await readRun(ws.withSkill, { maxTranscriptChars: 500 })).transcriptTail).toBe("z".repeat(500));
    await writeTree(ws.withSkill, { "transcript.md": `ab${"z".repeat(499)}` });
    expect((await readRun(ws.withSkill, { maxTranscriptChars: 500 })).transcriptTail).toBe(
      `… (1 earlier characters not shown)\nb${"z".repeat(499)}`,
    );
  });

  it("reads a run folder that is not named run-<n> as its configuration's own folder", async () => {
    const flat = path.join(ws.evalDir, "with_skill");
    await writeTree(flat, { "outputs/report.md": "flat" });
    const run = await readRun(flat);
    expect(run.configuration).toBe("with_skill");
    expect(run.evalDir).toBe(ws.evalDir);
    expect(run.prompt).toBe(TASK);
  });

  it("takes the grading, and the baseline skill of an old_skill run, from the files beside it", async () => {
    const grading = {
      expectations: [{ text: "report.md exists", passed: true, evidence: "seen" }],
      summary: { passed: 1, failed: 0, total: 1, pass_rate: 1 },
    };
    const iteration = path.dirname(ws.evalDir);
    const old = path.join(ws.evalDir, "old_skill", "run-1");
    await writeTree(iteration, {
      "iteration.json": JSON.stringify({
        skill_name: "report-writer",
        skill_path: ws.skillDir,
        skill_hash: "abc",
        status: "complete",
        started_at: "2026-01-15T10:30:00Z",
        plan: {
          evals: [1],
          configurations: ["with_skill", "old_skill"],
          runs_per_configuration: 1,
          baseline_skill_path: "/skills/baseline",
        },
      }),
    });
    await writeTree(old, { "outputs/report.md": "old", "grading.json": JSON.stringify(grading) });
    const run = await readRun(old);
    expect(run.skillPath).toBe("/skills/baseline");
    expect(run.grading).toEqual(grading);
    expect((await readRun(ws.withSkill)).grading).toBeUndefined();

    const other = path.join(ws.evalDir, "variant", "run-1");
    await writeTree(other, { "outputs/report.md": "v" });
    expect("skillPath" in (await readRun(other))).toBe(false);
  });

  it("says the skill is not known when iteration.json is missing", async () => {
    await removeDir(path.join(path.dirname(ws.evalDir), "iteration.json"));
    expect("skillPath" in (await readRun(ws.withSkill))).toBe(false);
  });

  it("names the file of a broken grading.json and passes on its hint", async () => {
    const file = path.join(ws.withSkill, "grading.json");
    await writeFile(file, "{ not json");
    const error = (await readRun(ws.withSkill).catch((e: unknown) => e)) as SkillgymError;
    expect(error.code).toBe("BAD_INPUT");
    expect(error.file).toBe(file);
    expect(error.message.startsWith(`${file}: `)).toBe(true);
    expect(error.hint).toEqual(expect.any(String));
  });
});

describe("finalMessageOf", () => {
  const message = (...lines: string[]) => finalMessageOf(lines.join("\n"));

  it("takes the fenced text under the last ## Result heading", () => {
    expect(
      message("## Result", "```", "first", "```", "## Result", "", "````", "last", "line two", "````"),
    ).toBe("last\nline two");
    expect(message("## Result", "Done ```", "```text", "```", "msg", "```")).toBe("msg");
  });

  it("finds nothing without a heading, without a fence, or when another heading comes first", () => {
    expect(message("## Prompt", "```", "task", "```")).toBeUndefined();
    expect(message("Finished.", "```", "text", "```")).toBeUndefined();
    expect(message("intro", "## Result", "no fence here")).toBeUndefined();
    expect(message("## Result", "", "## Other", "```", "x", "```")).toBeUndefined();
    expect(message("## Result", "```", "  ", "```")).toBeUndefined();
  });

  it("finds nothing in an empty fence, not the text after it", () => {
    expect(message("## Result", "```", "```", "after")).toBeUndefined();
  });

  it("takes a fence straight under the heading, and keeps headings inside the fence", () => {
    expect(message("## Result", "```", "## Summary", "done", "```")).toBe("## Summary\ndone");
  });

  it("takes an unclosed fence to the end", () => {
    expect(message("## Result", "```", "a", "b")).toBe("a\nb");
  });
});
