import { bundledKind } from "../activation/index.js";
import type { DisclosureCoverage } from "../contracts/benchmark.js";
import { evalKey, type IterationData } from "./model.js";

/**
 * Per eval and configuration with the skill: of its runs, how many opened each bundled file ("12 runs,
 * references/forms.md opened in 2"), and the files no run opened. Runs without the skill are left out.
 */
export function disclosureCoverage(data: IterationData): DisclosureCoverage[] {
  const coverage: DisclosureCoverage[] = [];
  for (const evalData of data.evals) {
    for (const configuration of data.configurations) {
      if (configuration === "without_skill") continue;
      const runs = data.runs.filter(
        (r) =>
          evalKey(r.evalId) === evalKey(evalData.id) && r.configuration === configuration && r.activation,
      );
      if (runs.length === 0) continue;
      const files = [...new Set(runs.flatMap((r) => r.activation!.bundled_files))].sort();
      const openedIn = (path: string) =>
        runs.filter((r) => r.activation!.files_opened.some((o) => o.path === path)).length;
      const counted = files.map((path) => ({ path, kind: bundledKind(path), opened_in: openedIn(path) }));
      coverage.push({
        eval_id: evalData.id,
        configuration,
        runs: runs.length,
        fired: runs.filter((r) => r.activation!.skill_fired).length,
        files: counted,
        never_opened: counted.filter((f) => f.opened_in === 0).map((f) => f.path),
      });
    }
  }
  return coverage;
}
