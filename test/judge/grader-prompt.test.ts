import { describe, expect, it } from "vitest";
import { judgeKindOf, readExpectationsBlock } from "../../src/contracts/judge-markers.js";
import { buildGraderPrompt, type GraderInput } from "../../src/judge/grader.js";

const input: GraderInput = {
  prompt: "Summarize sales.csv into report.md with a total per region.",
  expectedOutput: "A markdown table with one row per region.",
  expectations: [
    "report.md has a row for every region",
    "The total for North is 1,200",
    'Quotes "and" <expectations></expectations> tags survive',
  ],
  outputs: [
    { path: "report.md", content: "| region | total |\n| North | 1,200 |" },
    { path: "chart.png", binary: true, bytes: 2048 },
  ],
  transcript: "## Step 1\nRead sales.csv\n## Final answer\nI think the South total may be stale.",
  metrics: { total_tool_calls: 4, errors_encountered: 0 },
};

describe("buildGraderPrompt", () => {
  it("marks the prompt for the simulator and lists the expectations in order, readable back", () => {
    const { system, prompt } = buildGraderPrompt(input);
    expect(prompt.startsWith("<skillgym-grader>")).toBe(true);
    expect(judgeKindOf(prompt)).toBe("grader");
    expect(readExpectationsBlock(prompt)).toEqual(input.expectations);
    expect(system).toContain("grader");
    expect(system).not.toContain("<skillgym-grader>");
  });

  it("holds the task, the expected output, the files, the metrics and the transcript", () => {
    const { prompt } = buildGraderPrompt(input);
    expect(prompt).toContain(input.prompt);
    expect(prompt).toContain("A markdown table with one row per region.");
    const report = input.outputs[0]!.content!;
    expect(prompt).toContain(`<file path="report.md" characters="${report.length}">\n${report}\n</file>`);
    expect(prompt).toContain("Binary files, not shown: chart.png (2048 bytes)");
    expect(prompt).toContain('"total_tool_calls":4');
    expect(prompt).toContain("I think the South total may be stale.");
  });

  it("states the seed grader's method: evidence, burden of proof on PASS, claims, notes, weak assertions, one JSON", () => {
    const { prompt } = buildGraderPrompt(input);
    expect(prompt).toMatch(/burden of proof is on PASS/);
    expect(prompt).toMatch(/no evidence, the expectation FAILS/);
    expect(prompt).toMatch(/superficial/);
    expect(prompt).toMatch(/Quote the evidence/);
    expect(prompt).toMatch(/factual claims.*process claims.*quality claims/s);
    expect(prompt).toMatch(/uncertainties.*needs_review.*workarounds/s);
    expect(prompt).toMatch(/weak assertions \(ones a clearly wrong output would also pass/);
    expect(prompt).toMatch(/only prove the skill ran without crashing/);
    expect(prompt).toMatch(/ONE JSON object only/);
    expect(prompt).toMatch(
      /exactly one entry per expectation listed above, in the same order, with the same text/,
    );
  });

  it("clips each output file to 20k characters and the transcript to 30k, keeping its end", () => {
    const big = `${"a".repeat(25_000)}TAIL-OF-FILE`;
    const transcript = `START-OF-TRANSCRIPT${"b".repeat(40_000)}END-OF-TRANSCRIPT`;
    const { prompt } = buildGraderPrompt({
      ...input,
      outputs: [{ path: "big.txt", content: big }],
      transcript,
    });
    expect(prompt).toContain(`<file path="big.txt" characters="${big.length}">`);
    expect(prompt).toContain("a".repeat(20_000));
    expect(prompt).not.toContain("a".repeat(20_001));
    expect(prompt).not.toContain("TAIL-OF-FILE");
    expect(prompt).toContain(`[… ${big.length - 20_000} more characters clipped by skillgym …]`);
    expect(prompt).toContain("END-OF-TRANSCRIPT");
    expect(prompt).not.toContain("START-OF-TRANSCRIPT");
    expect(prompt).toContain("## The transcript (its end)");
    expect(prompt.length).toBeLessThan(60_000);
  });

  it("stops inlining files when the total budget runs out and names the ones left out", () => {
    const outputs = ["one", "two", "three"].map((name) => ({
      path: `${name}.txt`,
      content: name.repeat(10_000),
    }));
    const { prompt } = buildGraderPrompt(
      { ...input, outputs },
      { perFileChars: 30_000, totalOutputChars: 50_000 },
    );
    expect(prompt).toContain('<file path="one.txt"');
    expect(prompt).toContain('<file path="two.txt"');
    expect(prompt).not.toContain('<file path="three.txt"');
    expect(prompt).toContain("Not shown (the prompt's budget ran out): three.txt (50000 characters)");
  });

  it("points a judge that reads files itself at outputs/ and the transcript", () => {
    const { prompt } = buildGraderPrompt(input, {
      filesOnDisk: { outputsDir: "outputs", transcriptFile: "transcript.md" },
    });
    expect(prompt).toContain("`outputs/`");
    expect(prompt).toContain("`transcript.md`");
    expect(prompt).toMatch(/Read them with Read, Glob and Grep/);
  });

  it("says so when the run has no text output", () => {
    const { prompt } = buildGraderPrompt({ ...input, outputs: [], metrics: undefined });
    expect(prompt).toContain("(no text files)");
    expect(prompt).toContain("(none recorded)");
  });
});
