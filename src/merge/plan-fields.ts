import type { ShardData } from "./read-shard.js";

/** One thing every shard of a plan shares: its name in words and how to show a shard's value of it. */
export interface PlanField {
  field: string;
  /** The part of the plan it belongs to: compared only when both shards ran that part. */
  part?: "evals" | "triggers";
  /** The shard's value, compared as JSON; undefined when the shard has no such part (no evals, no triggers). */
  value: (s: ShardData) => unknown;
  /** Both values side by side; by default each as it is, `a vs b`. */
  describe?: (a: unknown, b: unknown) => string;
  /** A hash: it differs whenever something it covers does, so it is named last and explained when alone. */
  hash?: true;
  /** Read from a file a shard cut short may lack (trigger-results.json): compared only when both have it. */
  whenBoth?: true;
}

// No parsed record holds a null: a field is there or undefined.
const show = (v: unknown): string =>
  v === undefined
    ? "(none)"
    : Array.isArray(v)
      ? v.length === 0
        ? "(none)"
        : v.map(String).join(", ")
      : String(v);

const shortHash = (v: unknown) => (typeof v === "string" ? v.slice(0, 12) : show(v));

// Long lists are told by their size and what only one side has.
// Both shards ran the part, whose schema makes each value a list: the `[]` below is never taken.
function describeList(a: unknown, b: unknown): string {
  // Stryker disable next-line ArrayDeclaration: equivalent, a is always a list (above)
  const left = Array.isArray(a) ? a.map(String) : [];
  // Stryker disable next-line ArrayDeclaration: equivalent, b is always a list (above)
  const right = Array.isArray(b) ? b.map(String) : [];
  if (left.length + right.length <= 12) return `${show(a)} vs ${show(b)}`;
  const onlyLeft = left.filter((x) => !right.includes(x));
  const onlyRight = right.filter((x) => !left.includes(x));
  const some = (xs: string[]) => (xs.length > 5 ? `${xs.slice(0, 5).join(", ")}, …` : xs.join(", "));
  const apart = [
    ...(onlyLeft.length > 0 ? [`only in the first: ${some(onlyLeft)}`] : []),
    ...(onlyRight.length > 0 ? [`only in the second: ${some(onlyRight)}`] : []),
  ];
  return `${left.length} vs ${right.length}${apart.length > 0 ? ` (${apart.join("; ")})` : " (in another order)"}`;
}

// Queries are sentences: their count, else the first that differs.
// Both shards ran triggers, so both values are lists, and lists of one length that differ differ at some query i.
function describeQueries(a: unknown, b: unknown): string {
  // Stryker disable next-line ArrayDeclaration: equivalent, a is always a list (above)
  const left = Array.isArray(a) ? a.map(String) : [];
  // Stryker disable next-line ArrayDeclaration: equivalent, b is always a list (above)
  const right = Array.isArray(b) ? b.map(String) : [];
  if (left.length !== right.length) return `${left.length} vs ${right.length}`;
  const i = left.findIndex((q, k) => q !== right[k]);
  // Stryker disable next-line StringLiteral: equivalent, q is always one of the queries (above)
  const cut = (q: string | undefined) => JSON.stringify((q ?? "").slice(0, 60));
  return `query ${i + 1} is ${cut(left[i])} vs ${cut(right[i])}`;
}

const describeText = (a: unknown, b: unknown) =>
  `${typeof a === "string" ? JSON.stringify(a.slice(0, 80)) : show(a)} vs ${typeof b === "string" ? JSON.stringify(b.slice(0, 80)) : show(b)}`;

const describeHash = (a: unknown, b: unknown) => `${shortHash(a)} vs ${shortHash(b)}`;

// What iteration.json records, else trigger-results.json (a shard of triggers only); undefined when neither is there.
function recorded<T>(
  s: ShardData,
  pick: (r: { agent?: { name: string }; model?: string }) => T,
): T | undefined {
  const r = s.iteration ?? s.triggerResults;
  return r ? pick(r) : undefined;
}

const shardInfo = (s: ShardData) => s.iteration?.shard ?? s.triggerPlan?.shard;

/** What must be the same in every shard of one plan, the words first and the hashes after. */
export const planFields: readonly PlanField[] = [
  { field: "shard count n", value: (s) => shardInfo(s)?.count },
  { field: "skill", value: (s) => s.iteration?.skill_name ?? s.triggerPlan?.skill_name },
  {
    field: "agent",
    // Records written before the agent was recorded were Claude Code's.
    value: (s) => recorded(s, (r) => r.agent?.name ?? "claude-code"),
    whenBoth: true,
  },
  { field: "model", value: (s) => recorded(s, (r) => r.model ?? "(the agent's default)"), whenBoth: true },
  { field: "evals", part: "evals", value: (s) => s.iteration?.plan.evals, describe: describeList },
  { field: "configurations", part: "evals", value: (s) => s.iteration?.plan.configurations },
  { field: "runs", part: "evals", value: (s) => s.iteration?.plan.runs_per_configuration },
  { field: "baseline skill", part: "evals", value: (s) => s.iteration?.plan.baseline_skill_path },
  {
    field: "trigger queries",
    part: "triggers",
    value: (s) => s.triggerPlan?.queries,
    describe: describeQueries,
  },
  {
    field: "description",
    part: "triggers",
    value: (s) => s.triggerPlan?.description,
    describe: describeText,
  },
  { field: "trigger runs", part: "triggers", value: (s) => s.triggerPlan?.runs_per_query },
  {
    field: "--with-skills",
    part: "triggers",
    value: (s) => s.triggerPlan?.with_skills,
    describe: describeList,
  },
  { field: "threshold", part: "triggers", value: (s) => s.triggerResults?.threshold, whenBoth: true },
  {
    field: "skill hash (evals)",
    part: "evals",
    value: (s) => s.iteration?.skill_hash,
    describe: describeHash,
    hash: true,
  },
  {
    field: "skill hash (triggers)",
    part: "triggers",
    value: (s) => s.triggerPlan?.skill_hash,
    describe: describeHash,
    hash: true,
  },
  {
    field: "plan hash (evals)",
    part: "evals",
    value: (s) => s.iteration?.shard.plan_hash,
    describe: describeHash,
    hash: true,
  },
  {
    field: "plan hash (triggers)",
    part: "triggers",
    value: (s) => s.triggerPlan?.shard.plan_hash,
    describe: describeHash,
    hash: true,
  },
];

const HASH_ONLY =
  "(only hashes differ: the skill's files, or what the plan hash covers besides the above: the eval prompts, files and checks, the queries' should_trigger, --only, the contents of the baseline or of --with-skills)";

const ran = {
  evals: (s: ShardData) => s.iteration !== undefined,
  triggers: (s: ShardData) => s.triggerPlan !== undefined,
};

// An empty list and none are the same: no --with-skills.
const same = (a: unknown, b: unknown) => {
  const norm = (v: unknown) => (Array.isArray(v) && v.length === 0 ? undefined : v);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
};

/** How `other` differs from `first`, one line per field; empty when they are one plan. */
export function planDifferences(first: ShardData, other: ShardData): string[] {
  const parts = (["evals", "triggers"] as const).filter((p) => ran[p](first) !== ran[p](other));
  const partLines = parts.map(
    (p) => `${p}: ${ran[p](first) ? "ran" : "not run"} vs ${ran[p](other) ? "ran" : "not run"}`,
  );
  const lines = planFields.flatMap((f) => {
    if (f.part && (!ran[f.part](first) || !ran[f.part](other))) return [];
    const a = f.value(first);
    const b = f.value(other);
    if (same(a, b)) return [];
    if (f.whenBoth && (a === undefined || b === undefined)) return [];
    return [{ hash: f.hash === true, text: `${f.field}: ${(f.describe ?? describeValues)(a, b)}` }];
  });
  if (parts.length === 0 && lines.length > 0 && lines.every((l) => l.hash))
    return [...lines.map((l) => l.text), HASH_ONLY];
  return [...partLines, ...lines.map((l) => l.text)];
}

function describeValues(a: unknown, b: unknown): string {
  return `${show(a)} vs ${show(b)}`;
}
