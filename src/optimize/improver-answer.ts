import { MAX_DESCRIPTION } from "../triggers/description.js";

export type DescriptionAnswer = { description: string } | { problem: string };

const QUOTES: [string, string][] = [
  ['"', '"'],
  ["'", "'"],
  ["“", "”"],
  ["`", "`"],
];

function unwrap(text: string): string {
  let out = text.trim();
  const fenced = /^```[\w-]*\s*\n([\s\S]*?)\n?```$/.exec(out);
  if (fenced) out = fenced[1]!.trim();
  out = out.replace(/^(?:new\s+)?description\s*:\s*/i, "");
  for (const [open, close] of QUOTES) {
    if (out.length >= 2 && out.startsWith(open) && out.endsWith(close)) {
      out = out.slice(open.length, -close.length).trim();
      break;
    }
  }
  return out.replace(/\s*\n\s*/g, " ");
}

/** The description in an improver's answer, tolerating fences, quotes and a `Description:` label. */
export function readDescriptionAnswer(text: string): DescriptionAnswer {
  const description = unwrap(text);
  if (description === "") return { problem: "it was empty" };
  const length = [...description].length;
  if (length > MAX_DESCRIPTION)
    return { problem: `it has ${length} characters, more than the limit of ${MAX_DESCRIPTION}` };
  if (/[<>]/.test(description)) return { problem: "it contains < or >, which a description must not" };
  return { description };
}
