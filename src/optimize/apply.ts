import { readFile, writeFile } from "node:fs/promises";
import { Document, isMap, isScalar, parseDocument, Scalar } from "yaml";
import { SkillgymError } from "../errors.js";
import { parseFrontmatter } from "../skill/frontmatter.js";
import { checkDescription } from "../triggers/description.js";

const FENCE = /^---[ \t]*$/;

// The new value in the style of the old one (plain, quoted, or a block scalar with its indentation).
function valueText(old: Scalar, oldSource: string, description: string): string {
  const block = old.type === Scalar.BLOCK_FOLDED || old.type === Scalar.BLOCK_LITERAL;
  const keepsNewline = block && typeof old.value === "string" && old.value.endsWith("\n");
  const scalar = new Scalar(keepsNewline ? `${description}\n` : description);
  scalar.type = old.type;
  const document = new Document({});
  document.set("description", scalar);
  const indent = block ? (/\n( +)\S/.exec(oldSource)?.[1]?.length ?? 2) : 2;
  // yaml writes the key first, and a space after its colon.
  const text = document.toString({ lineWidth: block ? 80 : 0, indent }).replace("description: ", "");
  return oldSource.endsWith("\n") ? text : text.replace(/\n$/, "");
}

/**
 * SKILL.md with another description and nothing else changed: only the description's value is rewritten, in its
 * own style; other keys, comments, the body, a BOM and CRLF line endings stay as they were.
 */
export function withDescription(text: string, description: string, file: string): string {
  checkDescription(description);
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const crlf = text.includes("\r\n");
  const lines = text.slice(bom.length).replace(/\r\n?/g, "\n").split("\n");
  const closing = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (!FENCE.test(lines[0]!) || closing === -1)
    throw new SkillgymError("INVALID_SKILL", `${file}: no frontmatter to write the description into`);
  const yaml = lines.slice(1, closing).join("\n");
  const document = parseDocument(yaml);
  const pair = isMap(document.contents)
    ? document.contents.items.find((p) => isScalar(p.key) && p.key.value === "description")
    : undefined;
  if (!pair || !isScalar(pair.value) || !pair.value.range)
    throw new SkillgymError("INVALID_SKILL", `${file}: the frontmatter has no description to replace`);
  const [start, end] = pair.value.range;
  const updated =
    yaml.slice(0, start) + valueText(pair.value, yaml.slice(start, end), description) + yaml.slice(end);
  const out = [lines[0]!, ...updated.split("\n"), ...lines.slice(closing)].join("\n");
  return bom + (crlf ? out.replace(/\n/g, "\r\n") : out);
}

/** Writes the description into the user's SKILL.md, refusing when its description changed since the loop began. */
export async function applyDescription(
  skillMdPath: string,
  description: string,
  expectedCurrent: string,
): Promise<void> {
  const text = await readFile(skillMdPath, "utf8");
  const data = parseFrontmatter(text, skillMdPath).frontmatter?.data;
  const current =
    typeof data === "object" && data !== null ? (data as Record<string, unknown>).description : undefined;
  if (current !== expectedCurrent) {
    throw new SkillgymError(
      "BAD_INPUT",
      `${skillMdPath}: its description changed while the optimizer ran; the best description was not written`,
      { hint: "copy best_description from results.json by hand, or run optimize again" },
    );
  }
  await writeFile(skillMdPath, withDescription(text, description, skillMdPath), "utf8");
}
