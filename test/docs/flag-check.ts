import type { CommandFlags } from "./cli-flags.js";
import { type Fence, type Section, type Span, sections } from "./markdown.js";

export interface Finding {
  page: string;
  line: number;
  message: string;
}

/** A flag a page names, and the commands it must belong to (`undefined`: any command will do). */
interface Mention {
  flag: string;
  commands: string[] | undefined;
  line: number;
  source: string;
}

const LONG_FLAG = /(?<![\w-])--[a-z][a-z0-9-]*(?![\w-])/g;
const ANY_FLAG = /(?<![\w-])(?:--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w-])/g;
const INVOCATION = /(?:^|[\s(`"'])(?:npx\s+)?skillgym\s+([a-z][a-z-]*)(?=[\s`"')]|$)/g;

/** The command a `## skillgym <command>` heading documents. */
export function sectionCommand(heading: string): string | undefined {
  return /^`?skillgym ([a-z][a-z-]*)`?$/.exec(heading)?.[1];
}

// A quoted word is a value, never a flag of skillgym's: `--agent 'acp:gemini --acp'` names the agent's own flag.
function flagsIn(text: string): string[] {
  return text.replace(/'[^']*'|"[^"]*"/g, "''").match(LONG_FLAG) ?? [];
}

interface Context {
  commandNames: Set<string>;
  /** Whose flags a bare `--flag` names here: a command section's command, a page's commands, or any. */
  bare: string[] | undefined;
  page: string;
  unknown: Finding[];
}

/** The parts of a string that follow `skillgym <command>`, each with that command. */
function invocations(text: string, context: Context, line: number): { command: string; rest: string }[] {
  const found = [...text.matchAll(INVOCATION)];
  return found.flatMap((match, k) => {
    const command = match[1] ?? "";
    const start = (match.index ?? 0) + match[0].length;
    const end = found[k + 1]?.index ?? text.length;
    if (!context.commandNames.has(command)) {
      context.unknown.push({
        page: context.page,
        line,
        message: `names \`skillgym ${command}\`, not a command`,
      });
      return [];
    }
    return [{ command, rest: text.slice(start, end) }];
  });
}

function spanMentions(span: Span, context: Context): Mention[] {
  const mention = (flag: string, commands: string[] | undefined): Mention => ({
    flag,
    commands,
    line: span.line,
    source: `\`${span.text}\``,
  });
  const calls = invocations(span.text, context, span.line);
  if (calls.length > 0)
    return calls.flatMap(({ command, rest }) => flagsIn(rest).map((f) => mention(f, [command])));
  // `run --dry-run`, `view <skill> --triggers`: a command's name, then its flags.
  const first = /^([a-z][a-z-]*)\s/.exec(span.text)?.[1];
  if (first && context.commandNames.has(first)) return flagsIn(span.text).map((f) => mention(f, [first]));
  if (span.text.startsWith("--")) return flagsIn(span.text).map((f) => mention(f, context.bare));
  return [];
}

function fenceMentions(fence: Fence, context: Context): Mention[] {
  const mentions: Mention[] = [];
  let current: string | undefined;
  fence.lines.forEach((raw, i) => {
    const line = fence.line + 1 + i;
    const text = raw.replace(/(^|\s)#(\s.*)?$/, "");
    const calls = invocations(text, context, line);
    if (calls.length > 0) {
      for (const { command, rest } of calls)
        for (const flag of flagsIn(rest))
          mentions.push({ flag, commands: [command], line, source: raw.trim() });
      current = calls.at(-1)?.command;
    } else if (current && /^\s/.test(raw)) {
      for (const flag of flagsIn(text))
        mentions.push({ flag, commands: [current], line, source: raw.trim() });
    } else {
      current = undefined;
    }
  });
  return mentions;
}

export interface UnknownFlagOptions {
  /** Pages about some commands only: their bare flags must be one of these commands' flags. */
  pageCommands?: Record<string, string[]>;
  /** Flags of the agents' own CLIs that pages name when they say how an agent is run. */
  foreign?: Set<string>;
}

/** Every `--flag` a page names in code that the command it is named for (or every command) lacks. */
export function unknownFlags(
  page: { path: string; text: string },
  cli: Map<string, CommandFlags>,
  options: UnknownFlagOptions = {},
): Finding[] {
  const commandNames = new Set(cli.keys());
  const findings: Finding[] = [];
  for (const section of sections(page.text)) {
    const own = sectionCommand(section.heading);
    const context: Context = {
      commandNames,
      bare: own ? [own] : options.pageCommands?.[page.path],
      page: page.path,
      unknown: findings,
    };
    const mentions = [
      ...section.spans.flatMap((span) => spanMentions(span, context)),
      ...section.fences.flatMap((fence) => fenceMentions(fence, context)),
    ];
    for (const { flag, commands, line, source } of mentions) {
      if (commands) {
        if (commands.some((c) => cli.get(c)?.accepted.has(flag))) continue;
        findings.push({
          page: page.path,
          line,
          message: `${flag} is not a flag of skillgym ${commands.join(" or ")} (in ${source})`,
        });
      } else if (![...cli.values()].some((c) => c.accepted.has(flag)) && !options.foreign?.has(flag)) {
        findings.push({
          page: page.path,
          line,
          message: `${flag} is no skillgym command's flag (in ${source})`,
        });
      }
    }
  }
  return findings;
}

/** Each command's flags that its `## skillgym <command>` section never names in code; sections of no command. */
export function undocumentedFlags(
  commandsPage: { path: string; text: string },
  cli: Map<string, CommandFlags>,
) {
  const findings: Finding[] = [];
  const documented = new Map<string, Section>();
  for (const section of sections(commandsPage.text)) {
    const command = sectionCommand(section.heading);
    if (!command) continue;
    if (!cli.has(command))
      findings.push({
        page: commandsPage.path,
        line: section.line,
        message: `skillgym ${command} is no command`,
      });
    documented.set(command, section);
  }
  for (const [command, flags] of cli) {
    const section = documented.get(command);
    if (!section) {
      findings.push({ page: commandsPage.path, line: 0, message: `no "## skillgym ${command}" section` });
      continue;
    }
    const named = new Set([
      ...section.spans.flatMap((s) => s.text.match(ANY_FLAG) ?? []),
      ...section.fences.flatMap((f) => f.lines.flatMap((l) => l.match(ANY_FLAG) ?? [])),
    ]);
    for (const flag of flags.listed)
      if (!named.has(flag))
        findings.push({
          page: commandsPage.path,
          line: section.line,
          message: `skillgym ${command} ${flag} is not named in code in its section`,
        });
  }
  return findings;
}
