export { builtinSkillsOf } from "../agents/registry.js";
export { type ActivationInput, activationOf } from "./activation.js";
export { bundledKind, filesNamed } from "./bundled-files.js";
export { bundledFilesOf, type RunActivation, writeActivation } from "./write-activation.js";
