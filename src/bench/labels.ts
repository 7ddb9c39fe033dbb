import type { EffectVerdict, Redundancy } from "../contracts/benchmark.js";
import type { EvalId } from "../contracts/evals.js";

/** A signed number as text, "+0.50" / "-13.0"; a value that rounds to zero is "+0.00", never "-0.00". */
export function formatSigned(value: number, decimals: number): string {
  // Rounded first, so a value that rounds to zero is zero (or -0, which is not below it).
  const rounded = Number(value.toFixed(decimals));
  return `${rounded < 0 ? "-" : "+"}${Math.abs(value).toFixed(decimals)}`;
}

export function evalLabel(id: EvalId, name: string | undefined): string {
  return name && name !== `eval-${id}` ? `Eval ${id} (${name})` : `Eval ${id}`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function quoted(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}

export function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

export interface IntervalLike {
  estimate: number;
  ci_low: number;
  ci_high: number;
  confidence: number;
  distinguishable: boolean;
}

/** "+0.42 (95% CI +0.20 to +0.61)", or "+0.05 — not distinguishable from noise (95% CI -0.10 to +0.20)". */
export function describeInterval(d: IntervalLike): string {
  const ci = `${Math.round(d.confidence * 100)}% CI ${formatSigned(d.ci_low, 2)} to ${formatSigned(d.ci_high, 2)}`;
  return d.distinguishable
    ? `${formatSigned(d.estimate, 2)} (${ci})`
    : `${formatSigned(d.estimate, 2)} — not distinguishable from noise (${ci})`;
}

/** "helps", "no effect (within ±0.05)", "inconclusive — about 12 runs per configuration would likely decide it". */
export function describeVerdict(v: EffectVerdict): string {
  const text = verdictPhrase(v);
  return v.noise_spread !== undefined
    ? `${text}; the floor is the A/A spread of ${v.noise_spread.toFixed(2)} measured by \`skillgym noise\`: a smaller lift is not reported`
    : text;
}

function verdictPhrase(v: EffectVerdict): string {
  const floor = v.floor.toFixed(2);
  switch (v.verdict) {
    case "helps":
      return `helps (the whole interval above +${floor})`;
    case "hurts":
      return `hurts (the whole interval below -${floor})`;
    case "no effect":
      return `no effect (the whole interval within ±${floor})`;
    case "inconclusive":
      return v.runs_to_decide !== undefined
        ? `inconclusive (the interval straddles ±${floor}; about ${v.runs_to_decide} runs per configuration would likely decide it)`
        : `inconclusive (the interval straddles ±${floor}, and the estimate sits on it: more runs are unlikely to decide it)`;
  }
}

/** What a redundant skill costs a run ("1200 tokens and 3.5 s"), or undefined when neither was measured. */
export function redundancyCost(r: Redundancy): string | undefined {
  const costs = [
    r.tokens_delta !== undefined ? `${r.tokens_delta} tokens` : undefined,
    r.time_seconds_delta !== undefined ? `${r.time_seconds_delta} s` : undefined,
  ].filter((c): c is string => c !== undefined);
  return costs.length > 0 ? costs.join(" and ") : undefined;
}

/** The plain sentence for a skill the model no longer needs. */
export function describeRedundancy(r: Redundancy): string {
  const costs = redundancyCost(r);
  const cost = costs ? ` It costs ${costs} a run.` : "";
  return `**Redundant on this model:** the baseline already passes ${percent(r.baseline_pass_rate)} and the skill has no effect on any eval.${cost}`;
}
