/**
 * OpenAI-compatible judge: chat completions with a strict json_schema response format.
 * Works with any server speaking the OpenAI wire format (baseUrl). Transport errors, timeouts and any
 * HTTP error status throw JudgeUnavailableError; a 200 answer that is not a valid verdict is `verdict: null`.
 */
import OpenAI from "openai";
import { buildPrompt } from "../prompt";
import { JudgeUnavailableError, type Judge, type JudgeInput, type JudgeOutput } from "../types";
import { toUnavailable } from "./errors";
import { withDeadline } from "./deadline";
import { parseVerdict } from "./parse";

export interface LlmJudgeConfig {
  apiKey?: string;
  baseUrl?: string;
  model?: string;
  timeoutMs?: number;
  /** 0 (default) or 1. */
  maxRetries?: number;
  /** OpenAI only; omitted unless set (some reasoning models reject any temperature). */
  temperature?: number;
  maxTokens?: number;
}

export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";
export const DEFAULT_TIMEOUT_MS = 30_000;

export const VERDICT_RESPONSE_FORMAT = {
  type: "json_schema",
  json_schema: {
    name: "verdict",
    strict: true,
    schema: {
      type: "object",
      properties: {
        verdict: { type: "string", enum: ["ALLOW", "BLOCK", "ESCALATE"] },
        reasoning: { type: "string" },
      },
      required: ["verdict", "reasoning"],
      additionalProperties: false,
    },
  },
} as const;

export class OpenAIJudge implements Judge {
  readonly name: string;
  readonly model: string;
  private readonly client: OpenAI;
  private readonly cfg: LlmJudgeConfig;

  constructor(cfg: LlmJudgeConfig = {}) {
    this.cfg = cfg;
    this.model = cfg.model || DEFAULT_OPENAI_MODEL;
    this.name = `openai:${this.model}`;
    this.client = new OpenAI({
      apiKey: cfg.apiKey || process.env.OPENAI_API_KEY || "unset",
      baseURL: cfg.baseUrl || undefined,
      timeout: cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: Math.min(Math.max(cfg.maxRetries ?? 0, 0), 1),
    });
  }

  async judge(input: JudgeInput): Promise<JudgeOutput> {
    const { system, user } = buildPrompt(input);
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      model: this.model,
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
      response_format: VERDICT_RESPONSE_FORMAT as unknown as OpenAI.ResponseFormatJSONSchema,
    };
    if (this.cfg.temperature !== undefined) body.temperature = this.cfg.temperature;
    if (this.cfg.maxTokens !== undefined) body.max_completion_tokens = this.cfg.maxTokens;

    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      const deadline = this.cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      completion = await withDeadline("openai", deadline, (signal) => this.client.chat.completions.create(body, { signal, timeout: deadline }));
    } catch (err) {
      throw toUnavailable("openai", err);
    }
    if (!completion || !Array.isArray(completion.choices)) {
      throw new JudgeUnavailableError("openai judge returned a response without choices");
    }
    const choice = completion.choices[0];
    const raw = typeof choice?.message?.content === "string" ? choice.message.content : null;
    const refusal = typeof choice?.message?.refusal === "string" ? choice.message.refusal : null;
    const parsed = refusal && !raw ? { verdict: null, reasoning: "The model refused to answer.", error: "refusal" } : parseVerdict(raw);

    return {
      verdict: parsed.verdict,
      reasoning: parsed.reasoning,
      provider: this.name,
      transcript: [
        { kind: "prompt", data: { provider: "openai", model: this.model, system, user, responseFormat: VERDICT_RESPONSE_FORMAT } },
        {
          kind: "model_output",
          data: {
            provider: "openai",
            model: this.model,
            responseModel: typeof completion.model === "string" ? completion.model : null,
            responseId: typeof completion.id === "string" ? completion.id : null,
            finishReason: choice?.finish_reason ?? null,
            raw,
            refusal,
            parseError: parsed.error,
          },
        },
      ],
    };
  }
}
