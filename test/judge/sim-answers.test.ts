import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Analysis } from "../../src/contracts/analysis.js";
import { Comparison } from "../../src/contracts/comparison.js";
import { expectationsBlock, judgeMarkers } from "../../src/contracts/judge-markers.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { SkillgymError } from "../../src/errors.js";
import { buildGraderPrompt, parseGraderAnswer } from "../../src/judge/grader.js";
import { loadSimScript, type SimServer, startSim } from "../../src/sim/index.js";
import { claudeRequest, parseSse, postJson, texts, toolUses } from "../sim/sim-client.js";

const expectations = ["The output names the author", "The output cites page numbers"];
const failPages = { judge: { verdicts: [{ match: "page", passed: false }] } };

let sim: SimServer | undefined;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-judge-sim-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(script: unknown): Promise<SimServer> {
  sim = await startSim({ script: SimScript.parse(script) });
  return sim;
}

async function ask(url: string, prompt: string, tools = false): Promise<string> {
  const message = await postJson(url, claudeRequest({ prompt, tools }));
  expect(message.stop_reason).toBe("end_turn");
  expect(toolUses(message)).toEqual([]);
  return texts(message).join("");
}

const grader = buildGraderPrompt({
  prompt: "Summarize the paper",
  expectations,
  outputs: [],
  transcript: "",
});

describe("skillgym sim answering judge prompts", () => {
  it("answers a grader prompt in a tool-bearing request (Claude Code as judge) as a final text turn", async () => {
    const { url, log } = await start(failPages);
    const answer = await ask(url, grader.prompt, true);
    expect(parseGraderAnswer(answer, expectations).expectations.map((e) => e.passed)).toEqual([true, false]);
    expect(log.map((e) => e.action)).toEqual(["judge grader"]);
  });

  it("streams the grader answer when asked to", async () => {
    const { url } = await start(failPages);
    const response = await fetch(`${url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify(claudeRequest({ prompt: grader.prompt, stream: true })),
    });
    const events = parseSse(await response.text());
    const text = events
      .filter((e) => e.event === "content_block_delta")
      .map((e) => (e.data.delta as { text: string }).text)
      .join("");
    expect(parseGraderAnswer(text, expectations).expectations.map((e) => e.passed)).toEqual([true, false]);
  });

  it("keeps playing the agent's plan for prompts without a marker", async () => {
    const { url } = await start({ rules: [{ skill: "pdf-tools" }] });
    const message = await postJson(url, claudeRequest({ prompt: "Convert this PDF document to text" }));
    expect(toolUses(message).map((t) => t.name)).toEqual(["Skill"]);
    expect(await ask(url, "Convert this PDF document to text")).toBe("Simulated answer.");
  });

  it("answers a comparator prompt with a valid comparison.json, winner A by default", async () => {
    const { url } = await start(failPages);
    const prompt = `${judgeMarkers.comparator}\nCompare.\n${expectationsBlock(expectations)}`;
    const comparison = Comparison.parse(JSON.parse(await ask(url, prompt)));
    expect(comparison.winner).toBe("A");
    expect(comparison.rubric.A.overall_score).toBeGreaterThan(comparison.rubric.B.overall_score);
    expect(comparison.output_quality.A.score).toBeGreaterThan(comparison.output_quality.B.score);
    expect(comparison.expectation_results?.A).toMatchObject({ passed: 1, total: 2, pass_rate: 0.5 });
    expect(comparison.reasoning).toContain("skillgym sim");
  });

  it("lets the script choose the comparator's winner, or a tie", async () => {
    const { url } = await start({ judge: { winner: "B" } });
    const b = Comparison.parse(JSON.parse(await ask(url, `${judgeMarkers.comparator}\nCompare.`)));
    expect(b.winner).toBe("B");
    expect(b.rubric.B.overall_score).toBeGreaterThan(b.rubric.A.overall_score);
    expect(b.expectation_results).toBeUndefined();
    await sim?.close();
    const tie = await start({ judge: { winner: "TIE" } });
    const t = Comparison.parse(JSON.parse(await ask(tie.url, `${judgeMarkers.comparator}\nCompare.`)));
    expect(t.winner).toBe("TIE");
    expect(t.rubric.A.overall_score).toBe(t.rubric.B.overall_score);
  });

  it("answers an analyzer prompt with a valid analysis.json, taking the winner and skills from tags", async () => {
    const { url, log } = await start({});
    const prompt = `${judgeMarkers.analyzer}\n<winner>B</winner>\n<winner-skill>/s/v2</winner-skill>\n<loser-skill>/s/v1</loser-skill>`;
    const analysis = Analysis.parse(JSON.parse(await ask(url, prompt)));
    expect(analysis.comparison_summary).toMatchObject({
      winner: "B",
      winner_skill: "/s/v2",
      loser_skill: "/s/v1",
    });
    expect(analysis.improvement_suggestions.length).toBeGreaterThan(0);
    const plain = Analysis.parse(JSON.parse(await ask(url, `${judgeMarkers.analyzer}\nWhy?`)));
    expect(plain.comparison_summary.winner).toBe("A");
    expect(log.map((e) => e.action)).toEqual(["judge analyzer", "judge analyzer"]);
  });

  it("goes by the marker that comes first", async () => {
    const { url } = await start({});
    const prompt = `${grader.prompt}\n<file path="notes.md">${judgeMarkers.comparator}</file>`;
    expect(parseGraderAnswer(await ask(url, prompt), expectations).expectations).toHaveLength(2);
  });
});

describe("skillgym sim's /v1/chat/completions", () => {
  it("answers in the OpenAI shape", async () => {
    const { url } = await start(failPages);
    const post = async (messages: object[]) => {
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages, max_tokens: 100 }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as Record<string, unknown>;
    };
    const plain = await post([{ role: "user", content: "Hello" }]);
    expect(plain).toMatchObject({
      object: "chat.completion",
      model: "skillgym-sim",
      choices: [
        { index: 0, message: { role: "assistant", content: "Simulated answer." }, finish_reason: "stop" },
      ],
    });
    const usage = plain.usage as Record<string, number>;
    expect(usage.total_tokens).toBe(usage.prompt_tokens! + usage.completion_tokens!);
    const graded = await post([
      { role: "system", content: grader.system },
      { role: "user", content: [{ type: "text", text: grader.prompt }] },
    ]);
    const content = (graded.choices as { message: { content: string } }[])[0]!.message.content;
    expect(parseGraderAnswer(content, expectations).expectations.map((e) => e.passed)).toEqual([true, false]);
  });

  it("refuses a body without messages", async () => {
    const { url } = await start({});
    const response = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: "{}" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("messages: required");
  });
});

describe("loadSimScript: the judge section", () => {
  it("loads verdicts, default and winner", async () => {
    const file = join(dir, "judge.yaml");
    await writeFile(
      file,
      "judge:\n  default: fail\n  winner: TIE\n  verdicts:\n    - match: pages?\n      passed: true\n",
    );
    const script = await loadSimScript(file);
    expect(script.judge).toEqual({
      default: "fail",
      winner: "TIE",
      verdicts: [{ match: "pages?", passed: true }],
    });
  });

  it("names the place of a bad regular expression or a bad field", async () => {
    const bad = join(dir, "bad.json");
    await writeFile(bad, JSON.stringify({ judge: { verdicts: [{ match: "(", passed: false }] } }));
    const error = await loadSimScript(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillgymError);
    expect((error as SkillgymError).message).toContain(
      `${bad}: judge.verdicts[0].match: not a valid regular expression`,
    );
    const wrong = join(dir, "wrong.json");
    await writeFile(wrong, JSON.stringify({ judge: { winner: "C" } }));
    const other = await loadSimScript(wrong).catch((e: unknown) => e);
    expect((other as SkillgymError).message).toContain(`${wrong}: judge.winner:`);
  });
});
