import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import { SimScript } from "../contracts/sim-script.js";
import { SkillgymError } from "../errors.js";

function pathOf(path: readonly PropertyKey[]): string {
  const dotted = path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
  // Stryker disable next-line Regex: equivalent, a script's path starts with a key, so its first dot leads
  return dotted.replace(/^\./, "");
}

export async function loadSimScript(file: string): Promise<SimScript> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new SkillgymError(
      "BAD_INPUT",
      `cannot read simulator script ${file}: ${(error as Error).message}`,
      { file },
    );
  }
  let raw: unknown;
  try {
    raw = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new SkillgymError(
      "BAD_INPUT",
      `${file}: not valid ${/\.ya?ml$/i.test(file) ? "YAML" : "JSON"}: ${(error as Error).message}`,
      {
        file,
      },
    );
  }
  const parsed = SimScript.safeParse(raw ?? {});
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${file}: ${pathOf(i.path) || "(root)"}: ${i.message}`);
    throw new SkillgymError("BAD_INPUT", `invalid simulator script:\n${lines.join("\n")}`, { file });
  }
  const patterns = [
    ...parsed.data.rules.flatMap((rule, i) => [
      { at: `rules[${i}].match`, pattern: rule.match },
      { at: `rules[${i}].model`, pattern: rule.model },
      { at: `rules[${i}].skills`, pattern: rule.skills },
      { at: `rules[${i}].files`, pattern: rule.files },
    ]),
    ...(parsed.data.judge?.verdicts ?? []).flatMap((v, i) => [
      { at: `judge.verdicts[${i}].match`, pattern: v.match },
      { at: `judge.verdicts[${i}].when`, pattern: v.when },
      { at: `judge.verdicts[${i}].judge_model`, pattern: v.judge_model },
    ]),
  ];
  for (const { at, pattern } of patterns) {
    if (pattern === undefined) continue;
    try {
      // Stryker disable next-line StringLiteral: equivalent, the i flag leaves what is valid unchanged
      new RegExp(pattern, "i");
    } catch (error) {
      throw new SkillgymError(
        "BAD_INPUT",
        `${file}: ${at}: not a valid regular expression: ${(error as Error).message}`,
        { file },
      );
    }
  }
  return parsed.data;
}
