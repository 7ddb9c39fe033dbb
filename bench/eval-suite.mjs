// The artifact eval suite the eval benchmarks run: N evals that each ask for one report file.
import { writeTree } from "./lib.mjs";

export const reportScript = {
  rules: [{ match: "benchmark report", steps: [{ write: { path: "report.txt", content: "ok\n" } }] }],
};

export async function writeReportSkill(dir, evalCount) {
  await writeTree(dir, {
    "bench-skill/SKILL.md":
      "---\nname: bench-skill\ndescription: Writes a benchmark report file. Use when the user asks for a benchmark report.\n---\n\nWrite report.txt.\n",
    "bench-skill/evals/evals.json": JSON.stringify({
      evals: Array.from({ length: evalCount }, (_, i) => ({
        id: i + 1,
        prompt: `Write benchmark report number ${i + 1}`,
        expectations: ["report.txt exists"],
      })),
    }),
  });
}
