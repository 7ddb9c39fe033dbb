import { describe, expect, it } from "vitest";
import { judgeKindOf, readExpectationsBlock } from "../../src/contracts/judge-markers.js";
import { buildGraderPrompt, type GraderInput } from "../../src/judge/grader.js";
import { clipHead, clipTail } from "../../src/judge/grader-prompt.js";

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

const METHOD_AND_ANSWER = `## How to grade

1. Read the transcript: the task, the steps the executor took, errors, and its final answer.
2. Examine the output files that bear on the expectations. Do not rely on the transcript's account of what was produced: check the files.
3. For each expectation, search for evidence and decide:
   - PASS only when the files or the transcript clearly show the expectation is true AND the evidence reflects genuine completion of the task. Quote the evidence (a short exact excerpt, and where it is: file name or transcript step).
   - FAIL when there is no evidence, when the evidence contradicts it, when it cannot be verified from what you have, or when the match is superficial (the right file name with empty or wrong content, a heading with nothing under it, a claim in the final answer that the files do not bear out, a result reached by coincidence rather than by doing the work).
   - The burden of proof is on PASS: when in doubt, or with no evidence, the expectation FAILS. No partial credit.
4. Extract the claims the run's final answer and outputs make, and verify each against the files and the transcript:
   factual claims ("the form has 12 fields"), process claims ("used the skill's script"), quality claims ("all fields are correct").
   A claim you cannot confirm is not verified.
5. Summarize the executor's own notes: what it said it was unsure of (uncertainties), what it says needs a human's review (needs_review), and where it worked around something that did not work as expected (workarounds), from its final answer, the transcript, or a notes file such as user_notes.md among the outputs.
6. Critique the evals in eval_feedback, only where there is a clear gap: flag weak assertions (ones a clearly wrong output would also pass, such as checking that a file exists but not what it holds, or ones that only prove the skill ran without crashing), assertions that cannot be verified from the outputs, and important outcomes, good or bad, that no assertion covers. Leave eval_feedback out when nothing is worth raising.

## Your answer

Answer with ONE JSON object only: no prose before or after it, no code fence. Its shape:
{
  "expectations": [{ "text": "<the expectation, verbatim>", "passed": true, "evidence": "<quoted evidence, or why it fails>" }],
  "claims": [{ "claim": "...", "type": "factual" | "process" | "quality", "verified": false, "evidence": "..." }],
  "user_notes_summary": { "uncertainties": ["..."], "needs_review": ["..."], "workarounds": ["..."] },
  "eval_feedback": { "suggestions": [{ "assertion": "<an expectation, if the suggestion is about one>", "reason": "..." }], "overall": "..." }
}
"expectations" holds exactly one entry per expectation listed above, in the same order, with the same text. "passed" is a JSON boolean.`;

const small: GraderInput = {
  prompt: "Write hi.txt",
  expectations: ["hi.txt says hi"],
  outputs: [{ path: "hi.txt", content: "hi" }],
  transcript: "Wrote hi.txt",
  metrics: "2 tool calls",
};

// The part of the prompt between a section's heading and the next one.
function section(prompt: string, heading: string): string | undefined {
  const start = prompt.indexOf(`## ${heading}\n\n`);
  if (start < 0) return undefined;
  const body = prompt.slice(start + heading.length + 5);
  const end = body.indexOf("\n\n## ");
  return end < 0 ? body : body.slice(0, end);
}

describe("buildGraderPrompt, word for word", () => {
  it("gives the model exactly this system text and prompt for a small run", () => {
    const { system, prompt } = buildGraderPrompt(small);
    expect(system).toBe(
      [
        "You are the grader of skillgym, a harness that tests Agent Skills by running an AI agent (the executor) on a task.",
        "You have two jobs: grade one run against its expectations, and critique the expectations themselves.",
        "You judge from evidence in the run's output files and transcript, never from what the executor says it did.",
        "A passing grade on a weak assertion is worse than useless: it creates false confidence.",
        "You answer with one JSON object and nothing else.",
      ].join("\n"),
    );
    expect(prompt).toBe(`<skillgym-grader>
Grade one run of an AI agent against its expectations.

## The task the executor was given

<task>
Write hi.txt
</task>

## The expectations to grade, in this order (a JSON array)

<expectations>
[
  "hi.txt says hi"
]
</expectations>

## The run's output files

<file path="hi.txt" characters="2">
hi
</file>

## Run metrics

2 tool calls

## The transcript

<transcript>
Wrote hi.txt
</transcript>

${METHOD_AND_ANSWER}`);
  });

  it("puts the expected output, when there is one, between the task and the expectations", () => {
    const { prompt } = buildGraderPrompt({ ...small, expectedOutput: "A file saying hi." });
    expect(prompt).toContain(
      "</task>\n\n## What a good result looks like\n\n<expected_output>\nA file saying hi.\n</expected_output>\n\n## The expectations to grade",
    );
    for (const expectedOutput of [undefined, ""]) {
      const without = buildGraderPrompt({ ...small, expectedOutput }).prompt;
      expect(without).not.toContain("expected_output");
      expect(without).not.toContain("What a good result looks like");
    }
  });

  it("tells a judge that reads files itself where they are, before the excerpts", () => {
    const { prompt } = buildGraderPrompt(small, {
      filesOnDisk: { outputsDir: "run/outputs", transcriptFile: "run/transcript.md" },
    });
    expect(section(prompt, "Where the run's files are")).toBe(
      "Your working folder holds the run: `run/outputs/` (the files the executor created or changed) and `run/transcript.md` (its transcript). Read them with Read, Glob and Grep before you grade; change nothing. Excerpts follow; they may be clipped, the files are complete.",
    );
    expect(prompt.indexOf("## Where the run's files are")).toBeLessThan(
      prompt.indexOf("## The run's output files"),
    );
    expect(buildGraderPrompt(small).prompt).not.toContain("## Where the run's files are");
  });

  it("lists text files in full, then the ones the budget left out, then binary files and files without content", () => {
    const outputs = [
      { path: "a.md", content: "alpha" },
      { path: "photo.png", binary: true, bytes: 10 },
      { path: "b.md", content: "bravo!" },
      { path: "blob.bin", binary: true, content: "\u0000x" },
      { path: "huge.log" },
      { path: "c.md", content: "charlie" },
      { path: "d.md", content: "delta" },
    ];
    // 11 characters: a.md and b.md use them up exactly.
    const { prompt } = buildGraderPrompt({ ...small, outputs }, { perFileChars: 100, totalOutputChars: 11 });
    expect(section(prompt, "The run's output files")).toBe(
      [
        '<file path="a.md" characters="5">\nalpha\n</file>',
        '<file path="b.md" characters="6">\nbravo!\n</file>',
        "Not shown (the prompt's budget ran out): c.md (7 characters), d.md (5 characters)",
        "Binary files, not shown: photo.png (10 bytes), blob.bin, huge.log",
      ].join("\n\n"),
    );
  });

  it("says nothing of left-out or binary files when there are none", () => {
    const outputs = [
      { path: "a.md", content: "alpha" },
      { path: "b.md", content: "" },
    ];
    const { prompt } = buildGraderPrompt({ ...small, outputs });
    expect(section(prompt, "The run's output files")).toBe(
      '<file path="a.md" characters="5">\nalpha\n</file>\n\n<file path="b.md" characters="0">\n\n</file>',
    );
    const binaryOnly = buildGraderPrompt({ ...small, outputs: [{ path: "x.png", binary: true }] }).prompt;
    expect(section(binaryOnly, "The run's output files")).toBe(
      "(no text files)\n\nBinary files, not shown: x.png",
    );
  });

  it("takes from the budget what a file shows, so a later file gets the rest, clipped", () => {
    const outputs = ["one", "two", "six"].map((name) => ({ path: `${name}.txt`, content: `${name}-56789` }));
    const { prompt } = buildGraderPrompt({ ...small, outputs }, { perFileChars: 100, totalOutputChars: 25 });
    expect(section(prompt, "The run's output files")).toBe(
      [
        '<file path="one.txt" characters="9">\none-56789\n</file>',
        '<file path="two.txt" characters="9">\ntwo-56789\n</file>',
        '<file path="six.txt" characters="9">\nsix-567\n[… 2 more characters clipped by skillgym …]\n</file>',
      ].join("\n\n"),
    );
  });

  it("keeps a transcript of exactly the limit whole, and clips a longer one to its end", () => {
    const whole = buildGraderPrompt({ ...small, transcript: "abcdef" }, { transcriptChars: 6 }).prompt;
    expect(whole).toContain(
      "\n\n## The transcript\n\n<transcript>\nabcdef\n</transcript>\n\n## How to grade",
    );
    const clipped = buildGraderPrompt({ ...small, transcript: "abcdef" }, { transcriptChars: 5 }).prompt;
    expect(clipped).toContain(
      "\n\n## The transcript (its end)\n\n<transcript>\n[… the first 1 characters clipped by skillgym …]\nbcdef\n</transcript>\n\n## How to grade",
    );
  });
});

describe("clipHead and clipTail", () => {
  it("keep a text of at most the limit as it is", () => {
    for (const clip of [clipHead, clipTail]) {
      expect(clip("abcdef", 6)).toBe("abcdef");
      expect(clip("abcdef", 7)).toBe("abcdef");
      expect(clip("", 0)).toBe("");
    }
  });

  it("keep the start, or the end, of a longer one and say how much is gone", () => {
    expect(clipHead("abcdef", 2)).toBe("ab\n[… 4 more characters clipped by skillgym …]");
    expect(clipTail("abcdef", 2)).toBe("[… the first 4 characters clipped by skillgym …]\nef");
    expect(clipTail("abcdefghij", 3)).toBe("[… the first 7 characters clipped by skillgym …]\nhij");
  });
});
