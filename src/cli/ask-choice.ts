import { createInterface } from "node:readline/promises";
import type { Io } from "./io.js";

/** Asks on the terminal which of `choices` to take; an empty or unknown answer takes `fallback` (0-based). */
export async function askChoice(
  io: Io,
  question: string,
  choices: string[],
  fallback: number,
): Promise<number> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    io.err(`${question}\n${choices.map((c, i) => `  ${i + 1}) ${c}`).join("\n")}\n`);
    // Stryker disable next-line MethodExpression: equivalent, Number() ignores the spaces around a number too
    const answer = (await rl.question(`choose 1-${choices.length} [${fallback + 1}]: `)).trim();
    const n = Number(answer);
    return Number.isInteger(n) && n >= 1 && n <= choices.length ? n - 1 : fallback;
  } finally {
    rl.close();
  }
}
