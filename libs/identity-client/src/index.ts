export * from './agent-directory';
