export * from './agent-directory';
export * from './agent-cache';
