export { bwrapArgs, MASKED_FILES, type SandboxLayout, SOCKET_MOUNT } from "./bwrap-args.js";
export { locateBwrap } from "./detect.js";
export { type NetworkGate, type NetworkPolicy, openNetworkGate, requestTarget } from "./network-gate.js";
export { CHECK_HOME, type OfflineCommand, sandboxOfflineCommand } from "./offline-command.js";
export {
  PROXY_PORT,
  type SandboxedCommand,
  type SandboxNetwork,
  type SandboxSpec,
  sandboxCommand,
} from "./sandbox-command.js";
export { type SystemMasks, systemMasks, unreadableUnder } from "./system-masks.js";
