import { dirname, resolve, sep } from "node:path";
import type { MergePartial, ShardShortfall } from "../contracts/shard.js";
import { SkillgymError } from "../errors.js";
import { missingRunsText } from "../shard/index.js";

/** Shards of more than one plan, a shard twice or a run in two shards: nothing is written. */
export function refusePlanProblems(problems: readonly string[]): void {
  if (problems.length === 0) return;
  throw new SkillgymError("BAD_INPUT", `the shards do not belong to one plan:\n  ${problems.join("\n  ")}`, {
    hint: "merge the folders of one `--shard i/n` run of the same skill, suite, agents and flags, each shard once",
  });
}

function shortfallLine(s: ShardShortfall, count: number, given: number): string {
  const runs = missingRunsText(s.missing_runs, s.planned_runs);
  const which = `shard ${s.index}/${count}`;
  switch (s.state) {
    case "missing":
      return `${which} missing: no folder given holds it (${given} of ${count} given)`;
    case "interrupted":
      return `${which} (${s.source}) was interrupted: ${runs}`;
    case "running":
      return `${which} (${s.source}) never finished (its status is still "running": was its process killed?): ${runs}`;
    case "incomplete":
      return `${which} (${s.source}) is incomplete: ${runs}`;
  }
}

/** The lines that refuse a merge missing work: each shard absent or short of its share, named with its folder. */
export function shortfallLines(partial: MergePartial | undefined, given: number): string[] {
  return (partial?.shards ?? []).map((s) => shortfallLine(s, partial?.count ?? 0, given));
}

/** A merge that would hide missing work is refused unless `--partial` asks for it. */
export function refuseShortfalls(lines: readonly string[], partial: boolean): void {
  if (lines.length === 0 || partial) return;
  throw new SkillgymError("BAD_INPUT", `the shards do not hold the whole plan:\n  ${lines.join("\n  ")}`, {
    hint: "run each shard named again with its own command (an interrupted shard resumes and makes only its missing runs), then merge every shard's folder; or merge with --partial to record what is missing",
  });
}

// Strictly inside: the folder itself is told apart before.
const inside = (path: string, folder: string) => path.startsWith(`${folder}${sep}`);

/**
 * `--into` must not be a shard's folder, inside one, or the workspace a shard's iteration folder sits in: the merged
 * iteration would be written among the shard's own.
 */
export function refuseIntoShard(into: string, shards: readonly { source: string; dir: string }[]): void {
  const target = resolve(into);
  for (const s of shards) {
    const given = resolve(s.source);
    // The shard's iteration folder is the folder given or its latest iteration-<N>: either way in the workspace above.
    const workspace = dirname(s.dir);
    const where =
      target === given
        ? `is the shard folder ${s.source}`
        : inside(target, given)
          ? `is inside the shard folder ${s.source}`
          : target === workspace
            ? `is the workspace of the shard ${s.source}`
            : undefined;
    if (where)
      throw new SkillgymError(
        "BAD_INPUT",
        `--into ${into} ${where}; the merge would write among the shard's files`,
        {
          hint: "merge into a workspace of its own, such as --into merged",
        },
      );
  }
}
