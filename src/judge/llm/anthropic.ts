/**
 * Anthropic judge: Messages API (system + one user message), JSON answer requested in the prompt; a ```json
 * fence around the answer is tolerated. Same error mapping as the OpenAI judge.
 */
import Anthropic from "@anthropic-ai/sdk";
import { buildPrompt } from "../prompt";
import { JudgeUnavailableError, type Judge, type JudgeInput, type JudgeOutput } from "../types";
import { toUnavailable } from "./errors";
import { withDeadline } from "./deadline";
import { DEFAULT_TIMEOUT_MS, type LlmJudgeConfig } from "./openai";
import { parseVerdict } from "./parse";

export const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5";
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 1024;

export class AnthropicJudge implements Judge {
  readonly name: string;
  readonly model: string;
  private readonly client: Anthropic;
  private readonly cfg: LlmJudgeConfig;

  constructor(cfg: LlmJudgeConfig = {}) {
    this.cfg = cfg;
    this.model = cfg.model || DEFAULT_ANTHROPIC_MODEL;
    this.name = `anthropic:${this.model}`;
    this.client = new Anthropic({
      apiKey: cfg.apiKey || process.env.ANTHROPIC_API_KEY || "unset",
      baseURL: cfg.baseUrl || undefined,
      timeout: cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: Math.min(Math.max(cfg.maxRetries ?? 0, 0), 1),
    });
  }

  async judge(input: JudgeInput): Promise<JudgeOutput> {
    const { system, user } = buildPrompt(input);
    const body: Anthropic.MessageCreateParamsNonStreaming = {
      model: this.model,
      max_tokens: this.cfg.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
      system,
      messages: [{ role: "user", content: user }],
    };

    let msg: Anthropic.Message;
    try {
      const deadline = this.cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      msg = await withDeadline("anthropic", deadline, (signal) => this.client.messages.create(body, { signal, timeout: deadline }));
    } catch (err) {
      throw toUnavailable("anthropic", err);
    }
    if (!msg || !Array.isArray(msg.content)) {
      throw new JudgeUnavailableError("anthropic judge returned a response without content");
    }
    const texts = msg.content.flatMap((b) => (b && b.type === "text" && typeof b.text === "string" ? [b.text] : []));
    const raw = texts.length > 0 ? texts.join("") : null;
    const parsed =
      msg.stop_reason === "refusal" && !raw ? { verdict: null, reasoning: "The model refused to answer.", error: "refusal" } : parseVerdict(raw);

    return {
      verdict: parsed.verdict,
      reasoning: parsed.reasoning,
      provider: this.name,
      transcript: [
        { kind: "prompt", data: { provider: "anthropic", model: this.model, system, user } },
        {
          kind: "model_output",
          data: {
            provider: "anthropic",
            model: this.model,
            responseModel: typeof msg.model === "string" ? msg.model : null,
            responseId: typeof msg.id === "string" ? msg.id : null,
            stopReason: msg.stop_reason ?? null,
            raw,
            parseError: parsed.error,
          },
        },
      ],
    };
  }
}
