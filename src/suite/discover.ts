import { readdir } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import type { Finding } from "../findings.js";
import { isDirectory, isFile } from "../fs-probe.js";
import { parseJsonText, readJsonText } from "./json-file.js";

/** Which discovery step found the suite (SPEC §1, first match wins). */
export type DiscoveryVia =
  | "explicit" // --evals <folder or file>
  | "skill" // <skill>/evals/
  | "grandparent" // <skill>/../../evals/<skill-name>/
  | "project" // <project-root>/evals/<skill-name>/
  | "project-fuzzy"; // <project-root>/evals/**/<skill-name>/

export interface DiscoveredSuite {
  dir: string;
  evalsFile?: string;
  triggersFile?: string;
  via: DiscoveryVia;
}

export interface DiscoverOptions {
  skillDir: string;
  skillName: string;
  projectRoot: string;
  /** The `--evals` argument: a suite folder, an evals.json-shaped file or a triggers.json-shaped file. */
  evalsPath?: string;
}

export interface DiscoveryResult {
  found?: DiscoveredSuite;
  findings: Finding[];
}

const fuzzyMaxDepth = 4;
const skippedFolders = new Set(["node_modules", ".git"]);

export async function discoverSuite(options: DiscoverOptions): Promise<DiscoveryResult> {
  if (options.evalsPath !== undefined) return discoverExplicit(resolve(options.evalsPath));
  const skillDir = resolve(options.skillDir);
  const root = resolve(options.projectRoot);
  const candidates: [string, DiscoveryVia][] = [
    [join(skillDir, "evals"), "skill"],
    [resolve(skillDir, "..", "..", "evals", options.skillName), "grandparent"],
    [join(root, "evals", options.skillName), "project"],
  ];
  for (const [dir, via] of candidates) {
    const files = await suiteFilesIn(dir);
    if (files) return { found: { dir, ...files.found, via }, findings: files.findings };
  }
  return discoverFuzzy(join(root, "evals"), options.skillName);
}

async function discoverExplicit(path: string): Promise<DiscoveryResult> {
  if (await isDirectory(path)) {
    const files = await suiteFilesIn(path);
    if (files) return { found: { dir: path, ...files.found, via: "explicit" }, findings: files.findings };
    return {
      findings: [
        {
          severity: "error",
          code: "suite-empty",
          file: path,
          message:
            "--evals names a folder that holds neither evals.json nor triggers.json (or eval_set.json, trigger-eval.json)",
          hint: "point --evals at a suite folder or at one of its JSON files",
        },
      ],
    };
  }
  if (!(await isFile(path))) {
    return {
      findings: [
        {
          severity: "error",
          code: "suite-missing",
          file: path,
          message: "--evals names a path that does not exist",
          hint: "pass an existing suite folder, evals.json or triggers.json",
        },
      ],
    };
  }
  const kind = await explicitFileKind(path);
  if (kind === undefined) {
    return {
      findings: [
        {
          severity: "error",
          code: "suite-shape",
          file: path,
          message:
            "cannot tell what this file is: expected an object with `evals` (evals.json) or an array of { query, should_trigger } (triggers.json)",
        },
      ],
    };
  }
  const found: DiscoveredSuite =
    kind === "triggers"
      ? { dir: dirname(path), triggersFile: path, via: "explicit" }
      : { dir: dirname(path), evalsFile: path, via: "explicit" };
  return { found, findings: [] };
}

// Decided by content; a file too broken to parse is classified by its name and its errors reported on load.
async function explicitFileKind(path: string): Promise<"evals" | "triggers" | undefined> {
  const text = await readJsonText(path);
  const parsed = text.ok ? parseJsonText(text.data, path) : undefined;
  if (parsed?.ok) {
    if (Array.isArray(parsed.data)) return "triggers";
    if (parsed.data !== null && typeof parsed.data === "object" && "evals" in parsed.data) return "evals";
    return undefined;
  }
  const name = basename(path).toLowerCase();
  return (triggerFileNames as readonly string[]).includes(name) ? "triggers" : "evals";
}

interface SuiteFiles {
  found: Pick<DiscoveredSuite, "evalsFile" | "triggersFile">;
  findings: Finding[];
}

// skill-creator's own instructions name the trigger file eval_set.json or trigger-eval.json; ours is triggers.json.
export const triggerFileNames = ["triggers.json", "eval_set.json", "trigger-eval.json"] as const;

async function suiteFilesIn(dir: string): Promise<SuiteFiles | undefined> {
  // Stryker disable next-line ConditionalExpression: equivalent, a shortcut: no file is found in what is not a folder
  if (!(await isDirectory(dir))) return undefined;
  const evalsFile = join(dir, "evals.json");
  const hasEvals = await isFile(evalsFile);
  const triggerFiles: string[] = [];
  for (const name of triggerFileNames) {
    if (await isFile(join(dir, name))) triggerFiles.push(join(dir, name));
  }
  if (!hasEvals && triggerFiles.length === 0) return undefined;
  const [chosen, ...ignored] = triggerFiles;
  const findings: Finding[] = ignored.map((file) => ({
    severity: "warning",
    code: "suite-duplicate-triggers",
    file,
    // Stryker disable next-line StringLiteral: equivalent, a file is ignored only when one was chosen
    message: `ignored because ${basename(chosen ?? "")} is in the same folder`,
    hint: "keep one trigger file",
  }));
  const found: SuiteFiles["found"] = {};
  if (hasEvals) found.evalsFile = evalsFile;
  if (chosen) found.triggersFile = chosen;
  return { found, findings };
}

// Breadth-first so the shallowest match wins; ties go to the first in name order, with a warning.
async function discoverFuzzy(evalsRoot: string, skillName: string): Promise<DiscoveryResult> {
  let level = [evalsRoot];
  for (let depth = 1; depth <= fuzzyMaxDepth; depth++) {
    // Stryker disable next-line ArrayDeclaration: equivalent, a made-up relative folder has no subfolders to list
    const next: string[] = [];
    const matches: { dir: string; files: SuiteFiles }[] = [];
    for (const parent of level) {
      for (const name of await subfolders(parent)) {
        const dir = join(parent, name);
        next.push(dir);
        if (name !== skillName) continue;
        const files = await suiteFilesIn(dir);
        if (files) matches.push({ dir, files });
      }
    }
    const [first, ...others] = matches;
    if (first) {
      const findings = [...first.files.findings];
      if (others.length > 0) {
        findings.push({
          severity: "warning",
          code: "suite-ambiguous",
          file: first.dir,
          message: `chosen over ${others.map((o) => relative(evalsRoot, o.dir)).join(", ")} (same depth under ${evalsRoot})`,
          hint: "pass --evals to pick the suite explicitly",
        });
      }
      return { found: { dir: first.dir, ...first.files.found, via: "project-fuzzy" }, findings };
    }
    level = next;
  }
  return { findings: [] };
}

async function subfolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory() && !skippedFolders.has(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    // Stryker disable next-line ArrayDeclaration: equivalent, a made-up name under an unreadable folder is no folder either
    return [];
  }
}
