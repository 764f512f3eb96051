import { ChainInputError } from "../port";

/** A ChainInputError naming the input field (the core answers 400 invalid_input naming it). */
export function inputError(message: string, field?: string): ChainInputError {
  const e = new ChainInputError(message);
  if (field) Object.defineProperty(e, "field", { value: field, enumerable: true });
  return e;
}
