import { type TunePreset, tunePresets } from "../contracts/iteration-state.js";

export interface TuneSettings {
  preset: TunePreset;
  max_iterations: number;
  quality_threshold: number;
}

/** The preset's iterations and threshold (standard when none is chosen); explicit flags override either. */
export function tuneSettings(input: {
  preset?: TunePreset | undefined;
  maxIterations?: number | undefined;
  threshold?: number | undefined;
}): TuneSettings {
  const preset = input.preset ?? "standard";
  const base = tunePresets[preset];
  return {
    preset,
    max_iterations: input.maxIterations ?? base.max_iterations,
    quality_threshold: input.threshold ?? base.quality_threshold,
  };
}
