// The proto form of threads and posts, shared with the outbox events.
export { toProtoPost, toProtoThread } from '../events/coordination.encode';
