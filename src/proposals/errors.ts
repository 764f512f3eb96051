import { ServiceError } from "../lib/errors";

/** SPEC 7: every refusal of a well-formed propose call answers `propose_failed` with the reason. */
export const proposeFailed = (message: string) => new ServiceError("invalid_input", "propose_failed", message);
export const proposeConflict = (message: string) => new ServiceError("conflict", "propose_failed", message);
export const proposalNotFound = () => new ServiceError("not_found", "not_found", "no such proposal on this account");
/** Owner actions on a proposal that is not (or no longer) held. */
export const invalidState = (message: string) => new ServiceError("conflict", "invalid_state", message);
