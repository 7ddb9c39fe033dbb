import { relative } from "node:path";
import { BaseSequencer, type TestSequencer, type TestSpecification, type Vitest } from "vitest/node";
import { slowFirst } from "./slow-first.js";

/**
 * A vitest sequencer that starts the files known to be slow first. Vitest orders by the durations of the previous run
 * when its cache holds them; a fresh clone (CI) has none, and vitest then starts the largest files first, so a short
 * file that runs for minutes (a conformance suite of an agent slow to start) would start last and run alone at the end.
 * With every file's duration cached, vitest's own order stands.
 */
export function slowFirstSequencer(
  expected: Readonly<Record<string, number>>,
): new (
  ctx: Vitest,
) => TestSequencer {
  return class SlowFirstSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const path = (file: TestSpecification) =>
        relative(this.ctx.config.root, file.moduleId).split("\\").join("/");
      const cached = sorted.every((file) =>
        this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`),
      );
      return cached ? sorted : slowFirst(sorted, path, expected);
    }
  };
}
