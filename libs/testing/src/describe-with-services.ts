import { describeRequiring } from './describe-requiring';

/** `describe` that runs only when `variable` names a service URL (see describeRequiring). */
function describeWithService(variable: string, name: string, fn: (url: string) => void): void {
  describeRequiring(name, { available: process.env[variable], missing: `${variable} is not set` }, fn);
}

export function describeWithNats(name: string, fn: (natsUrl: string) => void): void {
  describeWithService('NATS_URL', name, fn);
}

export function describeWithRedis(name: string, fn: (redisUrl: string) => void): void {
  describeWithService('REDIS_URL', name, fn);
}
