import { describe, expect, it } from "vitest";
import { cliFlags } from "./cli-flags.js";
import { type Finding, undocumentedFlags, unknownFlags } from "./flag-check.js";
import { docPages } from "./pages.js";

const cli = cliFlags();
const pages = docPages();
const commandsPage = pages.find((p) => p.path === "docs/commands.md");

// Pages about some commands only: a bare `--flag` there is one of theirs.
const pageCommands: Record<string, string[]> = {
  "docs/catalog.md": ["catalog"],
  "docs/tune.md": ["tune"],
  "docs/optimize.md": ["optimize"],
  "docs/viewer.md": ["view"],
  "docs/creating-a-skill.md": ["init", "draft-evals", "view"],
};

// The agents' own command-line flags, named where docs/agents.md says how skillgym starts each agent.
const foreign = new Set([
  "--allowedTools",
  "--sandbox",
  "--ephemeral",
  "--skip-git-repo-check",
  "--policy",
  "--yolo",
  "--allow-all-tools",
  "--no-ask-user",
  "--available-tools",
  "--usage-output-file",
  "--session-file",
  "--continue",
  "--approval-mode",
]);

const show = (findings: Finding[]) => findings.map((f) => `${f.page}:${f.line}: ${f.message}`);

describe("the docs name the CLI's flags, and only those", () => {
  it("reads the commands and flags of the CLI itself", () => {
    expect(cli.get("run")?.listed).toContain("--trigger-runs");
    expect(cli.get("tune")?.listed).toContain("--yes");
    expect(cli.get("tune")?.accepted.has("-y")).toBe(true);
    expect(cli.has("help")).toBe(false);
  });

  it("documents every flag of every command in its `## skillgym <command>` section of docs/commands.md", () => {
    expect(commandsPage).toBeDefined();
    if (commandsPage) expect(show(undocumentedFlags(commandsPage, cli))).toEqual([]);
  });

  // The probes page is about the agents' own command lines: every flag on it is theirs.
  const skillgymPages = pages.filter((p) => p.path !== "docs/agent-probes.md");
  it.each(skillgymPages.map((p) => [p.path, p] as const))("%s names no flag the CLI lacks", (_, page) => {
    expect(show(unknownFlags(page, cli, { pageCommands, foreign }))).toEqual([]);
  });
});
