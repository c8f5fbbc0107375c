/**
 * Tools in each provider's request format: OpenAI `tools[]` function entries, Anthropic `tools[]` entries, and Gemini
 * function declarations with `parameters` (OpenAPI subset) or `parametersJsonSchema` (JSON Schema).
 */

import type { ProviderProfile } from "./profile.js";

/** An OpenAI function tool. */
export interface OpenAIFunctionTool {
  /** Always `function`. */
  readonly type: "function";
  /** The function. */
  readonly function: {
    /** The provider name. */
    readonly name: string;
    /** The MCP description (with widenings, when asked to render them). */
    readonly description?: string;
    /** The schema as sent. */
    readonly parameters: unknown;
    /** Whether the provider enforces the schema. */
    readonly strict: boolean;
  };
}

/** An Anthropic tool. */
export interface AnthropicTool {
  /** The provider name. */
  readonly name: string;
  /** The MCP description (with widenings, when asked to render them). */
  readonly description?: string;
  /** The schema as sent. */
  readonly input_schema: unknown;
  /** `true` for strict tool use; absent otherwise. */
  readonly strict?: true;
}

/** A Gemini function declaration (one of `parameters` or `parametersJsonSchema`). */
export interface GeminiFunctionDeclaration {
  /** The provider name. */
  readonly name: string;
  /** The MCP description (with widenings, when asked to render them). */
  readonly description?: string;
  /** The schema as sent, in the OpenAPI-subset `Schema` form. */
  readonly parameters?: unknown;
  /** The schema as sent, as JSON Schema. */
  readonly parametersJsonSchema?: unknown;
}

/** A tool as one provider's request lists it. */
export type ProviderRequestTool = OpenAIFunctionTool | AnthropicTool | GeminiFunctionDeclaration;

/** What a request entry says of one tool: the provider name, the description as sent and the schema as sent. */
interface SentTool {
  readonly name: string;
  readonly description: string | undefined;
  readonly schema: unknown;
}

/** The request entry for one tool, in the profile's request format (strict when the profile is). */
export function requestTool(
  { format, strict }: Pick<ProviderProfile, "format" | "strict">,
  { name, description, schema }: SentTool,
): ProviderRequestTool {
  const text = description === undefined ? {} : { description };
  switch (format) {
    case "openai-function":
      return Object.freeze({
        type: "function",
        function: Object.freeze({ name, ...text, parameters: schema, strict }),
      });
    case "anthropic-tool":
      return Object.freeze({ name, ...text, input_schema: schema, ...(strict ? { strict: true as const } : {}) });
    case "gemini-parameters":
      return Object.freeze({ name, ...text, parameters: schema });
    case "gemini-parameters-json-schema":
      return Object.freeze({ name, ...text, parametersJsonSchema: schema });
  }
}
