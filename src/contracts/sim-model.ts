/** The model name `skillgym sim` answers as; an agent or judge run under the simulator asks for it. */
export const SIM_MODEL = "skillgym-sim";
