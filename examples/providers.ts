/**
 * Provider profiles (docs/guide/providers.md): one catalog checked against every built-in profile, then admitted with
 * OpenAI strict as a required target (widened where it must be) and Gemini reported on, and the request each
 * provider is sent, with the map from the provider's tool names back to the tools to run.
 */

import { checkCatalog, profiles, ToolCatalog } from "backplane-agent-runtime";

const tools = [
  {
    name: "weather.forecast",
    revision: "3.0.0",
    backend: "weather",
    description: "Forecast for a city.",
    inputSchema: {
      type: "object",
      properties: {
        city: { type: "string", minLength: 1 },
        days: { type: "integer", minimum: 1, maximum: 14 },
        units: { enum: ["metric", "imperial"] },
      },
      required: ["city", "days", "units"],
      additionalProperties: false,
    },
  },
  {
    name: "weather.alerts",
    revision: "3.0.0",
    backend: "weather",
    description: "Active alerts.",
    inputSchema: {
      type: "object",
      properties: { region: { anyOf: [{ type: "string" }, { type: "null" }] } },
      required: ["region"],
      additionalProperties: false,
    },
  },
];

// Every built-in profile: what fits as published, what is translated exactly, what is refused (and by which rule).
for (const id of profiles.keys()) {
  const { report } = checkCatalog(tools, id);
  const outcomes = [...report].map(([name, { outcome, error }]) => {
    return error === undefined ? `${name} ${outcome}` : `${name} ${outcome} (${error.rule}: ${error.keyword})`;
  });
  console.log(`${id}: ${outcomes.join(", ")}`);
}

// At admission: OpenAI strict must take every tool (widened where needed); Gemini is only reported on.
const admitted = ToolCatalog.admitBatch(tools, {
  targets: [
    { target: "openai-strict", widen: true },
    { target: "gemini-parameters", required: false },
  ],
});
if (!admitted.ok) throw new Error(admitted.error.message);
const openai = admitted.value.forTarget("openai-strict");
console.log(openai?.tools.map((t) => JSON.stringify(t)).join("\n"));
console.log(openai?.names.mcpName("weather_forecast")); // the model calls weather_forecast: run this tool
const gemini = admitted.value.forTarget("gemini-parameters");
console.log([...(gemini?.report.values() ?? [])].map((c) => c.changes.map((x) => `${x.kind} ${x.change}`)));

// Output:
// openai-strict@2026-10: weather.forecast refused (keyword-unsupported: minLength), weather.alerts translated
// openai@2026-10: weather.forecast translated, weather.alerts translated
// anthropic-strict@2026-10: weather.forecast refused (keyword-unsupported: minLength), weather.alerts translated
// anthropic@2026-10: weather.forecast translated, weather.alerts translated
// gemini-parameters@2026-10: weather.forecast refused (keyword-unsupported: additionalProperties), weather.alerts refused (keyword-unsupported: additionalProperties)
// gemini-json-schema@2026-10: weather.forecast refused (keyword-unsupported: minLength), weather.alerts fits
// {"type":"function","function":{"name":"weather_forecast","description":"Forecast for a city.","parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1,"maximum":14},"units":{"enum":["metric","imperial"]}},"required":["city","days","units"],"additionalProperties":false},"strict":true}}
// {"type":"function","function":{"name":"weather_alerts","description":"Active alerts.","parameters":{"type":"object","properties":{"region":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["region"],"additionalProperties":false},"strict":true}}
// weather.forecast
// [ [], [ 'exact anyof-null-to-nullable' ] ]
