/** `--screen-verify P`: which replayed runs the agent also makes, and how often the two agreed. */
export interface VerifyTally {
  percent: number;
  replayed: number;
  runs: number;
  agreed: number;
}

/** Agreement below this, and replay is dropped for the agents. */
export const LEAST_AGREEMENT = 0.95;

export const newVerifyTally = (percent: number): VerifyTally => ({
  percent,
  replayed: 0,
  runs: 0,
  agreed: 0,
});

/** Counts a replayed run; true when it is one of the P% the agent checks (spread evenly: the 1st, then every 100/P). */
export function takeForVerify(tally: VerifyTally): boolean {
  tally.replayed += 1;
  const share = (n: number) => Math.ceil((n * tally.percent) / 100);
  return share(tally.replayed) > share(tally.replayed - 1);
}

export function recordAgreement(tally: VerifyTally, agreed: boolean): void {
  tally.runs += 1;
  if (agreed) tally.agreed += 1;
}

export const agreementOf = (tally: VerifyTally): number | undefined =>
  tally.runs === 0 ? undefined : tally.agreed / tally.runs;

export const belowAgreement = (tally: VerifyTally): boolean => (agreementOf(tally) ?? 1) < LEAST_AGREEMENT;
