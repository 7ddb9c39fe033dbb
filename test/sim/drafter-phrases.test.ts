import { describe, expect, it } from "vitest";
import type { SimJudge } from "../../src/contracts/sim-script.js";
import { draftPrompt, readDraftAnswer } from "../../src/create/index.js";
import { judgeAnswer } from "../../src/sim/index.js";
import { contentPhrases, isStopword } from "../../src/sim/skill-choice.js";

const internalComms =
  "A set of resources to help me write all kinds of internal communications, using the formats that my company likes to use. Claude should use this skill whenever asked to write some sort of internal communications (status reports, leadership updates, 3P updates, company newsletters, FAQs, incident reports, project updates, etc.).";

function draft(name: string, description: string) {
  const prompt = draftPrompt({ name, description, skillMd: "---\nbody", triggers: 10, evals: 2 });
  const reading = readDraftAnswer(judgeAnswer(prompt, undefined)?.text ?? "", {
    name,
    triggers: 10,
    evals: 2,
  });
  if (!reading.ok) throw new Error(reading.reason);
  return reading.draft;
}

describe("contentPhrases", () => {
  it("keeps runs of content words that punctuation and stop words do not break", () => {
    expect(contentPhrases(internalComms)).toEqual(
      expect.arrayContaining(["internal communications", "status reports", "3P updates", "FAQs"]),
    );
    expect(contentPhrases("Turns a commit log (feat, fix) into per-column statistics - type")).toEqual([
      "turns",
      "commit log",
      "feat",
      "fix",
      "per-column statistics",
      "type",
    ]);
  });

  it("keeps a phrase's last words, once whatever its case, and a capitalised word's case when more follow", () => {
    expect(contentPhrases("alpha bravo charlie delta")).toEqual(["bravo charlie delta"]);
    expect(contentPhrases("alpha bravo charlie delta", 2)).toEqual(["charlie delta"]);
    expect(contentPhrases("CSV tables, csv tables. Csv tables")).toEqual(["CSV tables"]);
    expect(contentPhrases("McDonald menus")).toEqual(["McDonald menus"]);
  });

  it("reads words between any spaces, without the dashes and quotes around them", () => {
    expect(contentPhrases("status  reports\tand\n\nweekly notes")).toEqual([
      "status reports",
      "weekly notes",
    ]);
    expect(contentPhrases("--verbose flags-- or 'quoted' words, ''nested'' quotes")).toEqual([
      "verbose flags",
      "quoted words",
      "nested quotes",
    ]);
    expect(contentPhrases("weekly- reports -daily notes - sent")).toEqual(["reports daily notes", "sent"]);
    expect(contentPhrases("e-mail drafts, ab cd tables")).toEqual(["e-mail drafts", "tables"]);
  });
});

describe("the simulator's drafts read like a person's requests", () => {
  it("asks for the description's phrases, never runs of stop words", () => {
    const { triggers, parsed } = draft("internal-comms", internalComms);
    const should = triggers.filter((t) => t.should_trigger).map((t) => t.query);
    expect(should[0]).toBe(
      "Can you help me with the internal communications? I also need the company likes.",
    );
    expect(should.some((q) => q.includes("3P updates"))).toBe(true);
    expect(parsed.evals[0]?.expectations).toEqual([
      "The output addresses the internal communications",
      "The output mentions the company likes",
    ]);
    for (const { query } of triggers) {
      expect(query).not.toMatch(/\b(whenever|user|asked)\b/i);
      // No two stop words of the description follow one another where a phrase should be.
      expect(query).not.toMatch(/the (a|to|of|this|that) /i);
    }
  });

  it("shares the skill-choice stop words", () => {
    expect(isStopword("whenever")).toBe(true);
    expect(isStopword("reports")).toBe(false);
  });
});

interface RawDraft {
  triggers: { query: string; should_trigger?: boolean }[];
  evals: { id: string; prompt: string; expected_output: string; expectations: string[]; checks: unknown[] }[];
}

// The drafter's answer as sent, before any contract reads it: a fenced JSON block, or bare JSON under bad-schema.
function drafted(text: string, judge?: SimJudge): RawDraft {
  const answer = judgeAnswer(text, judge)?.text ?? "";
  return JSON.parse(answer.replace(/^```json\n|\n```$/g, "")) as RawDraft;
}

const request = (name: string, description: string, triggers: number, evals = 0) =>
  draftPrompt({ name, description, skillMd: "---\nbody", triggers, evals });

const queries = (draft: RawDraft, shouldTrigger: boolean) =>
  draft.triggers.filter((t) => t.should_trigger === shouldTrigger).map((t) => t.query);

describe("the simulator's drafter picks its phrases", () => {
  it("joins the skill's name to a description of one phrase, and numbers the templates' second round", () => {
    const draft = drafted(request("commit-stats", "Counts commits.", 12));
    expect(queries(draft, true)).toEqual([
      "Can you help me with the commit stats? I also need the counts commits.",
      "Please take care of the counts commits for this project, and include the commit stats.",
      "I need the commit stats done today, starting with the counts commits.",
      "Next task: the counts commits. Pay attention to the commit stats.",
      "Could you sort out the commit stats for me? Start with the counts commits.",
      "Can you help me with the counts commits? I also need the commit stats. (take 2)",
    ]);
    expect(queries(draft, false)).toEqual([
      'What does "stats" mean in general? Just explain, no changes.',
      "Tell me a joke about commits.",
      "Who came up with the idea of stats, and when?",
      'Translate the word "commits" into French.',
      'How do I pronounce "stats"?',
      'What does "commits" mean in general? Just explain, no changes. (take 2)',
    ]);
  });

  it("adds single words to the objects when the phrases are fewer than two", () => {
    const draft = drafted(request("checker", "Runs unit tests, lint, format.", 12));
    expect(queries(draft, true)).toEqual([
      "Can you help me with the runs unit tests? I also need the checker.",
      "Please take care of the checker for this project, and include the lint.",
      "I need the lint done today, starting with the format.",
      "Next task: the format. Pay attention to the runs unit tests.",
      "Could you sort out the runs unit tests for me? Start with the checker.",
      "Can you help me with the checker? I also need the format. (take 2)",
    ]);
    expect(queries(draft, false)[1]).toBe("Tell me a joke about tests.");
  });

  it("keeps to the description's two phrases, without its single words or the name", () => {
    const draft = drafted(request("report-kit", "Weekly reports, monthly charts and tables.", 6));
    expect(queries(draft, true)).toEqual([
      "Can you help me with the weekly reports? I also need the monthly charts.",
      "Please take care of the monthly charts for this project, and include the weekly reports.",
      "I need the weekly reports done today, starting with the monthly charts.",
    ]);
    expect(queries(draft, false)).toEqual([
      'What does "reports" mean in general? Just explain, no changes.',
      "Tell me a joke about charts.",
      "Who came up with the idea of tables, and when?",
    ]);
  });

  it("asks about the task when neither the name nor the description has a phrase", () => {
    const draft = drafted(request("", "", 3, 1));
    expect(draft.triggers).toEqual([
      { query: "Can you help me with the task? I also need the task.", should_trigger: true },
      { query: "Please take care of the task for this project, and include the task.", should_trigger: true },
      { query: 'What does "task" mean in general? Just explain, no changes.', should_trigger: false },
    ]);
    expect(draft.evals).toEqual([
      {
        id: "draft-1",
        prompt: "Can you help me with the task? I also need the task. Save the result to output.md.",
        expected_output: "output.md covering the task and the task",
        expectations: ["The output addresses the task", "The output mentions the task"],
        checks: [{ type: "file_exists", path: "output.md" }],
      },
    ]);
  });

  it("drafts twenty triggers and three evals about the task when the prompt holds no request", () => {
    const draft = drafted("<skillgym-drafter> no request follows");
    expect(draft.triggers).toHaveLength(20);
    expect(draft.evals).toHaveLength(3);
    expect(draft.triggers[0]?.query).toBe("Can you help me with the task? I also need the task.");
  });

  it("answers with a refusal under invalid, and with triggers that lack should_trigger under bad-schema", () => {
    const text = judgeAnswer(request("commit-stats", "Counts commits.", 2), {
      default: "pass",
      drafter: "invalid",
    })?.text;
    expect(text).toMatch(/^Sorry, I cannot draft evals/);
    const bad = drafted(request("commit-stats", "Counts commits.", 2), {
      default: "pass",
      drafter: "bad-schema",
    });
    expect(bad.triggers).toEqual([
      { query: "Can you help me with the commit stats? I also need the counts commits." },
      { query: 'What does "stats" mean in general? Just explain, no changes.' },
    ]);
  });
});
