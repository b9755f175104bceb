export * from './agent-directory';
export * from './agent-cache';
export { AGENT_BATCH_MAX } from './agent-batcher';
