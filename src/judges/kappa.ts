import {
  type BootstrapOptions,
  defaultBootstrap,
  mulberry32,
  percentileBounds,
} from "../bench/statistics.js";
import type { Agreement } from "../contracts/judges.js";

/** Two raters' pass/fail verdicts on the same item: [first rater, second rater]. */
export type RatedPair = readonly [boolean, boolean];

export interface KappaPoint {
  n: number;
  percentAgreement: number | null;
  /** Cohen's κ = (po − pe) / (1 − pe); null when there is nothing rated or chance agreement pe is 1. */
  kappa: number | null;
}

/**
 * Cohen's κ of two raters over pass/fail verdicts. When pe = 1 (both raters gave one and the same verdict to every
 * item) κ is 0/0: it is reported as null, not as 1, and the percent agreement (then 1) is what remains to say.
 */
export function cohenKappa(pairs: readonly RatedPair[]): KappaPoint {
  const n = pairs.length;
  if (n === 0) return { n, percentAgreement: null, kappa: null };
  let agree = 0;
  let aPass = 0;
  let bPass = 0;
  for (const [a, b] of pairs) {
    if (a === b) agree++;
    if (a) aPass++;
    if (b) bPass++;
  }
  const po = agree / n;
  const pa = aPass / n;
  const pb = bPass / n;
  const pe = pa * pb + (1 - pa) * (1 - pb);
  if (pe >= 1) return { n, percentAgreement: po, kappa: null };
  return { n, percentAgreement: po, kappa: (po - pe) / (1 - pe) };
}

// Stryker disable next-line ArithmeticOperator: equivalent, -0 prints and serialises as 0 (the + 0 only keeps tests' toEqual plain)
const round = (value: number) => Math.round(value * 10_000) / 10_000 + 0;

/**
 * Percent agreement and κ with a percentile bootstrap interval of κ over the items (seeded, so reproducible).
 * Resamples whose κ is undefined (every drawn item rated alike by both) are left out; no interval when fewer than two
 * items, or when no resample has a κ.
 */
export function agreementOf(
  pairs: readonly RatedPair[],
  options: BootstrapOptions = defaultBootstrap,
): Agreement {
  const point = cohenKappa(pairs);
  const base: Agreement = {
    n: point.n,
    percent_agreement: point.percentAgreement === null ? null : round(point.percentAgreement),
    kappa: point.kappa === null ? null : round(point.kappa),
    kappa_ci: null,
  };
  // Stryker disable next-line ConditionalExpression: equivalent, items with no κ give no resample a κ, which returns base below
  if (pairs.length < 2 || point.kappa === null) return base;
  const random = mulberry32(options.seed);
  // mulberry32 draws below 1, so a draw is never past the last item; the cap only guards against a change of generator.
  // Stryker disable next-line ArithmeticOperator: equivalent, Math.floor(random() * n) is at most n - 1 already
  const last = pairs.length - 1;
  const pick = () => Math.min(last, Math.floor(random() * pairs.length));
  const kappas: number[] = [];
  for (let r = 0; r < options.resamples; r++) {
    const drawn = Array.from({ length: pairs.length }, () => pairs[pick()]!);
    const kappa = cohenKappa(drawn).kappa;
    if (kappa !== null) kappas.push(kappa);
  }
  if (kappas.length === 0) return base;
  const { low, high } = percentileBounds(Float64Array.from(kappas), options.confidence);
  return { ...base, kappa_ci: { low: round(low), high: round(high), confidence: options.confidence } };
}
