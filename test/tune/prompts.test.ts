import { describe, expect, it } from "vitest";
import { buildEvaluatorPrompt, evaluatorPromptLimits } from "../../src/tune/evaluator-prompt.js";
import { buildImprovePrompt, type ImprovePromptInput } from "../../src/tune/improve-prompt.js";

describe("the evaluator's prompt", () => {
  it("for a middle step of a chain: its neighbours, the scenario, each eval with its failures and outputs", () => {
    const { system, prompt } = buildEvaluatorPrompt({
      skillName: "drafter",
      skillFiles: [
        { path: "SKILL.md", content: "---\nname: drafter\n---\nDraft." },
        { path: "references/tips.md", content: "Tip." },
      ],
      passRate: 0.666,
      evals: [
        {
          name: "eval-1",
          prompt: "Draft the talk",
          passRate: 0.5,
          failed: [
            { text: "draft.md exists", evidence: "no draft.md" },
            { text: "names owls", evidence: "e".repeat(405) },
          ],
          outputs: [{ path: "draft.md", content: "A draft" }],
        },
        { name: "eval-2", prompt: "Draft again", passRate: undefined, failed: [], outputs: [] },
      ],
      scenario: "Talks about owls",
      previousScores: [40, 52.5],
      chain: { position: 2, total: 3, upstream: "outliner", downstream: "editor" },
    });
    expect(system.startsWith("You are the evaluator of skillgym's tune loop")).toBe(true);
    expect(system).toContain(
      '{"dimensions": {"clarity": 0-100, "completeness": 0-100, "correctness": 0-100, "effectiveness": 0-100, "efficiency": 0-100},',
    );
    expect(prompt).toBe(
      [
        "<skillgym-evaluator>",
        "Skill under evaluation: drafter",
        'It is step 2 of 3 of a skill chain: it reads what "outliner" produced; "editor" reads what it produces.',
        "Intended use (test scenario): Talks about owls",
        "Expectation pass rate over the runs: 67%",
        "Composite scores of earlier versions (0–100, oldest first): 40, 52.5",
        "",
        "<skill-files>",
        '<file path="SKILL.md">\n---\nname: drafter\n---\nDraft.\n</file>',
        '<file path="references/tips.md">\nTip.\n</file>',
        "</skill-files>",
        "",
        "<runs>",
        '<eval name="eval-1" pass_rate="50%">',
        "Task given to the agent:\nDraft the talk",
        "Failed expectations:",
        "- draft.md exists\n  evidence: no draft.md",
        `- names owls\n  evidence: ${"e".repeat(400)}\n[… 5 more characters clipped by skillgym …]`,
        'Outputs of the run:\n<file path="draft.md">\nA draft\n</file>',
        "</eval>",
        '<eval name="eval-2" pass_rate="not graded">',
        "Task given to the agent:\nDraft again",
        "Failed expectations: none",
        "Outputs of the run:\n(none)",
        "</eval>",
        "</runs>",
        "",
        "Answer with the JSON object described in your instructions.",
      ].join("\n"),
    );
  });

  it("names only the neighbour a first or last step has, and none for a lone step", () => {
    const base = { skillName: "s", skillFiles: [], passRate: 1, evals: [], previousScores: [] };
    const first = buildEvaluatorPrompt({ ...base, chain: { position: 1, total: 2, downstream: "b" } }).prompt;
    expect(first).toContain('\nIt is step 1 of 2 of a skill chain: "b" reads what it produces.\n');
    const last = buildEvaluatorPrompt({ ...base, chain: { position: 2, total: 2, upstream: "a" } }).prompt;
    expect(last).toContain('\nIt is step 2 of 2 of a skill chain: it reads what "a" produced.\n');
    const alone = buildEvaluatorPrompt({ ...base, chain: { position: 1, total: 1 } }).prompt;
    expect(alone).toContain("\nIt is step 1 of 1 of a skill chain.\n");
    const single = buildEvaluatorPrompt(base).prompt;
    expect(single).toBe(
      [
        "<skillgym-evaluator>",
        "Skill under evaluation: s",
        "Expectation pass rate over the runs: 100%",
        "This is the first version measured.",
        "",
        "<skill-files>",
        "(none)",
        "</skill-files>",
        "",
        "<runs>",
        "</runs>",
        "",
        "Answer with the JSON object described in your instructions.",
      ].join("\n"),
    );
  });

  it("shares the skill's budget among its files and names the files left out", () => {
    expect(evaluatorPromptLimits).toEqual({ skillChars: 12_000, outputChars: 10_000, perFileChars: 4_000 });
    const { prompt } = buildEvaluatorPrompt({
      skillName: "s",
      skillFiles: [
        { path: "a.md", content: "a".repeat(7_000) },
        { path: "b.md", content: "b".repeat(6_000) },
        { path: "c.md", content: "c" },
        { path: "d.md", content: "d" },
      ],
      passRate: 1,
      evals: [],
      previousScores: [],
    });
    expect(prompt).toContain(`<file path="a.md">\n${"a".repeat(7_000)}\n</file>`);
    expect(prompt).toContain(
      `<file path="b.md">\n${"b".repeat(5_000)}\n[… 1000 more characters clipped by skillgym …]\n</file>\nNot shown (the prompt's budget ran out): c.md, d.md\n</skill-files>`,
    );
  });

  it("gives each eval an equal share of the outputs' budget, at most 4,000 characters a file", () => {
    const evalWith = (name: string, sizes: number[]) => ({
      name,
      prompt: "p",
      passRate: 1,
      failed: [],
      outputs: sizes.map((n, i) => ({ path: `${name}-${i}.txt`, content: "o".repeat(n) })),
    });
    const { prompt } = buildEvaluatorPrompt({
      skillName: "s",
      skillFiles: [],
      passRate: 1,
      // 10,000 / 3 evals = 3,333 characters each.
      evals: [evalWith("e1", [3_333, 1]), evalWith("e2", [3_334]), evalWith("e3", [1])],
      previousScores: [],
    });
    expect(prompt).toContain(
      `<file path="e1-0.txt">\n${"o".repeat(3_333)}\n</file>\nNot shown (the prompt's budget ran out): e1-1.txt\n</eval>`,
    );
    expect(prompt).toContain(
      `<file path="e2-0.txt">\n${"o".repeat(3_333)}\n[… 1 more characters clipped by skillgym …]\n</file>\n</eval>`,
    );
    const one = buildEvaluatorPrompt({
      skillName: "s",
      skillFiles: [],
      passRate: 1,
      evals: [evalWith("e1", [4_001, 10])],
      previousScores: [],
    }).prompt;
    expect(one).toContain(
      `<file path="e1-0.txt">\n${"o".repeat(4_000)}\n[… 1 more characters clipped by skillgym …]\n</file>\n<file path="e1-1.txt">\n${"o".repeat(10)}\n</file>`,
    );
  });
});

const improveInput: ImprovePromptInput = {
  skillName: "greeter",
  round: 3,
  version: "v1",
  score: 62.5,
  passRate: 0.456,
  dimensions: { clarity: 70, completeness: 71, correctness: 72, effectiveness: 73, efficiency: 74 },
  suggestions: ["[high] Add an example"],
  strengths: ["Short"],
  weaknesses: ["No example"],
  failed: [{ text: "card.txt names Ada", evidence: "x".repeat(301) }],
  rejected: [],
  changesFile: "iteration-3-changes.md",
};

describe("the improver's prompt", () => {
  it("gives the evaluation, the failures and the rules", () => {
    expect(buildImprovePrompt(improveInput)).toBe(
      [
        "skillgym tune iteration 3: improve the Agent Skill in ./greeter/ (version v1).",
        "",
        "It was run on its eval suite by a coding agent and evaluated: composite score 62.5/100, expectation pass rate 46%,",
        "rubric clarity 70, completeness 71, correctness 72, effectiveness 73, efficiency 74.",
        "",
        "Suggestions, most important first:",
        "- [high] Add an example",
        "",
        "Weaknesses:",
        "- No example",
        "",
        "Expectations the runs failed:",
        `- card.txt names Ada (evidence: ${"x".repeat(300)} […])`,
        "",
        "Strengths to keep:",
        "- Short",
        "",
        "Rules:",
        "- Edit only files inside ./greeter/. Keep `name: greeter` in the SKILL.md frontmatter; the description stays under 1024 characters, without < or >.",
        "- Make focused edits that address the suggestions; keep what already works.",
        "- When done, write ./iteration-3-changes.md: a short markdown list of what you changed and why.",
      ].join("\n"),
    );
  });

  it("says what to do when nothing was named, lists the edits that lost, and a chain step's interface", () => {
    const prompt = buildImprovePrompt({
      ...improveInput,
      suggestions: [],
      strengths: [],
      weaknesses: [],
      failed: [{ text: "short", evidence: "y".repeat(300) }],
      rejected: [
        { version: "v2", score: 50, changes: "- Added\n  tips\n\n- Removed intro" },
        { version: "v3", score: 55, changes: "z".repeat(501) },
      ],
      chain: { upstream: "outliner", downstream: "editor", reads: ["outline.md", "notes.md"], writes: [] },
    });
    expect(prompt).toBe(
      [
        "skillgym tune iteration 3: improve the Agent Skill in ./greeter/ (version v1).",
        "",
        "It was run on its eval suite by a coding agent and evaluated: composite score 62.5/100, expectation pass rate 46%,",
        "rubric clarity 70, completeness 71, correctness 72, effectiveness 73, efficiency 74.",
        "",
        "Suggestions, most important first:",
        "- (none given: address the weaknesses and failed expectations)",
        "",
        "Weaknesses:",
        "- (none named)",
        "",
        "Expectations the runs failed:",
        `- short (evidence: ${"y".repeat(300)})`,
        "",
        "Strengths to keep:",
        "- (none named)",
        "",
        "Edits already tried from this version that scored lower or no better; try something different:",
        "- v2 (score 50): - Added tips - Removed intro",
        `- v3 (score 55): ${"z".repeat(500)} […]`,
        "",
        "This skill is one step of a chain; keep its interface with its neighbours unchanged:",
        '- it reads what "outliner" produces: outline.md, notes.md',
        '- "editor" reads what it writes: (its outputs)',
        "",
        "Rules:",
        "- Edit only files inside ./greeter/. Keep `name: greeter` in the SKILL.md frontmatter; the description stays under 1024 characters, without < or >.",
        "- Make focused edits that address the suggestions; keep what already works.",
        "- When done, write ./iteration-3-changes.md: a short markdown list of what you changed and why.",
      ].join("\n"),
    );
  });

  it("names only the neighbours a chain step has, and says (none) without failures", () => {
    const first = buildImprovePrompt({
      ...improveInput,
      failed: [],
      chain: { downstream: "drafter", reads: [], writes: ["outline.md"] },
    });
    expect(first).toContain("Expectations the runs failed:\n- (none)\n");
    expect(first).toContain(
      'keep its interface with its neighbours unchanged:\n- "drafter" reads what it writes: outline.md\n\nRules:',
    );
    const last = buildImprovePrompt({
      ...improveInput,
      chain: { upstream: "outliner", reads: [], writes: [] },
    });
    expect(last).toContain(
      'keep its interface with its neighbours unchanged:\n- it reads what "outliner" produces: (its outputs)\n\nRules:',
    );
    expect(last).not.toContain("Edits already tried");
  });

  it("lists several items one a line, with one blank line between sections", () => {
    const prompt = buildImprovePrompt({
      ...improveInput,
      suggestions: ["[high] Add an example", "[low] Trim the intro"],
      weaknesses: ["No example", "Long intro"],
      strengths: ["Short", "Friendly"],
    });
    expect(prompt).toContain(
      "Suggestions, most important first:\n- [high] Add an example\n- [low] Trim the intro\n\nWeaknesses:\n- No example\n- Long intro\n\n",
    );
    expect(prompt).toContain("Strengths to keep:\n- Short\n- Friendly\n\nRules:");
    expect(prompt).not.toContain("\n\n\n");
  });
});
