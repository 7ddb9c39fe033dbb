export { type ActivationInput, activationOf } from "./activation.js";
export { builtinSkillsOf } from "./builtins.js";
export { bundledKind, filesNamed } from "./bundled-files.js";
export { bundledFilesOf, type RunActivation, writeActivation } from "./write-activation.js";
