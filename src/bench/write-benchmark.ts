import { join } from "node:path";
import type { Benchmark } from "../contracts/benchmark.js";
import { SkillgymError } from "../errors.js";
import { writeJson, writeTextAtomically } from "../runlog/atomic-write.js";
import { type BenchmarkOptions, buildBenchmark } from "./build-benchmark.js";
import { readIteration } from "./read-iteration.js";
import { noiseSpreadFor } from "./read-noise.js";
import { renderBenchmarkMarkdown } from "./render-markdown.js";

export interface WrittenBenchmark {
  benchmark: Benchmark;
  markdown: string;
  jsonPath: string;
  mdPath: string;
}

/** Reads an iteration folder and writes its benchmark.json and benchmark.md beside its eval folders. */
export async function writeBenchmark(
  iterationDir: string,
  options: BenchmarkOptions = {},
): Promise<WrittenBenchmark> {
  const data = await readIteration(iterationDir);
  const noiseSpread = options.noiseSpread ?? (await noiseSpreadFor(data.dir));
  const benchmark = buildBenchmark(data, {
    ...options,
    noiseSpread,
    timestamp: options.timestamp ?? new Date().toISOString(),
  });
  const markdown = renderBenchmarkMarkdown(benchmark);
  const jsonPath = join(data.dir, "benchmark.json");
  const mdPath = join(data.dir, "benchmark.md");
  try {
    await writeJson(jsonPath, benchmark);
    await writeTextAtomically(mdPath, markdown);
  } catch (error) {
    throw new SkillgymError(
      "WORKSPACE",
      `cannot write the benchmark into ${data.dir}: ${(error as Error).message}`,
      {
        hint: "make the iteration folder writable, or copy it somewhere writable and run `skillgym bench` there",
        file: data.dir,
        cause: error,
      },
    );
  }
  return { benchmark, markdown, jsonPath, mdPath };
}
