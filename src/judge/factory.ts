import { ModelJudge } from "./combined";
import { AnthropicJudge } from "./llm/anthropic";
import { OpenAIJudge } from "./llm/openai";
import { evaluateRules } from "./rules/engine";
import { RulesJudge } from "./rules/judge";
import type { Judge } from "./types";

export interface JudgeConfig {
  provider: "rules" | "openai" | "anthropic";
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  timeoutMs?: number;
  /** 0 (default) or 1. */
  maxRetries?: number;
}

/**
 * "rules": the embedded engine alone (offline, deterministic).
 * "openai" / "anthropic": the model wrapped in ModelJudge, so the rules engine's hard violations still BLOCK.
 */
export function createJudge(cfg: JudgeConfig): Judge {
  const llm = { baseUrl: cfg.baseUrl, model: cfg.model, apiKey: cfg.apiKey, timeoutMs: cfg.timeoutMs, maxRetries: cfg.maxRetries };
  switch (cfg.provider) {
    case "rules":
      return new RulesJudge();
    case "openai":
      return new ModelJudge(new OpenAIJudge(llm), { rules: evaluateRules });
    case "anthropic":
      return new ModelJudge(new AnthropicJudge(llm), { rules: evaluateRules });
    default:
      throw new Error(`unknown judge provider: ${String((cfg as { provider: unknown }).provider)}`);
  }
}
