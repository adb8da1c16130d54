/**
 * `cms-admin-toolkit/testing`: a scripted chat model to test an agent that uses the toolkits
 * offline (no provider). Loads only `@langchain/core`.
 */
export { type ScriptedCall, ScriptedChatModel, type ScriptedChatModelOptions, type ScriptedResponse } from './scripted-chat-model.js';
