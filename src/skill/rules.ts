import { isMap, isScalar, type Node } from "yaml";
import type { Finding } from "../findings.js";
import { checkBody } from "./body-rules.js";
import { checkCompatibility, checkDescription, checkMetadata, checkName } from "./field-rules.js";
import type { Frontmatter } from "./frontmatter.js";
import { describeType, error, isRecord, typeError, warning } from "./rule-findings.js";

/** Keys of the Agent Skills spec (agentskills.io). */
export const SPEC_KEYS: readonly string[] = [
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
];

/** Keys Claude Code reads beyond the spec. */
export const CLAUDE_CODE_KEYS: readonly string[] = [
  "user-invocable",
  "disable-model-invocation",
  "argument-hint",
  "context",
  "agent",
  "model",
  "version",
  "hooks",
  "when_to_use",
  "effort",
  "paths",
  "shell",
];

export interface SkillRuleInput {
  /** The SKILL.md path that findings name. */
  file: string;
  /** The name of the folder holding SKILL.md. */
  folderName: string;
  frontmatter: Frontmatter;
  /** Files of the skill folder, as `/`-separated paths relative to it; undefined skips the reference checks. */
  skillFiles: ReadonlySet<string> | undefined;
}

export function checkSkill(input: SkillRuleInput): Finding[] {
  const { file, frontmatter } = input;
  const body = checkBody({ ...input, body: frontmatter.body, bodyStartLine: frontmatter.bodyStartLine });
  if (!isRecord(frontmatter.data)) {
    const found = frontmatter.data === null ? "empty" : `a ${describeType(frontmatter.data)}`;
    return [
      error(
        file,
        "frontmatter-not-mapping",
        undefined,
        `the frontmatter must be a YAML mapping, but it is ${found}`,
        {
          hint: "write the frontmatter as `key: value` lines, starting with `name:` and `description:`",
        },
      ),
      ...body,
    ];
  }
  return [...checkFields(input, frontmatter.data), ...body];
}

function checkFields(input: SkillRuleInput, data: Record<string, unknown>): Finding[] {
  const at = (...path: string[]): string | undefined => keyLocation(input.frontmatter, path);
  const findings: Finding[] = [
    ...checkName(input.file, input.folderName, data.name, at("name")),
    ...checkDescription(input.file, data.description, at("description")),
  ];
  const { file } = input;
  for (const [key, value] of Object.entries(data)) {
    const location = at(key);
    if (key === "name" || key === "description") continue;
    if (SPEC_KEYS.includes(key) && value === null) {
      findings.push(
        warning(file, "empty-field", location, `\`${key}\` has no value`, {
          hint: `give \`${key}\` a value or remove the line`,
        }),
      );
    } else if (key === "license" && typeof value !== "string") {
      findings.push(typeError(file, "license-type", location, key, "a string", value));
    } else if (key === "compatibility") {
      findings.push(...checkCompatibility(file, value, location));
    } else if (key === "metadata") {
      findings.push(...checkMetadata(file, value, location, (k) => at("metadata", k)));
    } else if (key === "allowed-tools" && !isToolList(value)) {
      findings.push(
        typeError(file, "allowed-tools-type", location, key, "a string or a list of strings", value),
      );
    } else if (CLAUDE_CODE_KEYS.includes(key)) {
      findings.push(
        warning(
          file,
          "claude-code-key",
          location,
          `\`${key}\` is a Claude Code extension, not part of the Agent Skills spec`,
          {
            hint: "fine for Claude Code; other agents ignore it",
          },
        ),
      );
    } else if (!SPEC_KEYS.includes(key)) {
      findings.push(
        warning(file, "unknown-key", location, `\`${key}\` is not an Agent Skills frontmatter key`, {
          hint: `use only ${SPEC_KEYS.join(", ")}; put anything else under \`metadata\``,
        }),
      );
    }
  }
  return findings;
}

// Line of a key in the frontmatter, following a path of keys through nested maps.
function keyLocation(frontmatter: Frontmatter, path: readonly string[]): string | undefined {
  let node: Node | null | undefined = frontmatter.document.contents;
  let offset: number | undefined;
  for (const key of path) {
    if (!isMap(node)) return offset === undefined ? undefined : `line ${frontmatter.lineOf(offset)}`;
    const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
    const keyNode = pair?.key;
    if (!pair || !isScalar(keyNode) || !keyNode.range) break;
    offset = keyNode.range[0];
    node = pair.value as Node | null;
  }
  return offset === undefined ? undefined : `line ${frontmatter.lineOf(offset)}`;
}

function isToolList(value: unknown): boolean {
  return (
    typeof value === "string" || (Array.isArray(value) && value.every((tool) => typeof tool === "string"))
  );
}
