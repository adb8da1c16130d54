import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { describe, expect, it } from 'vitest';
import { modelParameters } from '../../src/adapters/json-schema.js';
import { allLangChainTools } from '../../src/toolkits.js';
import { selectTools, tools } from '../../src/call/index.js';
import { isOptional } from '../../src/tools/params.js';
import { anthropicStrictProblems, geminiProblems, openAiStrictProblems, TOOL_NAME } from '../helpers/provider-rules.js';

const site = { url: 'http://127.0.0.1:9', username: 'a', appPassword: 'b' };
const optionalParams = (name: string) =>
  Object.entries(tools.find((t) => t.name === name)!.schema.shape)
    .filter(([, field]) => isOptional(field as never))
    .map(([key]) => key);

describe('strict-ready schemas', () => {
  it.each(tools.map((t) => [t.name, t] as const))('%s: strict schema passes OpenAI’s and Anthropic’s strict rules', (name, tool) => {
    expect(name).toMatch(TOOL_NAME);
    const strict = modelParameters(tool, { strict: true });
    expect(openAiStrictProblems(strict, name)).toEqual([]);
    expect(anthropicStrictProblems(strict, name)).toEqual([]);
    // Optional params are still optional in meaning: nullable, and null reads as "not given".
    const properties = strict.properties as Record<string, { type: unknown }>;
    for (const key of optionalParams(name)) expect(properties[key]!.type, `${name}.${key}`).toContain('null');
  });

  it('the default (compact) schemas break the strict rules wherever a param is optional: the validator bites', () => {
    const withOptional = tools.filter((t) => optionalParams(t.name).length > 0);
    expect(withOptional.length).toBeGreaterThanOrEqual(10);
    for (const tool of withOptional) {
      expect(openAiStrictProblems(modelParameters(tool), tool.name).join('\n')).toMatch(/additionalProperties|required/);
    }
  });

  it('every registry tool declares an object outputSchema (MCP structuredContent)', () => {
    for (const tool of tools) expect(tool.outputSchema?.def.type, tool.name).toBe('object');
  });

  it('the validator refuses what OpenAI refuses', () => {
    const base = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
    expect(openAiStrictProblems(base)).toEqual([]);
    expect(openAiStrictProblems({ ...base, additionalProperties: undefined }).join()).toMatch(/additionalProperties/);
    expect(openAiStrictProblems({ ...base, required: [] }).join()).toMatch(/missing 'a'/);
    expect(openAiStrictProblems({ ...base, properties: { a: { type: 'string', minLength: 1 } } }).join()).toMatch(/minLength/);
    expect(openAiStrictProblems({ ...base, properties: { a: { type: 'string', default: 'x' } } }).join()).toMatch(/default/);
    expect(openAiStrictProblems({ anyOf: [base] }).join()).toMatch(/root/);
    expect('get cms tags').not.toMatch(TOOL_NAME);
  });

  it('every tool’s declaration, as ChatGoogleGenerativeAI builds it, fits Gemini’s schema subset', () => {
    const model = new ChatGoogleGenerativeAI({ model: 'gemini-2.5-flash', apiKey: 'x' });
    const params = model.invocationParams({ tools: allLangChainTools({ site, toolsets: 'all' }) } as never) as {
      tools: Array<{ functionDeclarations: Array<{ name: string; parameters?: Record<string, unknown> }> }>;
    };
    const declarations = params.tools[0]!.functionDeclarations;
    expect(declarations).toHaveLength(selectTools(tools).length);
    for (const declaration of declarations) {
      expect(geminiProblems(declaration.parameters, declaration.name)).toEqual([]);
      const tool = tools.find((t) => t.name === declaration.name)!;
      // A tool without params sends no `parameters` (Gemini refuses an OBJECT with empty properties).
      if (Object.keys(tool.schema.shape).length === 0) expect(declaration.parameters).toBeUndefined();
    }
    expect(geminiProblems({ type: 'object', properties: {} }).join()).toMatch(/non-empty/);
    expect(geminiProblems({ type: 'object', properties: { a: { type: ['string', 'null'] } } }).join()).toMatch(/type/);
  });
});
