import type { Finding } from "../findings.js";
import { describeType, error, isRecord, typeError, warning } from "./rule-findings.js";

export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

// A description says *when* to use the skill if it has a trigger word: "Use when…", "…if the user asks…".
const WHEN_TO_USE =
  /\b(when|whenever|if|unless|use (this|it|for|to|on|with|in|whenever)|for tasks|asks?|asked|wants?|needs?|requests?|mentions?|triggers?|invoke[sd]?)\b/i;

export function saysWhenToUse(description: string): boolean {
  return WHEN_TO_USE.test(description);
}

const ENGLISH_WORDS = new Set(
  "a an the and to of for with this that is are your you from it its or any by into about on".split(" "),
);
// Function words of other languages written in Latin letters; ones that are also English words (do, per) are left out.
const OTHER_WORDS = new Set(
  "de la le les des du un une et pour avec el los las para con y del und der die das den mit für zu ein eine het een voor il di che em com".split(
    " ",
  ),
);

// The trigger words are English; other languages say "when" in their own words, so only English text is judged.
export function looksEnglish(text: string): boolean {
  // Stryker disable next-line ArrayDeclaration: equivalent, text with no letters has no words, so 0 English words never beat 0 others
  const letters = text.match(/\p{L}/gu) ?? [];
  // Stryker disable next-line EqualityOperator: equivalent, U+007F is a control character, never a letter
  const ascii = letters.filter((c) => c <= "\u007f").length;
  // Mostly letters outside a–z: another language. Text with no letters goes on, and has no words to count.
  if (ascii < letters.length * 0.95) return false;
  // Stryker disable next-line ArrayDeclaration: equivalent, text with letters has words: the fallback is never used
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const english = words.filter((word) => ENGLISH_WORDS.has(word)).length;
  const other = words.filter((word) => OTHER_WORDS.has(word)).length;
  return english > other;
}

export function checkName(
  file: string,
  folderName: string,
  name: unknown,
  location: string | undefined,
): Finding[] {
  if (name === undefined || name === null) {
    return [
      error(file, "name-missing", location, "the frontmatter has no `name`", {
        hint: `add \`name: ${folderName}\` (the folder's name)`,
      }),
    ];
  }
  if (typeof name !== "string") return [typeError(file, "name-type", location, "name", "a string", name)];
  const findings: Finding[] = [];
  const suggestion = `use lowercase letters, digits and single hyphens, e.g. \`${slug(name) || folderName}\``;
  if (name.length < 1 || name.length > MAX_NAME_LENGTH) {
    findings.push(
      error(
        file,
        "name-length",
        location,
        `\`name\` must be 1–${MAX_NAME_LENGTH} characters, not ${name.length}`,
        {
          hint:
            name.length === 0
              ? `set \`name: ${folderName}\``
              : "shorten the name (and rename the folder to match)",
        },
      ),
    );
  }
  if (name.length > 0 && !/^[a-z0-9-]+$/.test(name)) {
    findings.push(
      error(file, "name-charset", location, `\`name\` "${name}" may only hold a–z, 0–9 and "-"`, {
        hint: suggestion,
      }),
    );
  }
  if (name.startsWith("-") || name.endsWith("-")) {
    findings.push(
      error(file, "name-hyphen-edge", location, `\`name\` "${name}" must not start or end with "-"`, {
        hint: suggestion,
      }),
    );
  }
  if (name.includes("--")) {
    findings.push(
      error(file, "name-double-hyphen", location, `\`name\` "${name}" must not contain "--"`, {
        hint: suggestion,
      }),
    );
  }
  // A clone of a repository named differently from its skill is common; runs and packages use the frontmatter name.
  if (name.length > 0 && name !== folderName) {
    findings.push(
      warning(
        file,
        "name-mismatch",
        location,
        `\`name\` "${name}" differs from the folder's name "${folderName}"; runs and packages use "${name}"`,
        {
          hint: `rename the folder to "${name}" (the Agent Skills spec asks for a match), or set \`name: ${folderName}\``,
        },
      ),
    );
  }
  return findings;
}

export function checkDescription(
  file: string,
  description: unknown,
  location: string | undefined,
): Finding[] {
  if (description === undefined || description === null) {
    return [
      error(file, "description-missing", location, "the frontmatter has no `description`", {
        hint: "add a `description:` that says what the skill does and when to use it",
      }),
    ];
  }
  if (typeof description !== "string") {
    return [typeError(file, "description-type", location, "description", "a string", description)];
  }
  if (description.trim() === "") {
    return [
      error(file, "description-empty", location, "`description` is empty", {
        hint: "say what the skill does and when to use it; the agent picks skills by this text",
      }),
    ];
  }
  const findings: Finding[] = [];
  const length = [...description].length;
  if (length > MAX_DESCRIPTION_LENGTH) {
    findings.push(
      error(
        file,
        "description-too-long",
        location,
        `\`description\` is ${length} characters; the limit is ${MAX_DESCRIPTION_LENGTH}`,
        {
          hint: "shorten it; move detail into the body of SKILL.md",
        },
      ),
    );
  }
  if (/[<>]/.test(description)) {
    findings.push(
      error(file, "description-angle-brackets", location, "`description` must not contain `<` or `>`", {
        hint: "reword without angle brackets (agents embed the description in XML-like prompts)",
      }),
    );
  }
  if (looksEnglish(description) && !saysWhenToUse(description)) {
    findings.push(
      warning(file, "description-no-when", location, "`description` does not say when to use the skill", {
        hint: 'add a trigger sentence such as "Use when the user asks to …"',
      }),
    );
  }
  return findings;
}

export function checkCompatibility(file: string, value: unknown, location: string | undefined): Finding[] {
  if (typeof value !== "string")
    return [typeError(file, "compatibility-type", location, "compatibility", "a string", value)];
  const length = [...value].length;
  if (length <= MAX_COMPATIBILITY_LENGTH) return [];
  return [
    error(
      file,
      "compatibility-too-long",
      location,
      `\`compatibility\` is ${length} characters; the limit is ${MAX_COMPATIBILITY_LENGTH}`,
      {
        hint: "shorten it to the essential requirements",
      },
    ),
  ];
}

export function checkMetadata(
  file: string,
  value: unknown,
  location: string | undefined,
  entryLocation: (key: string) => string | undefined,
): Finding[] {
  if (!isRecord(value))
    return [typeError(file, "metadata-type", location, "metadata", "a map of strings", value)];
  return Object.entries(value)
    .filter(([, entry]) => typeof entry !== "string")
    .map(([key, entry]) =>
      error(
        file,
        "metadata-type",
        entryLocation(key) ?? location,
        `\`metadata.${key}\` must be a string, not ${describeType(entry)}`,
        {
          hint:
            typeof entry === "object" && entry !== null ? "flatten it into string values" : "quote the value",
        },
      ),
    );
}

// Each run of other characters becomes one hyphen, so an end holds at most one hyphen to drop.
function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, MAX_NAME_LENGTH)
    .replace(/-$/, "");
}
