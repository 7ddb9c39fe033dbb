import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  bundledFilesOf,
  type RunActivation,
  writeActivation,
} from "../../src/activation/write-activation.js";
import type { AgentEvent } from "../../src/agents/events.js";
import { readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// writeActivation and bundledFilesOf on a real skill folder and run folder in a temp dir.
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

async function skillFolder(folder = join("staged", "pdf-sg-1a2b")): Promise<string> {
  const skillDir = join(dir, folder);
  await writeTree(skillDir, {
    "SKILL.md": skillMd("pdf", "Fills PDF forms.", "Run scripts/fill.py."),
    "scripts/fill.py": "print('filled')\n",
    "references/forms.md": "# Forms\n",
  });
  return skillDir;
}

async function runFolder(): Promise<string> {
  const runDir = join(dir, "run-1");
  await mkdir(runDir);
  return runDir;
}

function runOf(skillDir: string, extra: Partial<RunActivation> = {}): RunActivation {
  return {
    skill: "pdf",
    skillDir,
    configuration: "with_skill",
    agent: "claude-code",
    staged: { "pdf-sg-1a2b": "pdf" },
    ...extra,
  };
}

describe("bundledFilesOf", () => {
  it("lists the skill's files relative to its folder", async () => {
    expect(await bundledFilesOf(await skillFolder())).toEqual([
      "SKILL.md",
      "references/forms.md",
      "scripts/fill.py",
    ]);
  });

  it("lists none for a folder that cannot be read", async () => {
    expect(await bundledFilesOf(join(dir, "missing"))).toEqual([]);
  });
});

describe("writeActivation", () => {
  it("writes activation.json naming the files opened under the skill's own folder", async () => {
    const skillDir = await skillFolder();
    const runDir = await runFolder();
    const events: AgentEvent[] = [
      {
        kind: "tool_use",
        id: "a",
        name: "Bash",
        input: { command: `python ${skillDir}/scripts/fill.py` },
        tool: "shell",
      },
    ];
    const activation = await writeActivation(runDir, events, runOf(skillDir));
    expect(activation.bundled_files).toEqual(["SKILL.md", "references/forms.md", "scripts/fill.py"]);
    expect(activation.files_opened.map((f) => [f.path, f.how])).toEqual([["scripts/fill.py", "shell"]]);
    expect(await readJson(join(runDir, "activation.json"))).toEqual(activation);
  });

  it("counts a run without the skill reading it from the user's folder, whatever that folder is called", async () => {
    const skillDir = await skillFolder("my-pdf-forms");
    const events: AgentEvent[] = [
      { kind: "tool_use", id: "a", name: "Read", input: { file_path: `${skillDir}/SKILL.md` }, tool: "read" },
    ];
    const run = runOf(skillDir, { configuration: "without_skill", staged: {} });
    const activation = await writeActivation(await runFolder(), events, run);
    expect(activation.files_opened.map((f) => f.path)).toEqual(["SKILL.md"]);
    expect(activation.contaminated).toBe(true);
  });

  it("counts the files read from the skill's folder and its other folders, and those only", async () => {
    const skillDir = await skillFolder();
    const userDir = join(dir, "home", "my-pdf-forms");
    const read = (path: string): AgentEvent => ({
      kind: "tool_use",
      id: path,
      name: "Read",
      input: { file_path: path },
      tool: "read",
    });
    const events = [
      read(`${skillDir}/SKILL.md`),
      read(`${userDir}/scripts/fill.py`),
      read(`${dir}/elsewhere/references/forms.md`),
    ];
    const run = runOf(skillDir, { skillFolders: [userDir] });
    const activation = await writeActivation(await runFolder(), events, run);
    expect(activation.files_opened.map((f) => f.path)).toEqual(["SKILL.md", "scripts/fill.py"]);
  });

  it("records no sandbox section for a run outside the sandbox", async () => {
    const activation = await writeActivation(await runFolder(), [], runOf(await skillFolder()));
    expect(activation).not.toHaveProperty("sandbox_refused");
  });

  it("records no sandbox section for a sandboxed run that was refused nothing", async () => {
    const run = runOf(await skillFolder(), { sandbox: { refusedHosts: [] } });
    expect(await writeActivation(await runFolder(), [], run)).not.toHaveProperty("sandbox_refused");
  });

  it("records the hosts the sandbox refused", async () => {
    const run = runOf(await skillFolder(), { sandbox: { refusedHosts: ["pypi.org", "example.com"] } });
    const activation = await writeActivation(await runFolder(), [], run);
    expect(activation.sandbox_refused).toEqual({ hosts: ["pypi.org", "example.com"] });
  });
});
