import { describe, expect, it } from "vitest";
import { type CommandFlags, cliFlags } from "./cli-flags.js";
import { undocumentedFlags, unknownFlags } from "./flag-check.js";
import { anchors, codeSpans, links, sections } from "./markdown.js";
import { docPages } from "./pages.js";
import { outputPattern, runnableBlocks, shellWords } from "./runnable.js";

const flags = (listed: string[], hidden: string[] = []): CommandFlags => ({
  listed,
  accepted: new Set(["--help", "-h", ...listed, ...hidden]),
});
const cli = new Map([
  ["run", flags(["--runs", "--dry-run", "--trigger-runs"])],
  ["eval", flags(["--runs", "--no-grade"])],
  ["draft-evals", flags(["--count-evals"], ["--evals"])],
]);

const commandsPage = (runSection: string) => ({
  path: "docs/commands.md",
  text: [
    "# Commands",
    "",
    "## skillgym run",
    "",
    runSection,
    "",
    "## skillgym eval",
    "",
    "```",
    "skillgym eval <skill> [--runs N]",
    "  [--no-grade]",
    "```",
    "",
    "## skillgym draft-evals",
    "",
    "`--count-evals N`",
  ].join("\n"),
});

describe("the Markdown the checks read", () => {
  it("finds fences, code spans over a line break, level-2 sections and GitHub's anchors", () => {
    const text = [
      "# Title",
      "",
      "Intro `--a",
      "b` and ``x ` y``.",
      "",
      "## skillgym run",
      "",
      "```sh runnable exit=2",
      "# ## not a heading",
      "```",
      "",
      "### How a run's `workspace` is built",
      "## Two",
      "## Two",
    ].join("\n");
    const [intro, run, two] = sections(text);
    expect(intro?.spans.map((s) => s.text)).toEqual(["--a b", "x ` y"]);
    expect(run?.heading).toBe("skillgym run");
    expect(run?.fences).toEqual([{ info: "sh runnable exit=2", lines: ["# ## not a heading"], line: 8 }]);
    expect(two?.heading).toBe("Two");
    expect([...anchors(text)]).toEqual([
      "title",
      "skillgym-run",
      "how-a-runs-workspace-is-built",
      "two",
      "two-1",
    ]);
  });

  it("does not take a span across a blank line, nor a link inside a fence", () => {
    expect(codeSpans(["a `b", "", "c` d"])).toEqual([]);
    expect(links("[a](x.md)\n```\n[b](y.md)\n```\n![c](img.png)").map((l) => l.target)).toEqual([
      "x.md",
      "img.png",
    ]);
  });
});

describe("the flag checks", () => {
  it("pass on a commands page that names every flag in its command's section", () => {
    const page = commandsPage("```\nskillgym run <skill> [--runs N] [--trigger-runs N] [--dry-run]\n```");
    expect(undocumentedFlags(page, cli)).toEqual([]);
    expect(unknownFlags(page, cli)).toEqual([]);
  });

  it("name a flag missing from its command's section, a command without a section, a section of no command", () => {
    const page = commandsPage("`--runs N` and `--trigger-runs N`\n\n## skillgym frob\n");
    const withMore = new Map([...cli, ["sim", flags(["--port"])]]);
    expect(undocumentedFlags(page, withMore).map((f) => f.message)).toEqual([
      "skillgym frob is no command",
      "skillgym run --dry-run is not named in code in its section",
      'no "## skillgym sim" section',
    ]);
  });

  it("name a flag given to a command that lacks it, in a fence, its continuation, a span or a section", () => {
    const page = {
      path: "docs/x.md",
      text: [
        "# X",
        "",
        "```sh",
        "npx skillgym eval s --runs 1 --dry-run   # --not-checked in a comment",
        "  --trigger-runs 2",
        "npm install --save-dev thing",
        "```",
        "",
        "`run --no-grade`, `skillgym draft-evals s --evals 3`, `--nowhere`, `--sandbox`, `sed -n`, `skillgym frob`.",
        "",
        "## skillgym eval",
        "",
        "`--trigger-runs`",
      ].join("\n"),
    };
    expect(
      unknownFlags(page, cli, { foreign: new Set(["--sandbox"]) }).map((f) => `${f.line}: ${f.message}`),
    ).toEqual([
      "9: names `skillgym frob`, not a command",
      "9: --no-grade is not a flag of skillgym run (in `run --no-grade`)",
      "9: --nowhere is no skillgym command's flag (in `--nowhere`)",
      "4: --dry-run is not a flag of skillgym eval (in npx skillgym eval s --runs 1 --dry-run   # --not-checked in a comment)",
      "5: --trigger-runs is not a flag of skillgym eval (in --trigger-runs 2)",
      "13: --trigger-runs is not a flag of skillgym eval (in `--trigger-runs`)",
    ]);
  });

  it("fail on the real docs when a flag of the real CLI is renamed", () => {
    const real = cliFlags();
    const run = real.get("run");
    expect(run?.listed).toContain("--trigger-runs");
    const renamed = new Map(real);
    renamed.set("run", {
      listed: (run?.listed ?? []).map((f) => (f === "--trigger-runs" ? "--trigger-count" : f)),
      accepted: new Set(
        [...(run?.accepted ?? [])].map((f) => (f === "--trigger-runs" ? "--trigger-count" : f)),
      ),
    });
    const page = docPages().find((p) => p.path === "docs/commands.md");
    if (!page) throw new Error("docs/commands.md is missing");
    expect(undocumentedFlags(page, renamed).map((f) => f.message)).toEqual([
      "skillgym run --trigger-count is not named in code in its section",
    ]);
    expect(unknownFlags(page, renamed).map((f) => f.message)).toContainEqual(
      expect.stringMatching(/^--trigger-runs is not a flag of skillgym run/),
    );
  });
});

describe("runnable blocks", () => {
  it("reads the marker, the commands and the output block after it", () => {
    const text = [
      "```sh runnable",
      'npx skillgym sim --explain "a \\"b\\" c" x   # why',
      "",
      "skillgym schema 'evals'",
      "```",
      "",
      "```text output",
      "chosen: …",
      "```",
      "",
      "```sh runnable exit=2",
      "npx skillgym validate nowhere",
      "```",
      "",
      "```sh",
      "npx skillgym view w",
      "```",
    ].join("\n");
    expect(runnableBlocks("p.md", text)).toEqual([
      {
        page: "p.md",
        line: 1,
        exit: 0,
        commands: [
          { args: ["sim", "--explain", 'a "b" c', "x"], line: 2 },
          { args: ["schema", "evals"], line: 4 },
        ],
        output: ["chosen: …"],
        problems: [],
      },
      {
        page: "p.md",
        line: 11,
        exit: 2,
        commands: [{ args: ["validate", "nowhere"], line: 12 }],
        output: undefined,
        problems: [],
      },
    ]);
  });

  it("names a line that is no skillgym command and an unknown marker word", () => {
    const [block] = runnableBlocks("p.md", "```sh runnable exit=1 slow\nls -la\n```\n");
    expect(block?.problems).toEqual([
      'unknown marker word "slow" (known: runnable, exit=N)',
      "line 2 is not a skillgym command: ls -la",
      "the block holds no command",
    ]);
    expect(() => shellWords('a "b')).toThrow('unclosed " in: a "b');
  });

  it("matches a documented output line as a whole line, … standing for any text", () => {
    const pattern = outputPattern("report: …/iteration-1/report.html");
    expect(pattern.test("report: /tmp/x/iteration-1/report.html")).toBe(true);
    expect(pattern.test("report: /tmp/x/iteration-2/report.html")).toBe(false);
    expect(outputPattern("cost: $0.0000").test("cost: $0.00001")).toBe(false);
  });
});
