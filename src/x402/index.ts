export * from "./requirements";
export * from "./facilitator";
export { createFacilitatorHandler, startFacilitatorServer } from "./facilitator-server";
export type { FacilitatorHandlerOptions, FacilitatorServer } from "./facilitator-server";
