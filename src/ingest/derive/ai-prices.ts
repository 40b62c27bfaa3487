import type { ModelPrice } from "../../config/config-fields.js";

/**
 * List prices in US dollars per million tokens (input, output, cached input read, cache write),
 * as published by the providers in November 2025. A model matches the longest key that
 * prefixes its name, so dated versions (gpt-4o-2024-08-06) price as their family. Override or
 * extend with the `ai.prices` setting (VIGIL_AI_PRICES) — see docs/ingestion.md.
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  // OpenAI
  "gpt-5": { input: 1.25, output: 10, cacheRead: 0.125 },
  "gpt-5-mini": { input: 0.25, output: 2, cacheRead: 0.025 },
  "gpt-5-nano": { input: 0.05, output: 0.4, cacheRead: 0.005 },
  "gpt-4.1": { input: 2, output: 8, cacheRead: 0.5 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6, cacheRead: 0.1 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4, cacheRead: 0.025 },
  "gpt-4o": { input: 2.5, output: 10, cacheRead: 1.25 },
  "gpt-4o-mini": { input: 0.15, output: 0.6, cacheRead: 0.075 },
  "gpt-4-turbo": { input: 10, output: 30 },
  "gpt-4": { input: 30, output: 60 },
  "gpt-3.5-turbo": { input: 0.5, output: 1.5 },
  o1: { input: 15, output: 60, cacheRead: 7.5 },
  "o1-mini": { input: 1.1, output: 4.4, cacheRead: 0.55 },
  o3: { input: 2, output: 8, cacheRead: 0.5 },
  "o3-mini": { input: 1.1, output: 4.4, cacheRead: 0.55 },
  "o4-mini": { input: 1.1, output: 4.4, cacheRead: 0.275 },
  "text-embedding-3-small": { input: 0.02, output: 0 },
  "text-embedding-3-large": { input: 0.13, output: 0 },
  "text-embedding-ada-002": { input: 0.1, output: 0 },
  // Anthropic
  "claude-opus-4-5": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  "claude-opus-4": { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  "claude-sonnet-4": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "claude-haiku-4-5": { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  "claude-3-7-sonnet": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "claude-3-5-sonnet": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "claude-3-5-haiku": { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  "claude-3-opus": { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  "claude-3-haiku": { input: 0.25, output: 1.25, cacheRead: 0.03, cacheWrite: 0.3 },
  // Google
  "gemini-2.5-pro": { input: 1.25, output: 10, cacheRead: 0.31 },
  "gemini-2.5-flash": { input: 0.3, output: 2.5, cacheRead: 0.075 },
  "gemini-2.5-flash-lite": { input: 0.1, output: 0.4, cacheRead: 0.025 },
  "gemini-2.0-flash": { input: 0.1, output: 0.4, cacheRead: 0.025 },
  "gemini-2.0-flash-lite": { input: 0.075, output: 0.3 },
  "gemini-1.5-pro": { input: 1.25, output: 5 },
  "gemini-1.5-flash": { input: 0.075, output: 0.3 },
  // Mistral, DeepSeek, Cohere
  "mistral-large": { input: 2, output: 6 },
  "mistral-medium": { input: 0.4, output: 2 },
  "mistral-small": { input: 0.1, output: 0.3 },
  codestral: { input: 0.3, output: 0.9 },
  "deepseek-chat": { input: 0.27, output: 1.1, cacheRead: 0.07 },
  "deepseek-reasoner": { input: 0.55, output: 2.19, cacheRead: 0.14 },
  "command-r-plus": { input: 2.5, output: 10 },
  "command-r": { input: 0.15, output: 0.6 },
};

export interface TokenUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheCreation: number;
}

/** Looks up prices by model and computes costs; configured prices replace shipped ones by key. */
export class PriceTable {
  private readonly keys: string[];
  private readonly prices: Record<string, ModelPrice>;
  private readonly memo = new Map<string, ModelPrice | null>();

  constructor(overrides: Readonly<Record<string, ModelPrice>> = {}) {
    this.prices = { ...DEFAULT_PRICES };
    for (const [model, price] of Object.entries(overrides))
      this.prices[model.toLowerCase()] = price;
    // Longest first, so the most specific family wins.
    this.keys = Object.keys(this.prices).sort((a, b) => b.length - a.length);
  }

  /** The price of a model: provider prefixes (`openai/`, `us.anthropic.`) are ignored. */
  find(model: string): ModelPrice | undefined {
    const cached = this.memo.get(model);
    if (cached !== undefined) return cached ?? undefined;
    const name = model
      .toLowerCase()
      .replace(/^.*\//, "")
      .replace(/^(?:[a-z]{2}\.)?(?:anthropic|meta|mistral|cohere|amazon|google)\./, "");
    const key = this.keys.find((k) => name.startsWith(k));
    const price = key ? this.prices[key] : undefined;
    if (this.memo.size > 10_000) this.memo.clear();
    this.memo.set(model, price ?? null);
    return price;
  }

  /**
   * Cost in US dollars. Input tokens include cached ones (OpenTelemetry semantic conventions), so
   * cache reads and writes are priced at their own rates and the rest at the input rate.
   */
  cost(model: string, usage: TokenUsage): number {
    const price = this.find(model);
    if (!price) return 0;
    const uncached = Math.max(0, usage.input - usage.cacheRead - usage.cacheCreation);
    const dollars =
      uncached * price.input +
      usage.cacheRead * (price.cacheRead ?? price.input) +
      usage.cacheCreation * (price.cacheWrite ?? price.input) +
      usage.output * price.output;
    return dollars / 1_000_000;
  }
}
