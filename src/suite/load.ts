import { resolve } from "node:path";
import { parseByteSize } from "../contracts/byte-size.js";
import { EvalsFile, TriggersFile } from "../contracts/evals.js";
import { errorsOf, type Finding } from "../findings.js";
import { type DiscoverOptions, discoverSuite } from "./discover.js";
import { resolveFixtures } from "./fixtures.js";
import { evalsInputRules, triggersInputRules } from "./input-rules.js";
import type { ResolvedEval, Suite } from "./model.js";
import { findOverlays } from "./overlays.js";
import { readSuiteFile } from "./read-suite-file.js";
import { evalsFileRules, triggersFileRules } from "./suite-rules.js";

export type LoadSuiteOptions = DiscoverOptions;

export interface LoadSuiteResult {
  /** Present when a suite was found and has no errors; absent with no error finding when none was found. */
  suite?: Suite;
  findings: Finding[];
}

/** Discovers, reads and checks a skill's eval suite; callers decide whether a missing suite matters. */
export async function loadSuite(options: LoadSuiteOptions): Promise<LoadSuiteResult> {
  const discovery = await discoverSuite(options);
  const findings = [...discovery.findings];
  const found = discovery.found;
  if (!found) return { findings };

  const skillDir = resolve(options.skillDir);
  const projectRoot = resolve(options.projectRoot);
  const evals: ResolvedEval[] = [];
  let env: readonly string[] | undefined;
  let evalIds: Set<string> | undefined;
  let outputLimits: Suite["outputLimits"];
  if (found.evalsFile) {
    const file = found.evalsFile;
    const read = await readSuiteFile(file, EvalsFile, evalsInputRules);
    findings.push(...read.findings);
    if (read.value) {
      findings.push(...evalsFileRules(read.value, file, options.skillName));
      evalIds = new Set(read.value.evals.map((e) => String(e.id)));
      env = read.value.env;
      outputLimits = outputLimitsOf(read.value);
      const bases = { skillDir, projectRoot, suiteDir: found.dir, evalsFile: file };
      for (const [i, e] of read.value.evals.entries()) {
        const resolved = await resolveFixtures(i, e.files, bases);
        findings.push(...resolved.findings);
        evals.push({ ...e, fixtures: resolved.fixtures });
      }
    }
  }

  let triggers: Suite["triggers"] = [];
  if (found.triggersFile) {
    const read = await readSuiteFile(found.triggersFile, TriggersFile, triggersInputRules);
    findings.push(...read.findings);
    if (read.value) {
      triggers = read.value;
      findings.push(...triggersFileRules(triggers, found.triggersFile));
    }
  }

  const overlays = await findOverlays(found.dir, evalIds);
  findings.push(...overlays.findings);
  if (errorsOf(findings).length > 0) return { findings };

  const suite: Suite = {
    dir: found.dir,
    via: found.via,
    evals: evals.map((e) => {
      const overlay = overlays.perEval.get(String(e.id));
      return overlay ? { ...e, overlay } : e;
    }),
    triggers,
  };
  if (found.evalsFile) suite.evalsFile = found.evalsFile;
  if (found.triggersFile) suite.triggersFile = found.triggersFile;
  if (overlays.base) suite.baseOverlay = overlays.base;
  if (env) suite.env = env;
  if (outputLimits) suite.outputLimits = outputLimits;
  return { suite, findings };
}

function outputLimitsOf(file: EvalsFile): Suite["outputLimits"] {
  const totalBytes = file.max_output === undefined ? undefined : parseByteSize(file.max_output);
  const fileBytes = file.max_output_file === undefined ? undefined : parseByteSize(file.max_output_file);
  const limits = {
    ...(totalBytes !== undefined ? { totalBytes } : {}),
    ...(fileBytes !== undefined ? { fileBytes } : {}),
    ...(file.max_output_files !== undefined ? { files: file.max_output_files } : {}),
  };
  return Object.keys(limits).length > 0 ? limits : undefined;
}
