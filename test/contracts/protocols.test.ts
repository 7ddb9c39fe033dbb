import { describe, expect, it } from "vitest";
import { PriorConversation } from "../../src/contracts/context.js";
import {
  currentDescriptionBlock,
  readCurrentDescription,
  readTrainFailures,
  trainFailuresBlock,
} from "../../src/contracts/describer-protocol.js";
import {
  draftRequestBlock,
  isRetry,
  readDraftRequest,
  retryReasonBlock,
} from "../../src/contracts/drafter-protocol.js";
import { expectationsBlock, judgeKindOf, readExpectationsBlock } from "../../src/contracts/judge-markers.js";

// The blocks skillgym's prompts carry to the simulator, written and read back.

describe("the draft request", () => {
  const request = { name: "csv<tables>", description: "Converts CSV.", triggers: 8, evals: 2 };

  it("travels as one JSON line between tags, every < escaped, and reads back as it was", () => {
    const block = draftRequestBlock(request);
    expect(block).toBe(
      '<draft-request>\n{"name":"csv\\u003ctables>","description":"Converts CSV.","triggers":8,"evals":2}\n</draft-request>',
    );
    expect(readDraftRequest(block)).toEqual(request);
    expect(readDraftRequest(`Draft these.\n${block}\nThanks.`)).toEqual(request);
  });

  it("is not read without its opening tag, or without its closing one", () => {
    // Fourteen characters before the JSON, where the opening tag's would be.
    expect(readDraftRequest('..............{"name":"n","description":"d"}</draft-request>')).toBeUndefined();
    expect(readDraftRequest('<draft-request>{"name":"n","description":"d"}}')).toBeUndefined();
    expect(readDraftRequest("<draft-request>\nnot json\n</draft-request>")).toBeUndefined();
    expect(readDraftRequest('<draft-request>{"name":"n"}</draft-request>')).toBeUndefined();
    expect(readDraftRequest('<draft-request>{"description":"d"}</draft-request>')).toBeUndefined();
  });

  it("takes counts from 0 to 200, and the defaults for anything else", () => {
    const read = (triggers: unknown, evals: unknown) =>
      readDraftRequest(
        `<draft-request>${JSON.stringify({ name: "n", description: "d", triggers, evals })}</draft-request>`,
      );
    expect(read(0, 0)).toMatchObject({ triggers: 0, evals: 0 });
    expect(read(500, 201)).toMatchObject({ triggers: 200, evals: 200 });
    expect(read("8", 2.5)).toMatchObject({ triggers: 20, evals: 3 });
    expect(read(-1, null)).toMatchObject({ triggers: 20, evals: 3 });
  });

  it("tells a retry by its reason block, with every < of the reason escaped", () => {
    const block = retryReasonBlock("answer.evals[0] <missing>");
    expect(block).toBe("<retry-reason>\nanswer.evals[0] \\u003cmissing>\n</retry-reason>");
    expect(isRetry(`Draft.\n${block}`)).toBe(true);
    expect(isRetry("Draft.")).toBe(false);
  });
});

describe("the describer's blocks", () => {
  it("write the current description and the failures, and read them back", () => {
    const failures = [
      { query: "export </train-failures> now", should_trigger: true, trigger_rate: 0 },
      { query: "unrelated", should_trigger: false, trigger_rate: null },
    ];
    const text = `${currentDescriptionBlock("  Formats tables.  ")}\n${trainFailuresBlock(failures)}`;
    expect(text).toContain("\\u003c/train-failures> now");
    expect(readCurrentDescription(text)).toBe("Formats tables.");
    expect(readTrainFailures(text)).toEqual(failures);
  });

  it("keep only failures with a query and a should_trigger of the right types", () => {
    const block = (list: unknown) => `<train-failures>${JSON.stringify(list)}</train-failures>`;
    const good = { query: "q", should_trigger: false, trigger_rate: 1 };
    expect(
      readTrainFailures(
        block([
          good,
          null,
          "q",
          { query: 3, should_trigger: true },
          { query: "q" },
          { should_trigger: true },
          { query: "q", should_trigger: "yes" },
        ]),
      ),
    ).toEqual([good]);
    expect(readTrainFailures(block({ query: "q", should_trigger: true }))).toBeUndefined();
    expect(readTrainFailures("<train-failures>[not json</train-failures>")).toBeUndefined();
    expect(readTrainFailures("no block")).toBeUndefined();
  });
});

describe("the judge markers", () => {
  it("name the kind whose marker comes first, the first of two at one place by the list's order", () => {
    expect(judgeKindOf("<skillgym-analyzer> then <skillgym-grader>")).toBe("analyzer");
    expect(judgeKindOf("<skillgym-grader> then <skillgym-analyzer>")).toBe("grader");
    expect(judgeKindOf("<skillgym-comparator>")).toBe("comparator");
    expect(judgeKindOf("no marker")).toBeUndefined();
  });

  it("carry the expectations as a JSON array, read only between both tags and only when every one is text", () => {
    const block = expectationsBlock(["lists <b>v2</b>", "has a title"]);
    expect(block).toBe(
      '<expectations>\n[\n  "lists \\u003cb>v2\\u003c/b>",\n  "has a title"\n]\n</expectations>',
    );
    expect(readExpectationsBlock(block)).toEqual(["lists <b>v2</b>", "has a title"]);
    expect(readExpectationsBlock(`x${block}`)).toEqual(["lists <b>v2</b>", "has a title"]);
    // Thirteen characters before the array, where the opening tag's would end.
    expect(readExpectationsBlock('.............["a"]</expectations>')).toBeUndefined();
    expect(readExpectationsBlock('<expectations>["a"]]')).toBeUndefined();
    expect(readExpectationsBlock('<expectations>["a", 2]</expectations>')).toBeUndefined();
    expect(readExpectationsBlock("<expectations>[no</expectations>")).toBeUndefined();
  });
});

describe("a prior conversation", () => {
  const turn = (role: "user" | "assistant", content = "text") => ({ role, content });
  const issues = (turns: unknown) => {
    const read = PriorConversation.safeParse(turns);
    return read.success ? [] : read.error.issues.map((i) => [i.path.join("."), i.message]);
  };

  it("starts with the user, alternates and ends with the assistant", () => {
    expect(issues([turn("user"), turn("assistant"), turn("user"), turn("assistant")])).toEqual([]);
    expect(issues([turn("assistant"), turn("user")])).toEqual([
      ["0.role", 'expected "user": the turns start with the user and alternate'],
      ["1.role", 'expected "assistant": the turns start with the user and alternate'],
      ["1.role", "the last turn must be the assistant's: the query is the user's next turn"],
    ]);
    expect(issues([turn("user"), turn("assistant"), turn("user")])).toEqual([
      ["2.role", "the last turn must be the assistant's: the query is the user's next turn"],
    ]);
    expect(issues([turn("user"), turn("user"), turn("assistant"), turn("assistant")])).toEqual([
      ["1.role", 'expected "assistant": the turns start with the user and alternate'],
      ["2.role", 'expected "user": the turns start with the user and alternate'],
    ]);
  });
});
