// What every wire format's answer shares: the model name the sim answers as, and its token estimate.
export { SIM_MODEL } from "../contracts/sim-model.js";

export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
