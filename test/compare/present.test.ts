import { describe, expect, it } from "vitest";
import { fence, presentOutputs, presentTask } from "../../src/compare/present.js";
import type { RunSnapshot } from "../../src/compare/read-run.js";
import type { OutputFile } from "../../src/runlog/output-files.js";

function textFile(path: string, content: string, clipped = false): OutputFile {
  return { path, content, binary: false, bytes: content.length, clipped };
}

function run(outputs: OutputFile[], finalMessage?: string): RunSnapshot {
  return {
    runDir: "/runs/eval-1/variant/run-1",
    configuration: "variant",
    evalDir: "/runs/eval-1",
    outputs,
    transcriptTail: "",
    finalMessage,
    prompt: "Write a report",
  };
}

describe("fence", () => {
  it("fences plain text with three backticks and no info string by default", () => {
    expect(fence("plain text")).toBe("```\nplain text\n```");
  });

  it("puts the info string after the opening backticks", () => {
    expect(fence('{"a": 1}', "json")).toBe('```json\n{"a": 1}\n```');
  });

  it("uses one backtick more than the longest run inside, so the text cannot close the fence", () => {
    expect(fence("a ```` b ` c")).toBe("`````\na ```` b ` c\n`````");
    expect(fence("one `tick` only")).toBe("```\none `tick` only\n```");
  });
});

describe("presentOutputs", () => {
  it("shows the final message and every file under the heading", () => {
    const shown = presentOutputs(
      run(
        [
          textFile("report.md", "# Report"),
          { path: "chart.png", content: undefined, binary: true, bytes: 9, clipped: false },
          textFile("notes/long.txt", "the beginning", true),
        ],
        "All done.",
      ),
      "## Output A",
    );
    expect(shown).toBe(
      [
        "## Output A",
        "",
        "Final message of the agent:",
        "",
        "```\nAll done.\n```",
        "",
        "File `report.md`",
        "",
        "```\n# Report\n```",
        "",
        "File `chart.png` (binary, 9 bytes; content not shown)",
        "",
        "File `notes/long.txt` (only the beginning is shown)",
        "",
        "```\nthe beginning\n```",
        "",
      ].join("\n"),
    );
  });

  it("says when there is no final message and no file", () => {
    expect(presentOutputs(run([]), "## Output B")).toBe(
      [
        "## Output B",
        "",
        "Final message of the agent:",
        "",
        "(none)",
        "",
        "Files: none were created or changed.",
        "",
      ].join("\n"),
    );
  });

  it("leaves the final message out when asked to", () => {
    expect(presentOutputs(run([textFile("a.txt", "alpha")]), "### Outputs", { finalMessage: false })).toBe(
      ["### Outputs", "", "File `a.txt`", "", "```\nalpha\n```", ""].join("\n"),
    );
  });

  it("shows the final message when asked to explicitly", () => {
    expect(presentOutputs(run([], "All done."), "## Out", { finalMessage: true })).toContain(
      "Final message of the agent:\n\n```\nAll done.\n```",
    );
  });

  it("shares the character budget over the files, in order, and says what it left out", () => {
    const shown = presentOutputs(
      run([textFile("a.txt", "aaaa"), textFile("b.txt", "bbbbbb"), textFile("c.txt", "cc")]),
      "## Out",
      { maxChars: 7, finalMessage: false },
    );
    expect(shown).toBe(
      [
        "## Out",
        "",
        "File `a.txt`",
        "",
        "```\naaaa\n```",
        "",
        "File `b.txt` (only the beginning is shown)",
        "",
        "```\nbbb\n```",
        "",
        "File `c.txt` (content not shown: too much output)",
        "",
      ].join("\n"),
    );
  });

  it("shows nothing more once a file used the budget up exactly", () => {
    const shown = presentOutputs(run([textFile("a.txt", "aaaa"), textFile("b.txt", "bb")]), "## Out", {
      maxChars: 4,
      finalMessage: false,
    });
    expect(shown).toBe(
      [
        "## Out",
        "",
        "File `a.txt`",
        "",
        "```\naaaa\n```",
        "",
        "File `b.txt` (content not shown: too much output)",
        "",
      ].join("\n"),
    );
  });

  it("applies the transform to the final message, the file paths and their contents", () => {
    const shout = (text: string) => text.toUpperCase();
    const shown = presentOutputs(run([textFile("dir/a.txt", "alpha")], "done"), "## Output A", {
      transform: shout,
    });
    expect(shown).toBe(
      [
        "## Output A",
        "",
        "Final message of the agent:",
        "",
        "```\nDONE\n```",
        "",
        "File `DIR/A.TXT`",
        "",
        "```\nALPHA\n```",
        "",
      ].join("\n"),
    );
  });
});

describe("presentTask", () => {
  it("shows the prompt alone when there are no expectations", () => {
    expect(presentTask("Write a report", [])).toBe(
      ["## The task both runs were given", "", "```\nWrite a report\n```", ""].join("\n"),
    );
  });

  it("adds the expectations as a JSON array a simulator can read", () => {
    expect(presentTask("Write a report", ["report.md exists", "It names <Q3>"])).toBe(
      [
        "## The task both runs were given",
        "",
        "```\nWrite a report\n```",
        "",
        "## Expectations the output should meet, in this order (a JSON array)",
        "",
        "<expectations>",
        "[",
        '  "report.md exists",',
        '  "It names \\u003cQ3>"',
        "]",
        "</expectations>",
        "",
      ].join("\n"),
    );
  });
});
