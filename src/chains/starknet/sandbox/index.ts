export { startStarknetSandbox, type StarknetSandbox, type SandboxServerOptions } from "./server";
export { SandboxNode } from "./node";
export { SPEC_VERSION } from "./rpc";
